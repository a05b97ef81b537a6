/**
 * One large-list case in a fresh process, so that process.resourceUsage().maxRSS is the peak of that
 * case alone (scripts/bench/large-lists.ts runs it): `tsx scripts/bench/list-case.ts --case NAME
 * --file PATH [--url URL --cap N]`, one JSON line on stdout.
 * - bare: a bare JSON.parse of the text;
 * - real: the suite's path, every check a run makes of a list (suites/categories/list-checks.ts), on
 *   the same text as a response: the status, the body parsed (parseJsonExact) and judged against
 *   CategoryList, the media type, ids unique, and the list after the run's POSTs: ten created records
 *   listed once with the fields sent, and every record of an earlier list still listed (the list
 *   itself, so that one body is parsed, as in the bare case);
 * - client: the HTTP client fetching the body from URL with --max-response-bytes N, then the suite's path.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import type { HttpResult } from '../../lib/http/client.ts'

export interface CaseReport {
  ms: number
  /** parse, validate (the list checks' schema verdict), idsUnique, listed (created-in-list's two checks). */
  /** Phases of the suite's path, in ms. */
  phases?: Record<string, number>
  /** CPU time (user + system, every thread of the process: GC helpers too), overall and by phase. */
  cpuMs?: number
  phasesCpu?: Record<string, number>
  items?: number
  valid?: boolean
  error?: string
  bodyBytes?: number
  /** RSS once the body text is in memory and the rest collected (--expose-gc), before parsing (MiB). */
  baseRssMiB: number
  peakRssMiB: number
}

async function runCase(name: string, file: string | undefined, url: string | undefined, cap: number | undefined): Promise<CaseReport> {
  const readText = (): string => {
    const text = new TextDecoder().decode(readFileSync(file as string)) // as the HTTP client decodes a body
    ;(globalThis as { gc?: () => void }).gc?.() // the file's bytes gone: the base is the text and node
    return text
  }
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
  const { expectJsonContentType, expectStatus, jsonBodyOf } = await import('../../lib/checks/response.ts')
  const { expectSchema } = await import('../../lib/checks/schema.ts')
  const { expectDistinctIds, expectListed, expectStillListed } = await import('../../lib/checks/category.ts')
  const { listedRecords } = await import('../../suites/categories/list-checks.ts')
  const { validatorFor } = await import('../../lib/spec/schema-registry.ts')
  validatorFor('CategoryList')([]) // compiled once per run, before any list arrives
  const judge = (text: string) => {
    const list: HttpResult = {
      exchange: {
        id: 'bench-list',
        startedAt: new Date().toISOString(),
        durationMs: 1,
        request: { method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: {} },
        response: { status: 200, headers: { 'content-type': 'application/json' }, body: text.slice(0, 4096), bodyBytes: text.length, bodyTruncated: true },
      },
      text,
    }
    const marks: [number, number][] = [[cpu(), performance.now()]]
    const mark = () => marks.push([cpu(), performance.now()])
    // the order of listShapeChecks, then created-in-list (with its lag check) and still-listed
    expectStatus(list, 200)
    const body = jsonBodyOf(list) as unknown[]
    mark()
    let valid = true
    try {
      expectSchema(list, 'CategoryList', 'an array of Category records')
      expectJsonContentType(list)
    } catch {
      valid = false
    }
    mark()
    if (valid) expectDistinctIds(listedRecords(list), 'the list', list)
    mark()
    if (valid) {
      const records = listedRecords(list)
      const step = Math.max(1, Math.floor(records.length / 10))
      const creations = records.filter((_, i) => i % step === 0).slice(0, 10).map((record) => ({ sent: { name: record.name, description: record.description as string }, record }))
      expectListed(creations, listedRecords(list), list)
      expectStillListed(listedRecords(list), listedRecords(list), list, list)
    }
    mark()
    const names = ['parse', 'validate', 'idsUnique', 'listed']
    return {
      valid,
      items: body.length,
      phases: Object.fromEntries(names.map((n, i) => [n, marks[i + 1][1] - marks[i][1]])),
      phasesCpu: Object.fromEntries(names.map((n, i) => [n, marks[i + 1][0] - marks[i][0]])),
    }
  }
  if (name === 'real') {
    const text = readText()
    const baseRssMiB = rss()
    const t0 = performance.now()
    const { valid, items, phases, phasesCpu } = judge(text)
    const cpuMs = Object.values(phasesCpu).reduce((a, b) => a + b, 0)
    return { ms: performance.now() - t0, phases, cpuMs, phasesCpu, items, valid, baseRssMiB, peakRssMiB: peak() }
  }
  if (name === 'client') {
    const { HttpClient } = await import('../../lib/http/client.ts')
    const client = new HttpClient({ baseUrl: url as string, apiKey: 'bench-key-not-secret', timeoutMs: 120_000, maxResponseBytes: cap as number, concurrency: 1 })
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

const { values } = parseArgs({ options: { case: { type: 'string' }, file: { type: 'string' }, url: { type: 'string' }, cap: { type: 'string' } } })
runCase(values.case ?? '', values.file, values.url, values.cap === undefined ? undefined : Number(values.cap)).then(
  (report) => process.stdout.write(JSON.stringify(report) + '\n'),
  (error: unknown) => {
    process.stderr.write(`list-case: ${(error as Error).stack ?? String(error)}\n`)
    process.exitCode = 1
  },
)
