/**
 * How large a list the suite judges at full speed: a CategoryList body of 100,000 and of 1,000,000
 * categories, small ids and ids beyond 2^53 (whose texts parseJsonExact keeps), each case in a
 * fresh process (scripts/bench/list-case.ts): a bare JSON.parse of the same text next to every
 * check a run makes of a list. Then the HTTP client reading the largest body, with the default
 * --max-response-bytes and with a raised one.
 */
import { closeSync, createReadStream, openSync, rmSync, statSync, writeSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { cleanEnv, ROOT, runNode } from '../../test/helpers/child-process.ts'
import type { CaseReport } from './list-case.ts'
import { median, round } from './stats.ts'

const LIST_CASE = join(ROOT, 'scripts/bench/list-case.ts')

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
  const run = await runNode(['--expose-gc', '--import', 'tsx', LIST_CASE, '--case', name, ...extra], { env: cleanEnv(), killAfterMs: 600_000 })
  const line = run.stdout.trim().split('\n').pop() ?? ''
  try {
    return JSON.parse(line) as CaseReport
  } catch {
    throw new Error(`case ${name} ${extra.join(' ')} exited ${run.code}: ${run.stderr.slice(-1500)}`)
  }
}

export interface ListFigures {
  count: number
  ids: 'small' | 'big'
  bytes: number
  bare: { ms: number; runs: number[]; baseRssMiB: number; peakRssMiB: number }
  /**
   * Every check a run makes of a list (scripts/bench/list-case.ts): parse = parseJsonExact,
   * validate = the CategoryList schema and the media type, idsUnique = expectDistinctIds, listed =
   * created-in-list (ten created records, and the earlier list still listed).
   */
  suite: { ms: number; runs: number[]; phases: Record<string, number>; baseRssMiB: number; peakRssMiB: number }
  /** (parse + validate) / bare JSON.parse, and every check of the list / bare JSON.parse: wall times. */
  ratio: number
  ratioWithIds: number
  /** The same ratios in CPU time, which a busy machine distorts less. */
  cpuRatio: number
  cpuRatioWithIds: number
  /**
   * Memory added over the text (peak RSS − RSS with the text in memory, medians), the suite's path
   * over bare JSON.parse's.
   */
  memoryRatio: number
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
      phases: Object.fromEntries(['parse', 'validate', 'idsUnique', 'listed'].map((name) => [name, round(median(suite.map((r) => phase(r, name))))])),
      baseRssMiB: round(median(suite.map((r) => r.baseRssMiB))),
      peakRssMiB: round(Math.max(...suite.map((r) => r.peakRssMiB))),
    },
    ratio: round(validatedMs / bareMs, 2),
    ratioWithIds: round(withIdsMs / bareMs, 2),
    cpuRatio: round(median(suite.map((r) => (r.phasesCpu?.parse ?? NaN) + (r.phasesCpu?.validate ?? NaN))) / median(bare.map((r) => r.cpuMs ?? NaN)), 2),
    cpuRatioWithIds: round(median(suite.map((r) => r.cpuMs ?? NaN)) / median(bare.map((r) => r.cpuMs ?? NaN)), 2),
    memoryRatio: round(median(suite.map((r) => r.peakRssMiB - r.baseRssMiB)) / median(bare.map((r) => r.peakRssMiB - r.baseRssMiB)), 2),
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

/** Every size with small and big ids, `reps` times each (bare and suite alternating); keeps the largest big-id file. */
export async function measureLists(sizes: number[], reps: number, scratch: string, log: (line: string) => void): Promise<{ lists: ListFigures[]; largest: string }> {
  const lists: ListFigures[] = []
  const largest = sizes[sizes.length - 1]
  for (const count of sizes) {
    for (const ids of ['small', 'big'] as const) {
      const file = writeList(scratch, count, ids)
      log(`list of ${count} (${ids} ids, ${(file.bytes / 2 ** 20).toFixed(1)} MiB)`)
      const bare: CaseReport[] = []
      const suite: CaseReport[] = []
      for (let i = 0; i < reps; i++) {
        bare.push(await childCase('bare', ['--file', file.path]))
        suite.push(await childCase('real', ['--file', file.path]))
      }
      const wrong = suite.find((r) => !r.valid || r.items !== count)
      if (wrong) throw new Error(`the ${count}-category list (${ids} ids) was not judged valid: ${JSON.stringify(wrong)}`)
      lists.push(listFigures(file, bare, suite))
      if (!(count === largest && ids === 'big')) rmSync(file.path)
    }
  }
  return { lists, largest: join(scratch, `list-${largest}-big.json`) }
}

export interface ClientCase {
  maxResponseBytes: number
  ms: number
  error: string | null
  phases?: Record<string, number>
  peakRssMiB: number
}

/** The HTTP client fetching `path` (count categories) with the default cap and a cap raised to fit it. */
export async function measureClient(path: string, count: number, defaultCap: number) {
  const bytes = statSync(path).size
  const { baseUrl, server } = await fileServer(path)
  try {
    const raisedCap = Math.max(defaultCap, 2 ** Math.ceil(Math.log2(bytes)))
    const atDefault = await childCase('client', ['--url', baseUrl, '--cap', String(defaultCap)])
    const atRaised = raisedCap === defaultCap ? atDefault : await childCase('client', ['--url', baseUrl, '--cap', String(raisedCap)])
    const shown = (cap: number, c: CaseReport): ClientCase => ({
      maxResponseBytes: cap,
      ms: round(c.ms),
      error: c.error ?? null,
      ...(c.phases ? { phases: Object.fromEntries(Object.entries(c.phases).map(([k, v]) => [k, round(v)])) } : {}),
      peakRssMiB: round(c.peakRssMiB),
    })
    return { count, bytes, defaultCap: shown(defaultCap, atDefault), raisedCap: shown(raisedCap, atRaised) }
  } finally {
    await new Promise((done) => server.close(done))
  }
}
