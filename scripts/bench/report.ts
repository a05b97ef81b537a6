/** What the benchmark prints: the machine, tables of the figures, the targets and whether they are met. */
import { readFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { SET_UP_ITEMS, type ConformSummary, type Phases, type SetUpItems } from './conform-runs.ts'
import type { SideBySide } from './dredd.ts'
import type { ListFigures, measureClient } from './large-lists.ts'
import { round } from './stats.ts'

/** The goals the figures are held to (issue 30; issue 22 before it). */
export const TARGETS = {
  embeddedWallMs: 3_000,
  /** CPU of a full run when Dredd is not measured beside it (beside it: at most Dredd's). */
  fullRunCpuMs: 1_200,
  /** Issue 30: a full run's peak memory (median), whatever the report formats. */
  fullRunPeakMiB: 100,
  /** Issue 30: a full run's wall time over Dredd's 7 checks, against a local server and a far one. */
  localWallOfDredd: 0.5,
  farWallOfDredd: 0.5,
  /** Issue 30: round trips a far server may add to the local run (three depend on each other). */
  roundTrips: 3,
  /** Issue 30: a list's every check within twice bare JSON.parse's time, and within twice the memory it adds. */
  listRatioToBareParse: 2,
  listMemoryToBareParse: 2,
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

/** A table: aligned columns for the terminal, or Markdown. */
export function table(rows: string[][], markdown = false): string {
  if (markdown) {
    const line = (r: string[]) => `| ${r.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`
    return [line(rows[0]), line(rows[0].map(() => '---')), ...rows.slice(1).map(line)].join('\n')
  }
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
    slow: ConformSummary & { delayMs: number }
    seeded: ConformSummary & { categories: number }
  }
  /** Round trips the far server added: bursts of requests it saw, and (far − local wall) / delay. */
  roundTrips: { waves: number; fromWall: number }
  sideBySide?: { local: SideBySide; far: SideBySide }
  lists: ListFigures[]
  client?: Awaited<ReturnType<typeof measureClient>>
  targets: TargetRow[]
}

/** The conformance runs: wall, CPU, peak, start-up, network wait, round trips. */
export function runsTable(r: Pick<BenchReport, 'conform' | 'roundTrips'>, markdown = false): string {
  const { conform } = r
  const row = (label: string, c: ConformSummary, trips = '—') => [label, ms(c.wallMs), ms(c.cpuMs), mib(c.peakRssMiB), ms(c.firstRequestMs), ms(c.networkWaitMs), pct(c.waitShare), String(c.requests), trips, c.exitCodes.join(',')]
  return table(
    [
      ['server', 'wall', 'CPU', 'peak', 'start-up (to 1st request)', 'waiting on the network', 'share of wall', 'requests', 'round trips', 'exit'],
      row('embedded (no --base-url)', conform.embedded),
      row('local, answers at once', conform.local),
      row(`local, every answer ${conform.slow.delayMs} ms late`, conform.slow, `${r.roundTrips.waves} bursts; ${r.roundTrips.fromWall} by the wall time`),
      row(`local, holding ${conform.seeded.categories.toLocaleString('en')} categories`, conform.seeded),
    ],
    markdown,
  )
}

/** Where the wall time of a run goes, phase by phase (lib/runner/run-phases.ts). */
export function phasesTable(conform: BenchReport['conform'], markdown = false): string {
  const names = Object.keys(PHASE_LABELS) as (keyof Phases)[]
  return table(
    [
      ['server', ...names.map((n) => PHASE_LABELS[n])],
      ...(['embedded', 'local', 'slow'] as const).map((kind) => [kind, ...names.map((n) => String(conform[kind].phases[n] ?? '—'))]),
    ],
    markdown,
  )
}

const SET_UP_LABELS: Record<keyof SetUpItems, string> = {
  nodeStarted: 'node started',
  commandLine: 'command line loaded',
  optionsRead: 'options read',
  targetReady: 'preflight answered / server listening',
  runnerLoaded: 'runner and suites loaded (beside it)',
  checksCollected: 'checks collected',
  firstRequestSent: '1st request sent',
}

/** The set-up before the first request, item by item: when each was done, ms from the spawn (medians). */
export function setUpTable(conform: BenchReport['conform'], markdown = false): string {
  return table(
    [
      ['server', ...SET_UP_ITEMS.map((n) => SET_UP_LABELS[n]), '1st request at the server'],
      ...(['embedded', 'local', 'slow'] as const).map((kind) => [
        kind,
        ...SET_UP_ITEMS.map((n) => String(conform[kind].setUp[n] ?? '—')),
        String(conform[kind].firstRequestMs ?? '—'),
      ]),
    ],
    markdown,
  )
}

/** Large lists: every check of a list (parse, schema, ids, created-in-list) against bare JSON.parse. */
export function listsTable(r: Pick<BenchReport, 'lists'>, markdown = false): string {
  return table(
    [
      ['list', 'bytes', 'JSON.parse', 'peak', 'suite path', 'parse / validate / ids / listed', 'peak', 'parse + validate', 'every check', 'CPU: parse + validate', 'every check', 'memory added'],
      ...r.lists.map((l) => [
        `${l.count.toLocaleString('en')} × ${l.ids} ids`,
        `${(l.bytes / 2 ** 20).toFixed(1)} MiB`,
        ms(l.bare.ms),
        mib(l.bare.peakRssMiB),
        ms(l.suite.ms),
        `${l.suite.phases.parse} / ${l.suite.phases.validate} / ${l.suite.phases.idsUnique} / ${l.suite.phases.listed ?? '—'} ms`,
        mib(l.suite.peakRssMiB),
        ratio(l.ratio),
        ratio(l.ratioWithIds),
        ratio(l.cpuRatio),
        ratio(l.cpuRatioWithIds),
        ratio(l.memoryRatio),
      ]),
    ],
    markdown,
  )
}

/** The run beside Dredd's 7 checks, against a local and a far server, with the ratios. */
export function sideBySideTable(s: { local: SideBySide; far: SideBySide }, markdown = false): string {
  const rows: string[][] = [['server', 'run', 'wall', 'CPU', 'peak', 'wall / Dredd', 'CPU / Dredd', 'exit']]
  for (const [label, x] of [['local', s.local], [`${s.far.delayMs} ms away`, s.far]] as const) {
    rows.push([label, `conform, every rule (${x.conform.requests} requests)`, ms(x.conform.wallMs), ms(x.conform.cpuMs), mib(x.conform.peakRssMiB), (x.conform.wallMs / x.dredd.wallMs).toFixed(2), (x.conform.cpuMs / x.dredd.cpuMs).toFixed(2), x.conform.exitCodes.join(',')])
    rows.push([label, `Dredd ${x.dredd.checks} checks`, ms(x.dredd.wallMs), ms(x.dredd.cpuMs), mib(x.dredd.peakRssMiB), '1', '1', x.dredd.exitCodes.join(',')])
  }
  return table(rows, markdown)
}

/** The printed form of bench.json. */
export function formatReport(r: BenchReport, jsonPath: string): string {
  const { conform, machine: m } = r
  const out: string[] = []
  out.push(`Machine: ${m.nproc} × ${m.cpu}, Node ${m.node}, load average ${m.loadAverageAtStart.join(' ')} → ${m.loadAverageAtEnd.join(' ')}`)
  out.push(`Conformance runs (median of ${r.repetitions.conform}; wall = spawn of node bin/conform.mjs (what npm run conform runs) to exit; CPU = user + system of that process, every thread):`)
  out.push(runsTable(r))
  out.push('')
  out.push('Where the wall time goes (medians, ms; lib/runner/run-phases.ts marks the phases):')
  out.push(phasesTable(conform))
  out.push('')
  out.push('The set-up before the first request, item by item (medians, ms from the spawn at which each item was done):')
  out.push(setUpTable(conform))
  if (r.sideBySide) {
    out.push('')
    out.push(`Side by side with Dredd (alternating pairs, medians; ${r.sideBySide.local.pairs} pairs against a local server, ${r.sideBySide.far.pairs} against one answering ${r.sideBySide.far.delayMs} ms late):`)
    out.push(sideBySideTable(r.sideBySide))
  }
  out.push('')
  out.push(`Large lists (median of ${r.repetitions.lists}, each in a fresh process; peak = the process's maxRSS, the body text included):`)
  out.push(listsTable(r))
  if (r.client) {
    const c = r.client
    out.push('')
    out.push(`HTTP client, GET of the ${c.count.toLocaleString('en')}-category body (${(c.bytes / 2 ** 20).toFixed(1)} MiB), then the suite path:`)
    const clientRow = (label: string, x: typeof c.defaultCap) => [
      label,
      x.error ? `refused: ${x.error}` : ms(x.ms),
      x.error ? '—' : ['fetch', 'parse', 'validate', 'idsUnique', 'listed'].map((p) => Math.round(x.phases?.[p] ?? NaN)).join(' / ') + ' ms',
      mib(x.peakRssMiB),
    ]
    const rows = [clientRow(`${c.defaultCap.maxResponseBytes} (default)`, c.defaultCap)]
    if (c.raisedCap.maxResponseBytes !== c.defaultCap.maxResponseBytes) rows.push(clientRow(String(c.raisedCap.maxResponseBytes), c.raisedCap))
    out.push(table([['--max-response-bytes', 'total', 'fetch / parse / validate / ids / listed', 'peak'], ...rows]))
  }
  out.push('')
  out.push(r.mode === 'quick' ? 'Targets (quick mode: small sizes, one repetition; nothing is asserted):' : 'Targets:')
  out.push(table([['target', 'limit', 'actual', 'verdict'], ...r.targets.map((t) => [t.target, t.limit, t.actual, t.met ? 'met' : `MISSED by ${t.missedBy}`])]))
  out.push('')
  out.push(`Written: ${jsonPath}`)
  return out.join('\n') + '\n'
}
