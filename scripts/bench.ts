/**
 * `npm run bench [-- --quick] [--report-dir DIR] [--reps N]`: how fast a conformance run is, and how
 * large a list the suite judges at full speed. Prints a table and writes bench.json to the report
 * directory. A measurement, not a test: it asserts nothing about time and exits 0 whenever it could
 * measure (test/bench/bench-quick.test.ts runs the quick mode so that it keeps working).
 *
 * 1. Conformance runs, each `node bin/conform.mjs` (what `npm run conform` runs) as a child process, timed from
 *    spawn to exit (median of --reps):
 *    - embedded: no --base-url, exactly what a newcomer's `npm run conform` does;
 *    - local: a reference server started here (so its request arrivals can be timed) and handed to
 *      the child with --base-url and CONFORM_API_KEY: time to first request, requests sent, and
 *      the share of the wall time during which at least one request was waiting on the server
 *      (the union of the exchanges' intervals in results.json);
 *    - slow: the same server answering every request 100 ms late, next to the critical path.
 * 2. Large lists: a CategoryList body of 100,000 and of 1,000,000 categories, small ids and ids
 *    beyond 2^53 (which take the rewrite path of parseJsonExact), each case in a fresh child
 *    process so that process.resourceUsage().maxRSS is the peak of that case alone: a bare
 *    JSON.parse of the same text, and the suite's path (parseJsonExact, the CategoryList
 *    validator, the ids-unique pass). Then the HTTP client reading the largest body, with the
 *    default --max-response-bytes and with a raised one.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, createReadStream, openSync, writeSync, closeSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'

const ROOT = fileURLToPath(new URL('../', import.meta.url))
const CONFORM_ENTRY = join(ROOT, 'bin/conform.mjs')
const SELF = fileURLToPath(import.meta.url)

/** Delay of every answer of the slow server. */
const SLOW_DELAY_MS = 100
/**
 * The longest chain of requests in suites/ that must follow one another. Every probe is one
 * request behind once(), sent as soon as a check awaits it and depending on no other answer,
 * except listAfterCreations in create-category.test.ts: it awaits the four valid creations (sent
 * together, one round trip) and only then sends its GET /categories (a second round trip), since
 * created-in-list judges the list that follows them. Nothing waits on that list. The preflight of
 * --base-url is a TCP handshake, not a request. So: creations → list = 2.
 */
const CRITICAL_CHAIN = 2

const TARGETS = {
  embeddedWallMs: 3_000,
  slowOverCriticalPathMs: 1_500,
  listRatioToBareParse: 3,
  listPeakBytes: 1024 ** 3,
}

// ---------------------------------------------------------------------------------------------
// child-process cases (large lists): `bench.ts --case NAME --file PATH [--url URL --cap N]`

interface CaseReport {
  ms: number
  /** Phases of the suite's path, in ms. */
  phases?: Record<string, number>
  /** CPU time (user + system, every thread of the process: GC helpers too), overall and by phase. */
  cpuMs?: number
  phasesCpu?: Record<string, number>
  items?: number
  valid?: boolean
  error?: string
  bodyBytes?: number
  /** RSS once the body text is in memory, before parsing (MiB). */
  baseRssMiB: number
  peakRssMiB: number
}

