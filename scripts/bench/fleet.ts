/**
 * `npm run bench:fleet [-- --deployments N] [--reps N] [--report-dir DIR]` (--help): how a fleet
 * run scales (issue 29). Starts conforming reference servers on loopback in this process, each
 * with its own key, and measures, interleaved, `node bin/conform.mjs` as a child against one
 * (--base-url) and against N at once (--targets), each run against servers started for it (the
 * interface has no delete: a server run against before lists more): wall time from spawn to exit, CPU time and
 * peak memory (maxRSS, process.resourceUsage() on exit), the exit code. Twice: servers answering at
 * once, and servers answering 120 ms late (a deployment in another region). Prints the medians and
 * the ratios to the targets (the fleet within 3 × one run's wall time, at most 300 MiB) as a
 * Markdown table for docs/ci.md, and writes fleet-bench.json. A measurement, not a test: it asserts
 * nothing and exits 0 whenever it could measure.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { distIsCurrent } from '../../build/source-digest.mjs'
import { optionsHelp, readCommandLine, type OptionSpec } from '../../lib/config/options.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { cleanEnv, ROOT, runNode } from '../../test/helpers/child-process.ts'
import { readUsage, usageProbeArgs } from './process-usage.ts'
import { SLOW_DELAY_MS } from './conform-runs.ts'
import { machine } from './report.ts'
import { median, round } from './stats.ts'

const OPTIONS = [
  { flag: 'deployments', kind: 'integer', value: 'N', min: 2, max: 50, default: 10, help: 'deployments in the fleet run' },
  { flag: 'reps', kind: 'integer', value: 'N', min: 1, max: 20, default: 3, help: 'runs of each kind (medians)' },
  { flag: 'report-dir', kind: 'string', value: 'DIR', env: 'CONFORM_REPORT_DIR', default: 'reports', help: 'where fleet-bench.json goes' },
  { flag: 'help', short: 'h', kind: 'boolean', help: 'this text' },
] as const satisfies readonly OptionSpec[]

const USAGE = `Usage: npm run bench:fleet -- [options]

Measures one conformance run against one loopback reference server and a fleet run against N of
them in one process (wall, CPU, peak memory), with servers answering at once and 120 ms late.
Asserts nothing: exit 0 whenever it could measure.

${optionsHelp(OPTIONS)}`

const WALL_FACTOR = 3
const PEAK_MIB = 300

interface Sample {
  code: number | null
  wallMs: number
  cpuMs: number
  peakMiB: number
}

async function measured(args: string[], env: Record<string, string>, scratch: string): Promise<Sample> {
  const usageFile = join(mkdtempSync(join(scratch, 'usage-')), 'usage.json')
  const run = await runNode([...usageProbeArgs(scratch), join(ROOT, 'bin/conform.mjs'), ...args], { env: cleanEnv({ ...env, BENCH_USAGE_FILE: usageFile }), killAfterMs: 180_000 })
  const usage = readUsage(usageFile)
  return { code: run.code, wallMs: run.exitedAt - run.spawnedAt, cpuMs: usage?.cpuMs ?? NaN, peakMiB: usage?.peakRssMiB ?? NaN }
}

const summary = (samples: Sample[]) => ({
  wallMs: round(median(samples.map((s) => s.wallMs))),
  cpuMs: round(median(samples.map((s) => s.cpuMs))),
  peakMiB: round(median(samples.map((s) => s.peakMiB))),
  maxPeakMiB: round(Math.max(...samples.map((s) => s.peakMiB))),
  exitCodes: samples.map((s) => s.code),
})

async function main(argv: string[]): Promise<number> {
  const io = { out: (t: string) => process.stdout.write(t), err: (t: string) => process.stderr.write(t) }
  const values = readCommandLine({ name: 'bench:fleet', usage: USAGE, options: OPTIONS }, argv, io, process.env)
  if (typeof values === 'number') return values
  // a run from the sources (tsx) measures the compiler, not the run
  if (!distIsCurrent(ROOT)) return io.err('bench:fleet: dist/ does not match the sources: npm run build first\n'), 2
  const n = values.deployments as number
  const reps = values.reps as number
  const reportDir = resolve(values['report-dir'] as string)
  const scratch = mkdtempSync(join(tmpdir(), 'conform-bench-fleet-'))
  const host = machine()
  const log = (line: string) => process.stderr.write(`bench:fleet: ${line}\n`)
  log(`${n} deployments, ${reps} repetition(s); ${host.nproc} × ${host.cpu}, Node ${host.node}, load ${host.loadAverageAtStart.join(' ')}`)
  const results: Record<string, { one: ReturnType<typeof summary>; fleet: ReturnType<typeof summary> }> = {}
  let servers: RunningServer[] = []
  try {
    // fresh servers for every run: the interface has no delete, so a server run against before
    // lists that run's records too (a 65 KB description among them), and a run against it reads more
    const fresh = async (count: number, delayMs: number) => {
      servers = await Promise.all(
        Array.from({ length: count }, (_, i) => startReferenceServer({ apiKey: `bench-fleet-${i}-${Math.random().toString(36).slice(2)}`, behaviour: { transport: { delayMs, chunked: false, connectionClose: false } } })),
      )
      return servers
    }
    const closeAll = async () => {
      await Promise.all(servers.map((s) => s.close()))
      servers = []
    }
    for (const delayMs of [0, SLOW_DELAY_MS]) {
      const one: Sample[] = []
      const fleet: Sample[] = []
      // interleaved, so that a burst of load elsewhere hits both kinds alike
      for (let rep = 0; rep < reps; rep++) {
        const [first] = (await fresh(1, delayMs)) as [RunningServer]
        one.push(await measured(['--base-url', first.baseUrl, '--report-dir', join(scratch, `one-${delayMs}-${rep}`)], { CONFORM_API_KEY: first.apiKey }, scratch))
        await closeAll()
        const all = await fresh(n, delayMs)
        const keys = Object.fromEntries(all.map((s, i) => [`BENCH_KEY_${i}`, s.apiKey]))
        const targets = join(scratch, `targets-${delayMs}-${rep}.yaml`)
        writeFileSync(targets, `deployments:\n${all.map((s, i) => `  - label: d${i}\n    baseUrl: ${s.baseUrl}\n    apiKeyEnv: BENCH_KEY_${i}\n`).join('')}`)
        fleet.push(await measured(['--targets', targets, '--report-dir', join(scratch, `fleet-${delayMs}-${rep}`)], keys, scratch))
        await closeAll()
        const [o, f] = [one.at(-1) as Sample, fleet.at(-1) as Sample]
        log(`${delayMs} ms late, rep ${rep + 1}: one ${Math.round(o.wallMs)} ms (exit ${o.code}), ${n} at once ${Math.round(f.wallMs)} ms, ${Math.round(f.peakMiB)} MiB (exit ${f.code})`)
      }
      results[delayMs === 0 ? 'local' : `${delayMs} ms late`] = { one: summary(one), fleet: summary(fleet) }
    }
  } finally {
    await Promise.all(servers.map((s) => s.close()))
    rmSync(scratch, { recursive: true, force: true })
  }
  const rows = Object.entries(results).map(([kind, r]) => {
    const ratio = r.fleet.wallMs / r.one.wallMs
    return `| ${kind} | ${r.one.wallMs} ms | ${r.fleet.wallMs} ms | ${ratio.toFixed(2)} × (${ratio <= WALL_FACTOR ? 'met' : 'missed'}) | ${r.one.cpuMs} ms | ${r.fleet.cpuMs} ms | ${r.one.peakMiB} MiB | ${r.fleet.maxPeakMiB} MiB (${r.fleet.maxPeakMiB <= PEAK_MIB ? 'met' : 'missed'}) | ${r.one.exitCodes.join(',')} / ${r.fleet.exitCodes.join(',')} |`
  })
  const table = [
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${host.nproc} × ${host.cpu}, Node ${host.node}, load ${host.loadAverageAtStart.join(' ')} at the start; medians of ${reps}.`,
    '',
    `| servers | one deployment: wall | ${n} at once: wall | ratio (target ≤ ${WALL_FACTOR} ×) | one: CPU | ${n}: CPU | one: peak | ${n}: peak, highest (target ≤ ${PEAK_MIB} MiB) | exit codes (one / ${n}) |`,
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n')
  process.stdout.write(table + '\n')
  mkdirSync(reportDir, { recursive: true })
  writeFileSync(join(reportDir, 'fleet-bench.json'), JSON.stringify({ machine: host, deployments: n, reps, results }, null, 2) + '\n')
  return 0
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`bench:fleet: ${(error as Error).stack ?? String(error)}\n`)
    process.exitCode = 2
  },
)
