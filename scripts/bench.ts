/**
 * `npm run bench [-- --quick] [--report-dir DIR] [--reps N] [--dredd PATH]` (--help): how fast a conformance
 * run is, where its time goes, and how large a list the suite judges at full speed. Prints a table and
 * writes bench.json to the report directory. A measurement, not a test: it asserts nothing about
 * time and exits 0 whenever it could measure (test/bench/bench-quick.test.ts runs the quick mode so
 * that it keeps working). The parts, one file each in scripts/bench/:
 * 1. conform-runs.ts: `node bin/conform.mjs` as a child, embedded / local / slow / seeded server,
 *    wall, CPU, peak memory and the phases of each run (median of --reps, kinds interleaved);
 * 2. dredd.ts (with --dredd PATH only): the same run side by side with Dredd's 7 checks;
 * 3. large-lists.ts: CategoryList bodies of 100,000 and 1,000,000 categories, and the HTTP client;
 * 4. report.ts: the machine, the tables, the targets.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DEFAULTS } from '../lib/config/config.ts'
import { optionsHelp, readCommandLine, type OptionSpec } from '../lib/config/options.ts'
import { conformRun, SLOW_DELAY_MS, summarise, type ConformKind, type ConformSample } from './bench/conform-runs.ts'
import { sideBySide } from './bench/dredd.ts'
import { measureClient, measureLists } from './bench/large-lists.ts'
import { formatReport, machine, mib, ms, target, TARGETS, type BenchReport, type TargetRow } from './bench/report.ts'
import { round } from './bench/stats.ts'

/**
 * The longest chain of requests of one suite file that must follow one another. Every probe is one
 * request behind once(), sent as soon as a check awaits it and depending on no other answer, except
 * the last list of suites/categories/probes.ts: it waits until the first list and every POST of the
 * run are answered (sent together, one round trip) and only then sends its GET /categories, since
 * the checks of what was created judge the list that follows them. So: POSTs → last list = 2. The
 * files run one after another in one worker (lib/runner/conform-run.ts), so a slow server also costs
 * one round trip per other file: the "waves seen" of the slow run.
 */
const CRITICAL_CHAIN = 2

const BENCH_OPTIONS = [
  { flag: 'quick', kind: 'boolean', help: 'small sizes, one repetition: proves the benchmark still works' },
  { flag: 'report-dir', kind: 'string', value: 'DIR', env: 'CONFORM_REPORT_DIR', default: 'reports', help: 'where bench.json goes' },
  { flag: 'reps', kind: 'integer', value: 'N', min: 1, defaultText: '5, 1 with --quick', help: 'runs of each kind of conformance run' },
  { flag: 'dredd', kind: 'string', value: 'PATH', help: "an installed Dredd (its bin), to measure a run side by side with Dredd's 7 checks" },
  { flag: 'help', short: 'h', kind: 'boolean', help: 'this text' },
] as const satisfies readonly OptionSpec[]

const PROCESS_IO = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) }

const USAGE = `Usage: npm run bench -- [options]

Measures conformance runs (wall, CPU, peak memory, phases) and large lists, prints tables and
writes bench.json. Asserts nothing: exit 0 whenever it could measure.

${optionsHelp(BENCH_OPTIONS)}`

async function main(argv: string[]): Promise<number> {
  const values = readCommandLine({ name: 'bench', usage: USAGE, options: BENCH_OPTIONS }, argv, PROCESS_IO, process.env)
  if (typeof values === 'number') return values
  const quick = values.quick === true
  const reps = (values.reps as number | undefined) ?? (quick ? 1 : 5)
  const listReps = quick ? 1 : 3
  const sizes = quick ? [10_000] : [100_000, 1_000_000]
  /** Categories the reference server holds in the seeded run (big ids). */
  const seedCount = quick ? 1_000 : 100_000
  const reportDir = resolve(values['report-dir'] as string)
  const scratch = mkdtempSync(join(tmpdir(), 'conform-bench-'))
  const host = machine()
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`)
  log(`${quick ? 'quick' : 'full'} mode, ${reps} repetition(s); ${host.nproc} × ${host.cpu}, Node ${host.node}, load ${host.loadAverageAtStart.join(' ')}`)

  try {
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
    const criticalPathMs = CRITICAL_CHAIN * SLOW_DELAY_MS
    const conform: BenchReport['conform'] = {
      embedded: summarise(samples.embedded),
      local: summarise(samples.local),
      slow: { delayMs: SLOW_DELAY_MS, criticalChain: CRITICAL_CHAIN, criticalPathMs, ...summarise(samples.slow) },
      seeded: { categories: seedCount, ...summarise(samples.seeded) },
    }

    // 2. side by side with Dredd, when one is given
    const besideDredd = values.dredd ? await sideBySide(values.dredd as string, quick ? 1 : Math.max(reps, 7), scratch, log) : undefined

    // 3. large lists, then the HTTP client reading the largest body (big ids)
    const { lists, largest } = await measureLists(sizes, listReps, scratch, log)
    const client = await measureClient(largest, sizes[sizes.length - 1], DEFAULTS.maxResponseBytes)

    const targets: TargetRow[] = [target('full run, embedded server (wall, incl. start-up)', TARGETS.embeddedWallMs, conform.embedded.wallMs, ms)]
    for (const [kind, label] of [['embedded', 'embedded server (in the same process)'], ['local', 'local server (--base-url)']] as const) {
      targets.push(target(`full run, ${label}: CPU`, TARGETS.fullRunCpuMs, conform[kind].cpuMs, ms))
      targets.push(target(`full run, ${label}: peak memory`, TARGETS.fullRunPeakMiB, conform[kind].peakRssMiB, mib))
    }
    if (besideDredd) targets.push(target("full run vs Dredd's 7 checks, side by side: wall", besideDredd.dredd.wallMs, besideDredd.conform.wallMs, ms))
    targets.push(target(`full run, server ${SLOW_DELAY_MS} ms late (wall ≤ critical path ${criticalPathMs} ms + 1.5 s)`, criticalPathMs + TARGETS.slowOverCriticalPathMs, conform.slow.wallMs, ms))
    for (const l of lists.filter((x) => x.count === sizes[sizes.length - 1])) {
      const what = `${l.count.toLocaleString('en')} categories, ${l.ids} ids`
      const ratio = (v: number) => `${v.toFixed(2)}×`
      targets.push(target(`${what}: parse + validate vs bare JSON.parse`, TARGETS.listRatioToBareParse, l.ratio, ratio))
      targets.push(target(`${what}: the same + ids-unique pass`, TARGETS.listRatioToBareParse, l.ratioWithIds, ratio))
      targets.push(target(`${what}: peak memory`, TARGETS.listPeakBytes / 2 ** 20, l.suite.peakRssMiB, mib))
    }

    const report: BenchReport & { startedAt: string; durationMs: number } = {
      mode: quick ? 'quick' : 'full',
      startedAt: new Date(Date.now() - performance.now()).toISOString(),
      durationMs: Math.round(performance.now()),
      machine: { ...host, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
      repetitions: { conform: reps, lists: listReps },
      conform,
      ...(besideDredd ? { sideBySide: besideDredd } : {}),
      lists,
      client,
      targets,
    }
    mkdirSync(reportDir, { recursive: true })
    const jsonPath = join(reportDir, 'bench.json')
    writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n')
    process.stdout.write(formatReport(report, jsonPath))
    return 0
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
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