async function runCase(name: string, file: string | undefined, url: string | undefined, cap: number | undefined): Promise<CaseReport> {
  const readText = (): string => new TextDecoder().decode(readFileSync(file as string)) // as the HTTP client decodes a body
  const peak = () => process.resourceUsage().maxRSS / 1024
  const rss = () => process.memoryUsage().rss / 2 ** 20
  const cpu = () => {
    const usage = process.cpuUsage()
    return (usage.user + usage.system) / 1000
  }
  if (name === 'bare') {
    const text = readText()
    const baseRssMiB = rss()
    const c0 = cpu()
    const t0 = performance.now()
    const value = JSON.parse(text) as unknown[]
    const ms = performance.now() - t0
    return { ms, cpuMs: cpu() - c0, items: value.length, baseRssMiB, peakRssMiB: peak() }
  }
  const { parseJsonExact } = await import('../lib/json/exact-json.ts')
  const { validatorFor } = await import('../lib/spec/schema-registry.ts')
  const { expectDistinctIds } = await import('../lib/checks/category.ts')
  type Records = Parameters<typeof expectDistinctIds>[0]
  const validate = validatorFor('CategoryList')
  validate([]) // compiled once per run, before any list arrives
  const judge = (text: string) => {
    const [c0, t0] = [cpu(), performance.now()]
    const body = parseJsonExact(text)
    const [c1, t1] = [cpu(), performance.now()]
    const valid = validate(body)
    const [c2, t2] = [cpu(), performance.now()]
    if (valid) expectDistinctIds(body as Records, 'the list')
    const [c3, t3] = [cpu(), performance.now()]
    return {
      valid,
      items: (body as unknown[]).length,
      phases: { parse: t1 - t0, validate: t2 - t1, idsUnique: t3 - t2 },
      phasesCpu: { parse: c1 - c0, validate: c2 - c1, idsUnique: c3 - c2 },
    }
  }
  if (name === 'real') {
    const text = readText()
    const baseRssMiB = rss()
    const t0 = performance.now()
    const { valid, items, phases, phasesCpu } = judge(text)
    const cpuMs = phasesCpu.parse + phasesCpu.validate + phasesCpu.idsUnique
    return { ms: performance.now() - t0, phases, cpuMs, phasesCpu, items, valid, baseRssMiB, peakRssMiB: peak() }
  }
  if (name === 'client') {
    const { HttpClient } = await import('../lib/http/client.ts')
    const client = new HttpClient({ baseUrl: url as string, apiKey: 'bench-key-not-secret', timeoutMs: 120_000, maxResponseBytes: cap as number })
    const baseRssMiB = rss()
    const t0 = performance.now()
    const result = await client.send({ method: 'GET', path: '/categories' })
    const fetchMs = performance.now() - t0
    await client.close()
    if (result.text === undefined) {
      return { ms: fetchMs, error: result.exchange.error?.code ?? 'NO_RESPONSE', baseRssMiB, peakRssMiB: peak() }
    }
    const { valid, items, phases } = judge(result.text)
    return {
      ms: performance.now() - t0,
      phases: { fetch: fetchMs, ...phases },
      items,
      valid,
      bodyBytes: result.exchange.response?.bodyBytes,
      baseRssMiB,
      peakRssMiB: peak(),
    }
  }
  throw new Error(`unknown case ${name}`)
}

// ---------------------------------------------------------------------------------------------
// helpers

function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (/^CONFORM_|^(HTTPS?|NO|ALL)_PROXY$|^GITHUB_/i.test(name)) continue
    env[name] = value
  }
  return { ...env, ...extra }
}

interface ChildRun {
  code: number | null
  /** performance.now() at spawn and at exit. */
  spawnedAt: number
  exitedAt: number
  stdout: string
  stderr: string
}

function runNode(args: string[], env: NodeJS.ProcessEnv, killAfterMs = 180_000): Promise<ChildRun> {
  return new Promise((resolvePromise) => {
    const spawnedAt = performance.now()
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs)
    let exitedAt = 0
    child.on('exit', () => (exitedAt = performance.now()))
    child.on('close', (code) => {
      clearTimeout(killer)
      resolvePromise({ code, spawnedAt, exitedAt: exitedAt || performance.now(), stdout, stderr })
    })
  })
}

const median = (values: number[]): number => {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}
const round = (value: number, digits = 0): number => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value)

