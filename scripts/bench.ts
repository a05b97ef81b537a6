/**
 * `npm run bench [-- --quick] [--report-dir DIR] [--reps N] [--dredd PATH | --without-dredd]` (--help):
 * how fast a conformance run is, where its time goes, how it compares with Dredd, and how large a
 * list the suite judges at full speed. Prints tables, writes bench.json to the report directory and,
 * in full mode, the measured part of docs/performance.md. A measurement, not a test: it asserts
 * nothing about time and exits 0 whenever it could measure (test/bench/bench-quick.test.ts runs the
 * quick mode so that it keeps working). The parts, one file each in scripts/bench/:
 * 1. conform-runs.ts: `node bin/conform.mjs` as a child, embedded / local / slow / seeded server,
 *    wall, CPU, peak memory, start-up, network wait, bursts of requests and the phases of each run
 *    (median of --reps, kinds interleaved);
 * 2. dredd.ts: the same run side by side with Dredd's 7 checks, against a local server and one
 *    120 ms away (Dredd installed on first use, unless --dredd PATH or --without-dredd);
 * 3. large-lists.ts: CategoryList bodies of 100,000 and 1,000,000 categories, and the HTTP client;
 * 4. report.ts: the machine, the tables, the targets; performance-page.ts: the docs' block.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DEFAULTS } from '../lib/config/config.ts'
import { optionsHelp, readCommandLine, type OptionSpec } from '../lib/config/options.ts'
import { conformRun, SLOW_DELAY_MS, summarise, type ConformKind, type ConformSample } from './bench/conform-runs.ts'
import { dreddScript, DREDD_VERSION, sideBySide } from './bench/dredd.ts'
import { writePerformancePage } from './bench/performance-page.ts'
import { measureClient, measureLists, type ListFigures } from './bench/large-lists.ts'
import { formatReport, listsTable, machine, mib, ms, table, target, TARGETS, type BenchReport, type TargetRow } from './bench/report.ts'
import { round } from './bench/stats.ts'

const BENCH_OPTIONS = [
  { flag: 'quick', kind: 'boolean', help: 'small sizes, one repetition: proves the benchmark still works' },
  { flag: 'report-dir', kind: 'string', value: 'DIR', env: 'CONFORM_REPORT_DIR', default: 'reports', help: 'where bench.json goes' },
  { flag: 'reps', kind: 'integer', value: 'N', min: 1, defaultText: '5, 1 with --quick', help: 'runs of each kind of conformance run' },
  { flag: 'dredd', kind: 'string', value: 'PATH', defaultText: `Dredd ${DREDD_VERSION}, installed on first use into node_modules/.cache (full mode)`, help: "the Dredd (its bin) to measure side by side with, its 7 checks of the interface" },
  { flag: 'without-dredd', kind: 'boolean', help: 'measure without Dredd (nothing installed)' },
  { flag: 'lists-only', kind: 'boolean', help: 'only the large lists (--reps runs of each, default 3): prints their table and targets, writes nothing' },
  { flag: 'help', short: 'h', kind: 'boolean', help: 'this text' },
] as const satisfies readonly OptionSpec[]

const PROCESS_IO = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) }

const USAGE = `Usage: npm run bench -- [options]

Measures conformance runs (wall, CPU, peak memory, start-up, network wait, round trips, phases),
side by side with Dredd against a local server and one 120 ms away, and large lists; prints tables,
writes bench.json and (full mode) the measured part of docs/performance.md. Asserts nothing: exit 0
whenever it could measure.

${optionsHelp(BENCH_OPTIONS)}`

async function main(argv: string[]): Promise<number> {
  const values = readCommandLine({ name: 'bench', usage: USAGE, options: BENCH_OPTIONS }, argv, PROCESS_IO, process.env)
  if (typeof values === 'number') return values
  const quick = values.quick === true
  const reps = (values.reps as number | undefined) ?? (quick ? 1 : 5)
  const listsOnly = values['lists-only'] === true
  const listReps = quick ? 1 : listsOnly ? ((values.reps as number | undefined) ?? 3) : 3
  const sizes = quick ? [10_000] : [100_000, 1_000_000]
  /** Categories the reference server holds in the seeded run (big ids). */
  const seedCount = quick ? 1_000 : 100_000
  const reportDir = resolve(values['report-dir'] as string)
  const scratch = mkdtempSync(join(tmpdir(), 'conform-bench-'))
  const host = machine()
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`)
  log(`${quick ? 'quick' : 'full'} mode, ${reps} repetition(s); ${host.nproc} × ${host.cpu}, Node ${host.node}, load ${host.loadAverageAtStart.join(' ')}`)

  try {
    if (listsOnly) {
      const { lists } = await measureLists(sizes, listReps, scratch, log)
      process.stdout.write(`Large lists (median of ${listReps}, each in a fresh process; Node ${host.node}):\n${listsTable({ lists })}\n\n`)
      process.stdout.write(table([['target', 'limit', 'actual', 'verdict'], ...listTargets(lists, sizes).map((t) => [t.target, t.limit, t.actual, t.met ? 'met' : `MISSED by ${t.missedBy}`])]) + '\n')
      return 0
    }
    // 1. conformance runs, interleaved so that a burst of load elsewhere hits every kind alike
    const kinds: ConformKind[] = ['embedded', 'local', 'slow', 'seeded']
    const samples = Object.fromEntries(kinds.map((k) => [k, [] as ConformSample[]])) as Record<ConformKind, ConformSample[]>
    for (let i = 0; i < reps; i++) {
      for (const kind of kinds) {
        const sample = await conformRun(kind, scratch, seedCount)
        samples[kind].push(sample)
        log(`${kind} run ${i + 1}/${reps}: exit ${sample.code}, ${Math.round(sample.wallMs)} ms wall, ${Math.round(sample.cpuMs ?? NaN)} ms CPU`)
      }
    }
    const conform: BenchReport['conform'] = {
      embedded: summarise(samples.embedded),
      local: summarise(samples.local),
      slow: { delayMs: SLOW_DELAY_MS, ...summarise(samples.slow) },
      seeded: { categories: seedCount, ...summarise(samples.seeded) },
    }
    // the round trips a far server adds to the run, read two ways: the bursts of requests its
    // arrivals show, and the wall time over the local run's in units of the delay
    const roundTrips = { waves: conform.slow.waves ?? NaN, fromWall: round((conform.slow.wallMs - conform.local.wallMs) / SLOW_DELAY_MS, 1) }

    // 2. side by side with Dredd, against a local server and one SLOW_DELAY_MS away, alternating
    const dredd = values['without-dredd'] === true || (quick && !values.dredd) ? undefined : dreddScript(values.dredd as string | undefined, log)
    const pairs = quick ? 1 : Math.max(reps, 7)
    const besideDredd = dredd
      ? { local: await sideBySide(dredd, pairs, scratch, log), far: await sideBySide(dredd, quick ? 1 : reps, scratch, log, SLOW_DELAY_MS) }
      : undefined

    // 3. large lists, then the HTTP client reading the largest body (big ids)
    const { lists, largest } = await measureLists(sizes, listReps, scratch, log)
    const client = await measureClient(largest, sizes[sizes.length - 1], DEFAULTS.maxResponseBytes)

    const targets: TargetRow[] = [target('full run, embedded server (wall, incl. start-up)', TARGETS.embeddedWallMs, conform.embedded.wallMs, ms)]
    for (const [kind, label] of [['embedded', 'embedded server (in the same process)'], ['local', 'local server (--base-url)']] as const) {
      targets.push(target(`full run, ${label}: peak memory`, TARGETS.fullRunPeakMiB, conform[kind].peakRssMiB, mib))
    }
    if (besideDredd) {
      const { local, far } = besideDredd
      targets.push(target(`wall, local server: at most ${TARGETS.localWallOfDredd} × Dredd's`, TARGETS.localWallOfDredd * local.dredd.wallMs, local.conform.wallMs, ms))
      targets.push(target("CPU, local server: at most Dredd's", local.dredd.cpuMs, local.conform.cpuMs, ms))
      targets.push(target(`wall, server ${SLOW_DELAY_MS} ms away: at most ${TARGETS.farWallOfDredd} × Dredd's`, TARGETS.farWallOfDredd * far.dredd.wallMs, far.conform.wallMs, ms))
    } else {
      targets.push(target('full run, local server (--base-url): CPU', TARGETS.fullRunCpuMs, conform.local.cpuMs, ms))
    }
    targets.push(target(`wall, server ${SLOW_DELAY_MS} ms away: at most the local run + ${TARGETS.roundTrips} × ${SLOW_DELAY_MS} ms`, conform.local.wallMs + TARGETS.roundTrips * SLOW_DELAY_MS, conform.slow.wallMs, ms))
    targets.push(target(`round trips the far server added ((far − local wall) / ${SLOW_DELAY_MS} ms)`, TARGETS.roundTrips, roundTrips.fromWall, (v) => v.toFixed(1)))
    targets.push(...listTargets(lists, sizes))

    const report: BenchReport & { startedAt: string; durationMs: number } = {
      mode: quick ? 'quick' : 'full',
      startedAt: new Date(Date.now() - performance.now()).toISOString(),
      durationMs: Math.round(performance.now()),
      machine: { ...host, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
      repetitions: { conform: reps, lists: listReps },
      conform,
      roundTrips,
      ...(besideDredd ? { sideBySide: besideDredd } : {}),
      lists,
      client,
      targets,
    }
    mkdirSync(reportDir, { recursive: true })
    const jsonPath = join(reportDir, 'bench.json')
    writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n')
    process.stdout.write(formatReport(report, jsonPath))
    // a full run writes the measured part of docs/performance.md; a quick one only proves it can
    const page = writePerformancePage(report, { dryRun: quick })
    process.stdout.write(`${quick ? 'Would write (not in --quick mode)' : 'Written'}: the measured part of ${page}\n`)
    return 0
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** The targets of the largest lists (issue 30): every check within twice JSON.parse's time and memory. */
function listTargets(lists: ListFigures[], sizes: number[]): TargetRow[] {
  const targets: TargetRow[] = []
  const ratio = (v: number) => `${v.toFixed(2)}×`
  for (const l of lists.filter((x) => x.count === sizes[sizes.length - 1])) {
    const what = `${l.count.toLocaleString('en')} categories, ${l.ids} ids`
    targets.push(target(`${what}: every check of the list vs bare JSON.parse (wall)`, TARGETS.listRatioToBareParse, l.ratioWithIds, ratio))
    targets.push(target(`${what}: the same in CPU time`, TARGETS.listRatioToBareParse, l.cpuRatioWithIds, ratio))
    targets.push(target(`${what}: memory added over the text vs bare JSON.parse's`, TARGETS.listMemoryToBareParse, l.memoryRatio, ratio))
    targets.push(target(`${what}: peak memory`, TARGETS.listPeakBytes / 2 ** 20, l.suite.peakRssMiB, mib))
  }
  return targets
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`)
    process.exitCode = 1
  },
)
