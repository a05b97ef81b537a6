/**
 * A key that is a piece of the reports' own text. A key of one or two characters (`1`, `:`, `t`)
 * is refused, as no report can hide it without hiding its own text; one of punctuation alone
 * (`----`) too. A longer key that is a piece of JSON (`true`, `1234`, `u0085` of an escape) is hidden in
 * results.json and journal.ndjson inside their values, their structure and names kept: every
 * report parses, and compare, merge and scripts read it (lib/reporters/json-strings-redacted.ts).
 * A key that is a header's name the suite sends (`content-type`) leaves that name in the journal.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'
import { portableJson } from '../../lib/json/portable-json.ts'
import { redactedJsonLines, redactedJsonText } from '../../lib/reporters/json-report.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'
import { neverAnswers, type HostileServer } from './hostile-servers.ts'

const servers: (HostileServer | RunningServer)[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/** Every JSON report parses: results.json whole, journal.ndjson line by line. */
function expectParsed(run: ConformRun): void {
  expect(() => JSON.parse(run.files['results.json'] ?? ''), 'results.json').not.toThrow()
  for (const line of (run.files['journal.ndjson'] ?? '').split('\n').filter(Boolean)) expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow()
  expect(run.files['junit.xml']).toMatch(/^<\?xml[\s\S]*<\/testsuites>\s*$/)
}

/** Past 16 KiB (LONGEST_KEY): more than Node takes of an answer's whole head, and 36 s to make a redactor of one of 64 KiB. */
const LONG_KEY = `eyJhbGciOiJSUzI1NiJ9.${randomBytes(12400).toString('base64url')}.c2ln`