/** Length of the union of [start, end] intervals. */
function unionLength(intervals: [number, number][]): number {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0])
  let total = 0
  let [start, end] = [-Infinity, -Infinity]
  for (const [s, e] of sorted) {
    if (s > end) {
      if (end > start) total += end - start
      ;[start, end] = [s, e]
    } else if (e > end) end = e
  }
  if (end > start) total += end - start
  return total
}

// ---------------------------------------------------------------------------------------------
// 1. conformance runs

type ConformKind = 'embedded' | 'local' | 'slow' | 'seeded'

interface ConformSample {
  code: number | null
  wallMs: number
  /** CPU time (user + system, all threads) and peak RSS of the conform process. */
  cpuMs?: number
  peakRssMiB?: number
  firstRequestMs?: number
  lastRequestMs?: number
  requests?: number
  /** Bursts of requests separated by more than half the server's delay (slow server only). */
  waves?: number
  waitShare?: number
  runDurationMs?: number
}

/**
 * Preloaded into the conform process (before tsx): on exit it writes process.resourceUsage(), so
 * that CPU time and peak memory are known. CPU time is what a busy machine does not inflate.
 */
const USAGE_PROBE = `import { writeFileSync } from 'node:fs'
process.on('exit', () => { try { writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify(process.resourceUsage())) } catch {} })
`

/** A list held by the reference server, to see a run judge a large one end to end. */
function seedOf(count: number): { id: bigint; name: string; description: string }[] {
  return Array.from({ length: count }, (_, i) => ({ id: 2n ** 62n + BigInt(i), name: `category-${i}`, description: `Pets of kind ${i} (bench)` }))
}

async function conformRun(kind: ConformKind, scratch: string, seedCount: number): Promise<ConformSample> {
  const reportDir = mkdtempSync(join(scratch, `conform-${kind}-`))
  const usageFile = join(reportDir, 'usage.json')
  const probe = join(scratch, 'usage-probe.mjs')
  writeFileSync(probe, USAGE_PROBE)
  // bin/conform.mjs is what `npm run conform` runs: packages through plain Node, then tsx
  const loaders = ['--import', pathToFileURL(probe).href]
  const args = [...loaders, CONFORM_ENTRY, '--report-dir', reportDir]
  const arrivals: number[] = []
  let server: Awaited<ReturnType<typeof import('../lib/server/reference-server.ts').startReferenceServer>> | undefined
  let run: ChildRun
  const delayMs = kind === 'slow' ? SLOW_DELAY_MS : 0
  try {
    if (kind === 'embedded') {
      run = await runNode(args, cleanEnv({ BENCH_USAGE_FILE: usageFile }))
    } else {
      const { startReferenceServer } = await import('../lib/server/reference-server.ts')
      server = await startReferenceServer({
        apiKey: `bench-${Math.random().toString(36).slice(2)}-key`,
        behaviour: { transport: { delayMs, chunked: false, connectionClose: false } },
        ...(kind === 'seeded' ? { seed: seedOf(seedCount) } : {}),
      })
      // the server lists every request it receives; timing each addition gives the arrival times
      const push = server.requests.push.bind(server.requests)
      server.requests.push = (...items) => {
        const now = performance.now()
        for (let i = 0; i < items.length; i++) arrivals.push(now)
        return push(...items)
      }
      run = await runNode([...args, '--base-url', server.baseUrl], cleanEnv({ CONFORM_API_KEY: server.apiKey, BENCH_USAGE_FILE: usageFile }))
    }
  } finally {
    await server?.close()
  }
  if (run.code !== 0) process.stderr.write(`bench: ${kind} run exited ${run.code}\n${run.stdout.slice(-2000)}${run.stderr.slice(-2000)}\n`)
  const wallMs = run.exitedAt - run.spawnedAt
  const sample: ConformSample = { code: run.code, wallMs }
  try {
    const usage = JSON.parse(readFileSync(usageFile, 'utf8')) as NodeJS.ResourceUsage
    sample.cpuMs = (usage.userCPUTime + usage.systemCPUTime) / 1000
    sample.peakRssMiB = usage.maxRSS / 1024
  } catch {
    // the process died before its exit handler
  }
  if (server) {
    sample.requests = arrivals.length
    if (arrivals.length > 0) {
      sample.firstRequestMs = arrivals[0] - run.spawnedAt
      sample.lastRequestMs = arrivals[arrivals.length - 1] - run.spawnedAt
      if (delayMs > 0) sample.waves = 1 + arrivals.slice(1).filter((t, i) => t - arrivals[i] > delayMs / 2).length
    }
  }
  try {
    // waiting on the server: the union of the exchanges' intervals (as the client timed them)
    const results = JSON.parse(readFileSync(join(reportDir, 'results.json'), 'utf8')) as {
      durationMs: number
      summary: { requests: number }
      rules: { checks: { exchanges: { id: string; startedAt: string; durationMs: number }[] }[] }[]
    }
    const spawnedEpoch = performance.timeOrigin + run.spawnedAt
    const seen = new Map<string, [number, number]>()
    for (const rule of results.rules) {
      for (const check of rule.checks) {
        for (const e of check.exchanges) {
          const start = Date.parse(e.startedAt) - spawnedEpoch
          seen.set(e.id, [start, start + e.durationMs])
        }
      }
    }
    sample.waitShare = unionLength([...seen.values()]) / wallMs
    sample.runDurationMs = results.durationMs
    sample.requests ??= results.summary.requests
  } catch {
    // no results.json: the run failed, and its exit code says so
  }
  return sample
}

