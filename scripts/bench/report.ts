/** What the benchmark prints: the machine, tables of the figures, the targets and whether they are met. */
import { readFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import type { ConformSummary, Phases } from './conform-runs.ts'
import type { SideBySide } from './dredd.ts'
import type { ListFigures, measureClient } from './large-lists.ts'
import { round } from './stats.ts'

/** The goals the figures are held to (README, Performance; issue 13 for CPU, memory and Dredd). */
export const TARGETS = {
  embeddedWallMs: 3_000,
  slowOverCriticalPathMs: 1_500,
  fullRunCpuMs: 1_200,
  fullRunPeakMiB: 200,
  listRatioToBareParse: 3,
  listPeakBytes: 1024 ** 3,
}

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'))
    if (line) return line.split(':')[1].trim()
  } catch {
    // not Linux
  }
  return cpus()[0]?.model ?? 'unknown'
}

export function machine() {
  return {
    nproc: cpus().length,
    cpu: cpuModel(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryMiB: Math.round(totalmem() / 2 ** 20),
    loadAverageAtStart: loadavg().map((l) => round(l, 2)),
  }
}

export interface TargetRow {
  target: string
  limit: string
  actual: string
  met: boolean
  /** How far off, when missed. */
  missedBy?: string
}

export const ms = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value)} ms`)
export const mib = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value)} MiB`)
const pct = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value * 100)} %`)
const ratio = (v: number) => `${v.toFixed(2)}×`

export function target(name: string, limit: number, actual: number, unit: (v: number) => string): TargetRow {
  const met = actual <= limit
  return { target: name, limit: unit(limit), actual: unit(actual), met, ...(met ? {} : { missedBy: `${unit(actual - limit)} (${Math.round((actual / limit - 1) * 100)} %)` }) }
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)))
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n')
}

const PHASE_LABELS: Record<keyof Phases, string> = {
  nodeStart: 'node start',
  load: 'load',
  setUp: 'set-up',
  checks: 'checks',
  reports: 'reports',
  exit: 'exit',
}

export interface BenchReport {
  mode: 'quick' | 'full'
  machine: ReturnType<typeof machine> & { loadAverageAtEnd: number[] }
  repetitions: { conform: number; lists: number }
  conform: {
    embedded: ConformSummary
    local: ConformSummary
    slow: ConformSummary & { delayMs: number; criticalChain: number; criticalPathMs: number }
    seeded: ConformSummary & { categories: number }
  }
  sideBySide?: SideBySide
  lists: ListFigures[]
  client?: Awaited<ReturnType<typeof measureClient>>
  targets: TargetRow[]
}

/** The printed form of bench.json. */
export function formatReport(r: BenchReport, jsonPath: string): string {
  const { conform, machine: m } = r
  const out: string[] = []
  out.push(`Machine: ${m.nproc} × ${m.cpu}, Node ${m.node}, load average ${m.loadAverageAtStart.join(' ')} → ${m.loadAverageAtEnd.join(' ')}`)
  out.push(`Conformance runs (median of ${r.repetitions.conform}; wall = spawn of node bin/conform.mjs (what npm run conform runs) to exit; CPU = user + system of that process, every thread):`)
  const row = (label: string, c: ConformSummary, critical = '—') => [label, ms(c.wallMs), ms(c.wallMsMin), ms(c.cpuMs), mib(c.peakRssMiB), ms(c.firstRequestMs), ms(c.lastRequestMs), String(c.requests), pct(c.waitShare), critical, c.exitCodes.join(',')]
  out.push(
    table([
      ['server', 'wall', 'min', 'CPU', 'peak', '1st request', 'last request', 'requests', 'waiting on server', 'critical path', 'exit'],
      row('embedded (no --base-url)', conform.embedded),
      row('local, answers at once', conform.local),
      row(`local, every answer ${conform.slow.delayMs} ms late`, conform.slow, `${conform.slow.criticalChain} × ${conform.slow.delayMs} = ${conform.slow.criticalPathMs} ms (${conform.slow.waves} waves seen)`),
      row(`local, holding ${conform.seeded.categories.toLocaleString('en')} categories`, conform.seeded),
    ]),
  )
  out.push('')
  out.push('Where the wall time goes (medians, ms; lib/runner/run-phases.ts marks the phases):')
  const names = Object.keys(PHASE_LABELS) as (keyof Phases)[]
  out.push(
    table([
      ['server', ...names.map((n) => PHASE_LABELS[n])],
      ...(['embedded', 'local', 'slow'] as const).map((kind) => [kind, ...names.map((n) => String(conform[kind].phases[n] ?? '—'))]),
    ]),
  )
  if (r.sideBySide) {
    const s = r.sideBySide
    out.push('')
    out.push(`Side by side (${s.pairs} alternating pairs against one local reference server, medians):`)
    out.push(
      table([
        ['run', 'wall', 'CPU', 'peak', 'exit'],
        [`conform, every rule (${s.conform.requests} requests)`, ms(s.conform.wallMs), ms(s.conform.cpuMs), mib(s.conform.peakRssMiB), s.conform.exitCodes.join(',')],
        [`Dredd, ${s.dredd.checks} checks`, ms(s.dredd.wallMs), ms(s.dredd.cpuMs), mib(s.dredd.peakRssMiB), s.dredd.exitCodes.join(',')],
      ]),
    )
  }
  out.push('')
  out.push(`Large lists (median of ${r.repetitions.lists}, each in a fresh process; peak = the process's maxRSS, the body text included):`)
  out.push(
    table([
      ['list', 'bytes', 'JSON.parse', 'peak', 'suite path', 'parse / validate / ids', 'peak', 'ratio', 'with ids', 'CPU ratio', 'with ids'],
      ...r.lists.map((l) => [
        `${l.count.toLocaleString('en')} × ${l.ids} ids`,
        `${(l.bytes / 2 ** 20).toFixed(1)} MiB`,
        ms(l.bare.ms),
        mib(l.bare.peakRssMiB),
        ms(l.suite.ms),
        `${l.suite.phases.parse} / ${l.suite.phases.validate} / ${l.suite.phases.idsUnique} ms`,
        mib(l.suite.peakRssMiB),
        ratio(l.ratio),
        ratio(l.ratioWithIds),
        ratio(l.cpuRatio),
        ratio(l.cpuRatioWithIds),
      ]),
    ]),
  )
  if (r.client) {
    const c = r.client
    out.push('')
    out.push(`HTTP client, GET of the ${c.count.toLocaleString('en')}-category body (${(c.bytes / 2 ** 20).toFixed(1)} MiB), then the suite path:`)
    const clientRow = (label: string, x: typeof c.defaultCap) => [
      label,
      x.error ? `refused: ${x.error}` : ms(x.ms),
      x.error ? '—' : ['fetch', 'parse', 'validate', 'idsUnique'].map((p) => Math.round(x.phases?.[p] ?? NaN)).join(' / ') + ' ms',
      mib(x.peakRssMiB),
    ]
    const rows = [clientRow(`${c.defaultCap.maxResponseBytes} (default)`, c.defaultCap)]
    if (c.raisedCap.maxResponseBytes !== c.defaultCap.maxResponseBytes) rows.push(clientRow(String(c.raisedCap.maxResponseBytes), c.raisedCap))
    out.push(table([['--max-response-bytes', 'total', 'fetch / parse / validate / ids', 'peak'], ...rows]))
  }
  out.push('')
  out.push(r.mode === 'quick' ? 'Targets (quick mode: small sizes, one repetition; nothing is asserted):' : 'Targets:')
  out.push(table([['target', 'limit', 'actual', 'verdict'], ...r.targets.map((t) => [t.target, t.limit, t.actual, t.met ? 'met' : `MISSED by ${t.missedBy}`])]))
  out.push('')
  out.push(`Written: ${jsonPath}`)
  return out.join('\n') + '\n'
}