describe.concurrent('a key too short, too long, or of punctuation alone, is refused: exit 2, one line, no request, reports that parse', { timeout: RUN_TIMEOUT_MS }, () => {
  test.each([
    ['1', '1', /^conform: CONFORM_API_KEY is shorter than three characters: a secret that short is a piece of the reports' own text/],
    [':', ':', /^conform: CONFORM_API_KEY is shorter than three characters/],
    ['tn', 'tn', /^conform: CONFORM_API_KEY is shorter than three characters/],
    ['----', '----', /^conform: CONFORM_API_KEY holds no letter or digit: a secret of punctuation alone is a piece of the reports' own markup/],
    ['{},:', '{},:', /^conform: CONFORM_API_KEY holds no letter or digit/],
    // JSON's numbers and literals joined by its punctuation: the reports, redacted in their values only, kept it in their structure (`[1,2]`, `"status":200,`; review53)
    ['1,2', '1,2', /^conform: CONFORM_API_KEY is made of JSON's numbers, literals and punctuation \(, : \[ \] \{ \}\) alone: /],
    ['200,', '200,', /^conform: CONFORM_API_KEY is made of JSON's numbers, literals and punctuation/],
    ['true,false', 'true,false', /^conform: CONFORM_API_KEY is made of JSON's numbers, literals and punctuation/],
    // a JWT-like key of 3,000 characters is hidden (test/hostile/long-key.test.ts); one past 16 KiB is refused
    ['a JWT of 16,560 characters', LONG_KEY, /^conform: CONFORM_API_KEY is longer than 16384 characters: /],
  ])('%s', async (_what, key, says) => {
    const server = await neverAnswers()
    servers.push(server)
    const run = await runConformInProcess(['--base-url', server.baseUrl], { env: { CONFORM_API_KEY: key } })
    runs.push(run)
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(run.stderr).toMatch(says)
    expect(server.connections()).toBe(0)
    expectParsed(run)
    if (key.length > 3) for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) expect(text).not.toContain(key.slice(0, 40))
  })

  test('a secret --header value longer than 16384 characters: refused as the key is', async () => {
    const server = await neverAnswers()
    servers.push(server)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--header', `X-Gateway-Token: ${LONG_KEY}`], { env: { CONFORM_API_KEY: 'json-piece-keys-5d1f0a' } })
    runs.push(run)
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr).toMatch(/^conform: --header: the value of x-gateway-token is a secret \(by its name\) that is longer than 16384 characters: more than a server takes of a request's head.*; give the value issued for it\n$/)
    expect(server.connections()).toBe(0)
  })

  // as the key is: hidden, `1` blanked every digit 1 of the reports, junit.xml's `<?xml version="[REDACTED].0"` and the base URL's 127.0.0.1 (review53)
  test.each([
    ['1', "is shorter than three characters: a secret that short is a piece of the reports' own text"],
    ['-_-:', "holds no letter or digit: a secret of punctuation alone is a piece of the reports' own markup"],
  ])('a secret --header value %j: refused as the key is, the value not quoted', async (value, says) => {
    const server = await neverAnswers()
    servers.push(server)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--header', `X-Api-Key: ${value}`], { env: { CONFORM_API_KEY: 'json-piece-keys-5d1f0a' } })
    runs.push(run)
    expect(run.code, run.stderr).toBe(2)
    expect(run.stderr.startsWith(`conform: --header: the value of x-api-key is a secret (by its name) that ${says}`), run.stderr).toBe(true)
    expect(run.stderr.endsWith('; give the value issued for it\n'), run.stderr).toBe(true)
    expect(run.stderr.split('\n')).toHaveLength(2)
    expect(server.connections()).toBe(0)
    expectParsed(run)
  })
})

describe.concurrent('a key that is a piece of JSON: every report parses, its names kept, the key hidden in its values', { timeout: RUN_TIMEOUT_MS }, () => {
  test.each(['true', '1234', '200', 'null', 'content-type'])('%j against a conforming server', async (key) => {
    const server = await startReferenceServer({ apiKey: key })
    servers.push(server)
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1'], { env: { CONFORM_API_KEY: key } })
    runs.push(run)
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expectParsed(run)
    expect(run.results?.verdict).toBe('pass')
    expect(run.results?.exitCode).toBe(0)
    // the headers of every POST the journal records keep their names: the key content-type hid them
    const posted = (run.files['journal.ndjson'] ?? '').split('\n').filter(Boolean).map((line) => JSON.parse(line) as { headers?: Record<string, string> }).filter((line) => line.headers)
    expect(posted.length).toBeGreaterThan(0)
    for (const line of posted) expect(Object.keys(line.headers ?? {})).toEqual(expect.arrayContaining(['content-type', 'user-agent']))
  })
})

test('the structure-keeping redaction: the key hidden in values, never in names, numbers and literals it equals made strings', () => {
  const redact = createRedactor('1234')
  const text = JSON.stringify({ durationMs: 1234, verdict: 'pass', body: 'id 1234 and "1234"', list: [1234, 12345], flag: true }, null, 2) + '\n'
  const out = redactedJsonText(text, redact)
  expect(JSON.parse(out)).toEqual({ durationMs: '[REDACTED]', verdict: 'pass', body: 'id [REDACTED] and "[REDACTED]"', list: ['[REDACTED]', 12345], flag: true })
  // a key that is an escape's text (portableJson writes U+0085 as \u0085): the escape kept, the key hidden where it stands
  const escapes = createRedactor('u0085')
  const lines = [portableJson({ body: 'a\u0085 u0085', status: 200 }), portableJson({ headers: { 'content-type': 'u0085' } })].join('\n')
  const hidden = redactedJsonLines(lines, escapes).split('\n').map((line) => JSON.parse(line) as unknown)
  expect(hidden).toEqual([{ body: 'a\u0085 [REDACTED]', status: 200 }, { headers: { 'content-type': '[REDACTED]' } }])
  const named = redactedJsonLines(JSON.stringify({ headers: { 'content-type': 'application/json', accept: 'content-type' } }), createRedactor('content-type'))
  expect(JSON.parse(named)).toEqual({ headers: { 'content-type': 'application/json', accept: '[REDACTED]' } })
})