// ---------------------------------------------------------------------------------------------
// 2. large lists

interface ListFile {
  count: number
  ids: 'small' | 'big'
  path: string
  bytes: number
}

/**
 * A CategoryList body as a server would send it, without whitespace. One name is not ASCII (the
 * suite itself creates such a name), which makes the decoded text a two-byte string, as it would
 * be on a real deployment. Big ids start at 2^62: 19 digits, all beyond 2^53.
 */
function writeList(dir: string, count: number, ids: 'small' | 'big'): ListFile {
  const path = join(dir, `list-${count}-${ids}.json`)
  const fd = openSync(path, 'w')
  const base = ids === 'big' ? 2n ** 62n : 1n
  const batch = 10_000
  writeSync(fd, '[')
  for (let from = 0; from < count; from += batch) {
    const parts: string[] = []
    for (let i = from; i < Math.min(count, from + batch); i++) {
      const id = ids === 'big' ? (base + BigInt(i)).toString() : String(i + 1)
      const name = i === 0 ? 'Ñandú 🐇' : `category-${i}`
      parts.push(`{"id":${id},"name":"${name}","description":"Pets of kind ${i} (bench)"}`)
    }
    writeSync(fd, (from > 0 ? ',' : '') + parts.join(','))
  }
  writeSync(fd, ']')
  closeSync(fd)
  return { count, ids, path, bytes: statSync(path).size }
}

async function childCase(name: string, extra: string[]): Promise<CaseReport> {
  const run = await runNode(['--import', 'tsx', SELF, '--case', name, ...extra], cleanEnv(), 600_000)
  const line = run.stdout.trim().split('\n').pop() ?? ''
  try {
    return JSON.parse(line) as CaseReport
  } catch {
    throw new Error(`case ${name} ${extra.join(' ')} exited ${run.code}: ${run.stderr.slice(-1500)}`)
  }
}

/** Each case repeated `reps` times in fresh processes: medians of the times, the largest peak. */
async function repeatCase(name: string, extra: string[], reps: number): Promise<CaseReport[]> {
  const reports: CaseReport[] = []
  for (let i = 0; i < reps; i++) reports.push(await childCase(name, extra))
  return reports
}

