/**
 * One large-list case in a fresh process, so that process.resourceUsage().maxRSS is the peak of that
 * case alone (scripts/bench/large-lists.ts runs it): `tsx scripts/bench/list-case.ts --case NAME
 * --file PATH [--url URL --cap N]`, one JSON line on stdout.
 * - bare: a bare JSON.parse of the text;
 * - real: the suite's path (parseJsonExact, the CategoryList validator, the ids-unique pass);
 * - client: the HTTP client fetching the body from URL with --max-response-bytes N, then the suite's path.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

export interface CaseReport {
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
  const { parseJsonExact } = await import('../../lib/json/exact-json.ts')
  const { validatorFor } = await import('../../lib/spec/schema-registry.ts')
  const { expectDistinctIds } = await import('../../lib/checks/category.ts')
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
