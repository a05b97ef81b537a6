/**
 * Forms of a request that the suite's own client never used, each found as a miss (a service
 * broken for it passed under every seed) and now sent, without a write more:
 * - a body laid out as Python's json.dumps(indent=2) writes a dict that holds description first,
 *   over several lines and with a line break after it, and one before it (every create went compact,
 *   on one line and name first, as JSON.stringify writes it, and began with "{"): RFC 8259 §2 allows
 *   whitespace around every structural character, before and after the value, and §4 makes an
 *   object's members unordered;
 * - the list with a browser's Accept-Encoding once the creates made it long: a compressor with a
 *   threshold leaves the "[]" of a service that starts empty as it is;
 * - the list with the key and no Accept (§5.2 asks a client for nothing else), where every
 *   request carried the suite's Accept (its User-Agent it keeps, as every request does).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { createText, VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'request-forms-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

const mutation = (name: string) => MUTATIONS.find((m) => m.name === name)!
const failedChecks = (run: Awaited<ReturnType<typeof conform>>, rule: string) =>
  run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail')

/** The create of whitespace, written with tabs and CRLF between its tokens. */
const tabbed = VALID_CREATES.find((v) => v.key === 'create-whitespace')!

describe('the first create, indented, description first, a line break before and after it', () => {
  const c = VALID_CREATES.find((v) => v.key === 'create-described')!

  test('is written as Python\'s json.dumps writes it, and means the body sent', () => {
    const body = c.body('cf-abcde')
    const text = createText(c, body, 1, 'cf-abcde')
    expect(text).toMatch(/^\n\{\n {2}"description": "[^"]+",\n {2}"name": "[^"]+"\n\}\n$/)
    expect(JSON.parse(text)).toEqual(body)
    // the only create written so: the others go as JSON.stringify writes them, or with escapes of their own
    expect(VALID_CREATES.filter((v) => v.text && / "name": /.test(v.text(v.body('cf-abcde')))).map((v) => v.key)).toEqual(['create-described'])
  })

  test('a reader of compact JSON fails create-returns-201 on it, and the failure says how the body was written', async () => {
    const run = await conform(serve(await startCase(mutation('compact-json-only'), { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = failedChecks(run, 'create-returns-201')
    // besides it, the create written with tabs and CRLF (create-whitespace) is the only one such a reader refuses
    expect(failed.map((f) => [f.name.startsWith(`POST /categories with ${c.label} →`), f.failure?.code])).toEqual([[true, 'UNEXPECTED_STATUS'], [false, 'REFUSED_FOR_CONTENT']])
    expect(failed[1]!.name.startsWith(`POST /categories with ${tabbed.label}`)).toBe(true)
    expect(failed[0]!.failure?.message).toContain("or how the body was written: description before name, over several lines, indented, as Python's json.dumps(indent=2) writes a dict, and a line break after the value, as a file ends, and one before it")
  }, 60_000)

  test.each(['whitespace-after-the-value-refused', 'whitespace-before-the-value-refused', 'body-read-as-its-first-line'])('%s fails create-returns-201 on it, and with --max-writes 1', async (name) => {
    for (const args of [[], ['--max-writes', '1']]) {
      const run = await conform(serve(await startCase(mutation(name), { apiKey: KEY })), ...args)
      expect(run.code, run.stdout).toBe(1)
      const failed = failedChecks(run, 'create-returns-201').filter((f) => !f.name.startsWith(`POST /categories with ${tabbed.label}`))
      expect(failed.map((f) => [f.name.startsWith(`POST /categories with ${c.label} →`), f.failure?.code])).toEqual([[true, 'UNEXPECTED_STATUS']])
    }
  }, 60_000)

  test('values bound by their place in the body swap the fields: create-echoes-fields fails on it', async () => {
    const run = await conform(serve(await startCase(mutation('fields-bound-in-body-order'), { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = failedChecks(run, 'create-echoes-fields')
    expect(failed.map((f) => [f.name.startsWith(`POST /categories with ${c.label} →`), f.failure?.code])).toEqual([[true, 'FIELD_CHANGED']])
    expect(failed[0]!.failure?.message).toMatch(/it holds the "description" sent: the values were bound to the fields by their place in the body/)
  }, 60_000)
})

describe('the create of whitespace, indented with tabs and ended with CRLF', () => {
  test('is written as a body file written on Windows is, and means the body sent', () => {
    const body = tabbed.body('cf-abcde')
    const text = createText(tabbed, body, 1, 'cf-abcde')
    expect(text).toMatch(/^\{\r\n\t"name":\t"[^"]+",\r\n\t"description":\t"[^"]+"\r\n\}$/)
    expect(JSON.parse(text)).toEqual(body)
  })

  test('a tokenizer that skips only spaces and line feeds fails create-returns-201 on it, and the failure says how the body was written', async () => {
    const run = await conform(serve(await startCase(mutation('tab-and-carriage-return-not-skipped'), { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = failedChecks(run, 'create-returns-201')
    expect(failed.map((f) => [f.name.startsWith(`POST /categories with ${tabbed.label}`), f.failure?.code])).toEqual([[true, 'REFUSED_FOR_CONTENT']])
    expect(failed[0]!.failure?.message).toContain('or how the body was written (indented with tabs and ended with CRLF, as a body file written on Windows')
  }, 60_000)
})

describe('the list as a browser asks for it', () => {
  test('goes with its Accept-Encoding once the creates were answered, and a body gzipped past a threshold without Content-Encoding fails there', async () => {
    const run = await conform(serve(await startCase(mutation('gzip-without-content-encoding-past-1400-bytes'), { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = failedChecks(run, 'list-returns-category-array')
    expect(failed.map((f) => f.failure?.code)).toEqual(['NOT_JSON'])
    expect(failed[0]!.name).toMatch(/^GET \/categories with a valid key and a browser's Accept .* and Accept-Encoding, after the run's creates →/)
    const list = failed[0]!.exchanges.at(-1)!
    expect(list.request.headers['accept-encoding']).toBe('gzip, deflate, br')
    // sent after every create was answered
    const creates = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.flatMap((k) => k.exchanges).filter((e) => e.request.method === 'POST' && e.response?.status === 201)
    expect(creates.length).toBeGreaterThan(10)
    for (const e of creates) expect(Date.parse(e.startedAt) + e.durationMs).toBeLessThanOrEqual(Date.parse(list.startedAt))
  }, 60_000)
})

describe('the list with the key and no Accept', () => {
  test('a handler that assumes an Accept header fails list-returns-200 there, and only there', async () => {
    const run = await conform(serve(await startCase(mutation('accept-header-assumed'), { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = failedChecks(run, 'list-returns-200')
    expect(failed.map((f) => `${f.name}: ${f.failure?.code}`)).toEqual(["GET /categories with a valid key and no Accept header, as .NET's HttpClient sends it → 200: SERVER_ERROR"])
    const headers = failed[0]!.exchanges.at(-1)!.request.headers
    // the evidence shows the headers that went: no Accept; the User-Agent and Accept-Encoding that go on every request (test/cli/trace-context.test.ts)
    expect(Object.keys(headers).sort()).toEqual(['accept-encoding', 'authorization', 'traceparent', 'user-agent'])
    expect(run.stdout).not.toContain(KEY)
  }, 60_000)
})