interface ListFigures {
  count: number
  ids: 'small' | 'big'
  bytes: number
  bare: { ms: number; runs: number[]; baseRssMiB: number; peakRssMiB: number }
  /** parse = parseJsonExact, validate = the CategoryList validator, idsUnique = expectDistinctIds. */
  suite: { ms: number; runs: number[]; phases: Record<string, number>; baseRssMiB: number; peakRssMiB: number }
  /** (parse + validate) / bare JSON.parse, and the same with the ids-unique pass: wall times. */
  ratio: number
  ratioWithIds: number
  /** The same ratios in CPU time, which a busy machine distorts less. */
  cpuRatio: number
  cpuRatioWithIds: number
}

function listFigures(file: ListFile, bare: CaseReport[], suite: CaseReport[]): ListFigures {
  const phase = (r: CaseReport, name: string) => r.phases?.[name] ?? NaN
  const bareMs = median(bare.map((r) => r.ms))
  const validatedMs = median(suite.map((r) => phase(r, 'parse') + phase(r, 'validate')))
  const withIdsMs = median(suite.map((r) => r.ms))
  return {
    count: file.count,
    ids: file.ids,
    bytes: file.bytes,
    bare: { ms: round(bareMs), runs: bare.map((r) => round(r.ms)), baseRssMiB: round(median(bare.map((r) => r.baseRssMiB))), peakRssMiB: round(Math.max(...bare.map((r) => r.peakRssMiB))) },
    suite: {
      ms: round(withIdsMs),
      runs: suite.map((r) => round(r.ms)),
      phases: Object.fromEntries(['parse', 'validate', 'idsUnique'].map((name) => [name, round(median(suite.map((r) => phase(r, name))))])),
      baseRssMiB: round(median(suite.map((r) => r.baseRssMiB))),
      peakRssMiB: round(Math.max(...suite.map((r) => r.peakRssMiB))),
    },
    ratio: round(validatedMs / bareMs, 2),
    ratioWithIds: round(withIdsMs / bareMs, 2),
    cpuRatio: round(median(suite.map((r) => (r.phasesCpu?.parse ?? NaN) + (r.phasesCpu?.validate ?? NaN))) / median(bare.map((r) => r.cpuMs ?? NaN)), 2),
    cpuRatioWithIds: round(median(suite.map((r) => r.cpuMs ?? NaN)) / median(bare.map((r) => r.cpuMs ?? NaN)), 2),
  }
}

/** Serves one file as GET …/v1/categories, streamed from disk so that this process stays small. */
async function fileServer(path: string): Promise<{ baseUrl: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(statSync(path).size) })
    createReadStream(path).pipe(res)
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server }
}

// ---------------------------------------------------------------------------------------------
// report

interface TargetRow {
  target: string
  limit: string
  actual: string
  met: boolean
  /** How far off, when missed. */
  missedBy?: string
}

function table(rows: string[][]): string {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length)))
  return rows.map((r) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ')).join('\n')
}

const ms = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value)} ms`)
const mib = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? "—" : `${Math.round(value)} MiB`)
const pct = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? '—' : `${Math.round(value * 100)} %`)

function cpuModel(): string {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8').split('\n').find((l) => l.startsWith('model name'))
    if (line) return line.split(':')[1].trim()
  } catch {
    // not Linux
  }
  return cpus()[0]?.model ?? 'unknown'
}

// ---------------------------------------------------------------------------------------------
// main

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean' },
      'report-dir': { type: 'string' },
      reps: { type: 'string' },
      case: { type: 'string' },
      file: { type: 'string' },
      url: { type: 'string' },
      cap: { type: 'string' },
    },
  })
  if (values.case) {
    const report = await runCase(values.case, values.file, values.url, values.cap === undefined ? undefined : Number(values.cap))
    process.stdout.write(JSON.stringify(report) + '\n')
    return 0
  }

  const quick = values.quick === true
  const reps = values.reps !== undefined ? Math.max(1, Number(values.reps)) : quick ? 1 : 5
  const listReps = quick ? 1 : 3
  const sizes = quick ? [10_000] : [100_000, 1_000_000]
  /** Categories the reference server holds in the seeded run (big ids). */
  const seedCount = quick ? 1_000 : 100_000
  const reportDir = resolve(values['report-dir'] ?? 'reports')
  const scratch = mkdtempSync(join(tmpdir(), 'conform-bench-'))
  const { DEFAULTS } = await import('../lib/config/config.ts')
  const startedAt = new Date()
  const machine = {
    nproc: cpus().length,
    cpu: cpuModel(),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    memoryMiB: Math.round(totalmem() / 2 ** 20),
    loadAverageAtStart: loadavg().map((l) => round(l, 2)),
  }
  const log = (line: string) => process.stderr.write(`bench: ${line}\n`)
  log(`${quick ? 'quick' : 'full'} mode, ${reps} repetition(s); ${machine.nproc} × ${machine.cpu}, Node ${machine.node}, load ${machine.loadAverageAtStart.join(' ')}`)

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
    const summarise = (list: ConformSample[]) => {
      const of = (pick: (s: ConformSample) => number | undefined) => list.map((s) => pick(s) ?? NaN)
      return {
        exitCodes: list.map((s) => s.code),
        wallMs: round(median(of((s) => s.wallMs))),
        wallMsMin: round(Math.min(...of((s) => s.wallMs))),
        wallMsRuns: list.map((s) => round(s.wallMs)),
        cpuMs: round(median(of((s) => s.cpuMs))),
        peakRssMiB: round(median(of((s) => s.peakRssMiB))),
        requests: median(of((s) => s.requests)),
        waitShare: round(median(of((s) => s.waitShare)), 3),
        runDurationMs: round(median(of((s) => s.runDurationMs))),
        ...(list[0].firstRequestMs !== undefined
          ? {
              firstRequestMs: round(median(of((s) => s.firstRequestMs))),
              firstRequestMsMin: round(Math.min(...of((s) => s.firstRequestMs))),
              lastRequestMs: round(median(of((s) => s.lastRequestMs))),
            }
          : {}),
        ...(list[0].waves !== undefined ? { waves: median(of((s) => s.waves)) } : {}),
      }
    }
    const criticalPathMs = CRITICAL_CHAIN * SLOW_DELAY_MS
    const conform = {
      embedded: summarise(samples.embedded),
      local: summarise(samples.local),
      slow: { delayMs: SLOW_DELAY_MS, criticalChain: CRITICAL_CHAIN, criticalPathMs, ...summarise(samples.slow) },
      seeded: { categories: seedCount, ...summarise(samples.seeded) },
    }

    // 2. large lists
    const lists: ListFigures[] = []
    for (const count of sizes) {
      for (const ids of ['small', 'big'] as const) {
        const file = writeList(scratch, count, ids)
        log(`list of ${count} (${ids} ids, ${(file.bytes / 2 ** 20).toFixed(1)} MiB)`)
        const bare: CaseReport[] = []
        const suite: CaseReport[] = []
        for (let i = 0; i < listReps; i++) {
          bare.push(...(await repeatCase('bare', ['--file', file.path], 1)))
          suite.push(...(await repeatCase('real', ['--file', file.path], 1)))
        }
        const wrong = suite.find((r) => !r.valid || r.items !== count)
        if (wrong) throw new Error(`the ${count}-category list (${ids} ids) was not judged valid: ${JSON.stringify(wrong)}`)
        lists.push(listFigures(file, bare, suite))
        if (!(count === sizes[sizes.length - 1] && ids === 'big')) rmSync(file.path)
      }
    }

    // 3. the HTTP client reading the largest body (big ids), with the default cap and a raised one
    const largest = join(scratch, `list-${sizes[sizes.length - 1]}-big.json`)
    const largestBytes = statSync(largest).size
    const { baseUrl, server } = await fileServer(largest)
    let client
    try {
      const raisedCap = Math.max(DEFAULTS.maxResponseBytes, 2 ** Math.ceil(Math.log2(largestBytes)))
      const atDefault = await childCase('client', ['--url', baseUrl, '--cap', String(DEFAULTS.maxResponseBytes)])
      const atRaised = raisedCap === DEFAULTS.maxResponseBytes ? atDefault : await childCase('client', ['--url', baseUrl, '--cap', String(raisedCap)])
      client = {
        count: sizes[sizes.length - 1],
        bytes: largestBytes,
        defaultCap: { maxResponseBytes: DEFAULTS.maxResponseBytes, ...atDefault },
        raisedCap: { maxResponseBytes: raisedCap, ...atRaised },
      }
    } finally {
      await new Promise((done) => server.close(done))
    }

    // targets
    const targets: TargetRow[] = []
    const addTarget = (target: string, limit: number, actual: number, unit: (v: number) => string, format = unit) => {
      const met = actual <= limit
      targets.push({ target, limit: format(limit), actual: format(actual), met, ...(met ? {} : { missedBy: `${unit(actual - limit)} (${Math.round((actual / limit - 1) * 100)} %)` }) })
    }
    addTarget('full run, embedded server (wall, incl. start-up)', TARGETS.embeddedWallMs, conform.embedded.wallMs, ms)
    addTarget(`full run, server ${SLOW_DELAY_MS} ms late (wall ≤ critical path ${criticalPathMs} ms + 1.5 s)`, criticalPathMs + TARGETS.slowOverCriticalPathMs, conform.slow.wallMs, ms)
    const ratioFormat = (v: number) => `${v.toFixed(2)}×`
    for (const l of lists.filter((x) => x.count === sizes[sizes.length - 1])) {
      const what = `${l.count.toLocaleString('en')} categories, ${l.ids} ids`
      addTarget(`${what}: parse + validate vs bare JSON.parse`, TARGETS.listRatioToBareParse, l.ratio, ratioFormat)
      addTarget(`${what}: the same + ids-unique pass`, TARGETS.listRatioToBareParse, l.ratioWithIds, ratioFormat)
      addTarget(`${what}: peak memory`, TARGETS.listPeakBytes / 2 ** 20, l.suite.peakRssMiB, mib)
    }

    const report = {
      mode: quick ? 'quick' : 'full',
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      machine: { ...machine, loadAverageAtEnd: loadavg().map((l) => round(l, 2)) },
      repetitions: { conform: reps, lists: listReps },
      conform,
      lists,
      client: client && {
        count: client.count,
        bytes: client.bytes,
        defaultCap: { maxResponseBytes: client.defaultCap.maxResponseBytes, ms: round(client.defaultCap.ms), error: client.defaultCap.error ?? null, peakRssMiB: round(client.defaultCap.peakRssMiB) },
        raisedCap: {
          maxResponseBytes: client.raisedCap.maxResponseBytes,
          ms: round(client.raisedCap.ms),
          error: client.raisedCap.error ?? null,
          phases: Object.fromEntries(Object.entries(client.raisedCap.phases ?? {}).map(([k, v]) => [k, round(v)])),
          peakRssMiB: round(client.raisedCap.peakRssMiB),
        },
      },
      targets,
    }
    mkdirSync(reportDir, { recursive: true })
    const jsonPath = join(reportDir, 'bench.json')
    writeFileSync(jsonPath, JSON.stringify(report, null, 2) + '\n')

    // the table
    const out: string[] = []
    out.push(`Machine: ${machine.nproc} × ${machine.cpu}, Node ${machine.node}, load average ${machine.loadAverageAtStart.join(' ')} → ${report.machine.loadAverageAtEnd.join(' ')}`)
    out.push(`Conformance runs (median of ${reps}; wall = spawn of node bin/conform.mjs (what npm run conform runs) to exit; CPU = user + system of that process):`)
    const conformRow = (label: string, c: ReturnType<typeof summarise>, critical = '—') => [
      label,
      ms(c.wallMs),
      ms(c.wallMsMin),
      ms(c.cpuMs),
      mib(c.peakRssMiB),
      ms(c.firstRequestMs),
      ms(c.lastRequestMs),
      String(c.requests),
      pct(c.waitShare),
      critical,
      c.exitCodes.join(','),
    ]
    out.push(
      table([
        ['server', 'wall', 'min', 'CPU', 'peak', '1st request', 'last request', 'requests', 'waiting on server', 'critical path', 'exit'],
        conformRow('embedded (no --base-url)', conform.embedded),
        conformRow('local, answers at once', conform.local),
        conformRow(`local, every answer ${SLOW_DELAY_MS} ms late`, conform.slow, `${CRITICAL_CHAIN} × ${SLOW_DELAY_MS} = ${criticalPathMs} ms (${conform.slow.waves} waves seen)`),
        conformRow(`local, holding ${seedCount.toLocaleString('en')} categories`, conform.seeded),
      ]),
    )
    out.push('')
    out.push(`Large lists (median of ${listReps}, each in a fresh process; peak = the process's maxRSS, the body text included):`)
    out.push(
      table([
        ['list', 'bytes', 'JSON.parse', 'peak', 'suite path', 'parse / validate / ids', 'peak', 'ratio', 'with ids', 'CPU ratio', 'with ids'],
        ...lists.map((l) => [
          `${l.count.toLocaleString('en')} × ${l.ids} ids`,
          `${(l.bytes / 2 ** 20).toFixed(1)} MiB`,
          ms(l.bare.ms),
          mib(l.bare.peakRssMiB),
          ms(l.suite.ms),
          `${l.suite.phases.parse} / ${l.suite.phases.validate} / ${l.suite.phases.idsUnique} ms`,
          mib(l.suite.peakRssMiB),
          `${l.ratio.toFixed(2)}×`,
          `${l.ratioWithIds.toFixed(2)}×`,
          `${l.cpuRatio.toFixed(2)}×`,
          `${l.cpuRatioWithIds.toFixed(2)}×`,
        ]),
      ]),
    )
    if (client) {
      out.push('')
      out.push(`HTTP client, GET of the ${client.count.toLocaleString('en')}-category body (${(client.bytes / 2 ** 20).toFixed(1)} MiB), then the suite path:`)
      const clientRow = (label: string, c: typeof client.defaultCap) => [
        label,
        c.error ? `refused: ${c.error}` : ms(c.ms),
        c.error ? '—' : `${Math.round(c.phases?.fetch ?? NaN)} / ${Math.round(c.phases?.parse ?? NaN)} / ${Math.round(c.phases?.validate ?? NaN)} / ${Math.round(c.phases?.idsUnique ?? NaN)} ms`,
        mib(c.peakRssMiB),
      ]
      out.push(
        table([
          ['--max-response-bytes', 'total', 'fetch / parse / validate / ids', 'peak'],
          clientRow(`${client.defaultCap.maxResponseBytes} (default)`, client.defaultCap),
          ...(client.raisedCap !== client.defaultCap && client.raisedCap.maxResponseBytes !== client.defaultCap.maxResponseBytes ? [clientRow(String(client.raisedCap.maxResponseBytes), client.raisedCap)] : []),
        ]),
      )
    }
    out.push('')
    out.push(quick ? 'Targets (quick mode: small sizes, one repetition; nothing is asserted):' : 'Targets:')
    out.push(table([['target', 'limit', 'actual', 'verdict'], ...targets.map((t) => [t.target, t.limit, t.actual, t.met ? 'met' : `MISSED by ${t.missedBy}`])]))
    out.push('')
    out.push(`Written: ${jsonPath}`)
    process.stdout.write(out.join('\n') + '\n')
    return 0
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`)
    process.exitCode = 1
  },
)
