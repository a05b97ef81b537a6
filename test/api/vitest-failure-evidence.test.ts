/**
 * What a failed test says in a service's own vitest, where there is no report.html unless
 * reportDir is given: the failure's whole message (its diagnosis and the usual fix, not cut to a
 * terminal's 160 columns), the whole curl line (not "it is in report.html and results.json", files
 * that do not exist), and the answer the check judged (status, headers, body), so that
 * "body lacks required property status" comes with the body. Never the key, also when the server
 * echoes it back in its bodies and headers. A note that quotes the server is annotated on one line,
 * its controls marked, with no CI log command.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RUN_TEST_NAME } from '../../lib/api/define-conformance.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { MATRIX_SEED } from '../mutants/matrix.ts'
import { entryFiles } from './api-entry.ts'
import { childVitest } from './child-vitest.ts'

let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'conform-vitest-evidence-'))
})
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

/** vitest on a test file that starts a mutation of the reference server and declares the suite against it, for `rules` only. */
async function againstMutation(mutation: string, rules: string[]) {
  const files = entryFiles()
  const apiKey = randomBytes(18).toString('base64url')
  const testFile = [
    `import { startCase, findCase } from '${files.serverCases}'`,
    `import { MUTATIONS } from '${files.mutations}'`,
    `import { defineConformance } from '${files.vitest}'`,
    `const server = startCase(findCase(MUTATIONS, '${mutation}'), { apiKey: '${apiKey}' })`,
    `defineConformance({ baseUrl: server.then((s) => s.baseUrl), apiKey: '${apiKey}', seed: ${MATRIX_SEED}, rule: ${JSON.stringify(rules)} })`,
  ].join('\n')
  const run = await childVitest(join(work, mutation), testFile)
  return { ...run, apiKey, failures: run.assertions.filter((a) => a.status === 'failed').flatMap((a) => a.failureMessages) }
}

describe('a failed test in a service\'s own vitest', () => {
  test('carries the whole message, with its fix, and the answer the check judged', async () => {
    const run = await againstMutation('surrogate-bytes-accepted', ['create-rejects-invalid-json'])
    expect(run.code, run.output).toBe(1)
    const failure = run.failures.find((m) => m.includes('a surrogate written as UTF-8 bytes instead of refusing it'))
    expect(failure, run.output).toBeDefined()
    // the message's end: where it says how such a service is usually fixed
    expect(failure).toContain("Perl: Encode::decode('UTF-8', $body, Encode::FB_CROAK)), answering 400 when it throws")
    expect(failure).toMatch(/\nresponse: HTTP 201\n(  [a-z-]+: .*\n)*  content-type: application\/json.*\n(  [a-z-]+: .*\n)*  body: \{.*"id":/)
    // the answer to the request of the curl line, not to a --confirm probe sent after it with a fresh name
    // a body with a character the reports mark goes on curl's input from printf (dash reads no $'…'), its name before the curl
    const sent = /reproduce: .*"name": "(cf-[0-9a-z]+-[0-9a-z]+)"/.exec(failure ?? '')?.[1]
    expect(sent, failure).toBeDefined()
    expect(/\n  body: (.*)/.exec(failure ?? '')?.[1]).toContain(sent)
    expect(run.output + run.junit).not.toContain(run.apiKey)
  }, 60_000)

  test('carries the whole curl line, however long, and points to no report file that was not written', async () => {
    const run = await againstMutation('description-dropped', ['create-echoes-fields'])
    expect(run.code, run.output).toBe(1)
    expect(run.failures.length).toBeGreaterThan(0)
    for (const failure of run.failures) expect(failure).not.toContain('report.html')
    const long = run.failures.find((m) => m.includes('21,900-character') || /reproduce: curl .{9000,}/.test(m))
    expect(long ?? run.failures.join('\n\n')).toMatch(/reproduce: curl .{9000,}/)
  }, 60_000)

  test('a server that echoes the key in its bodies and headers: the answer is shown, the key never', async () => {
    const key = `cnry-${randomBytes(12).toString('hex')}+/Z=`
    const hostile = pathToFileURL(join(ROOT, 'test/hostile/hostile-servers.ts')).href
    const testFile = [
      `import { afterAll } from 'vitest'`,
      `import { echoesEverything } from '${hostile}'`,
      `import { defineConformance } from '${entryFiles().vitest}'`,
      `const server = echoesEverything()`,
      `afterAll(async () => (await server).close())`,
      `defineConformance({ baseUrl: server.then((s) => s.baseUrl), apiKey: '${key}', seed: ${MATRIX_SEED}, confirm: 0 })`,
    ].join('\n')
    const run = await childVitest(join(work, 'echoes'), testFile)
    expect(run.code, run.output).toBe(1)
    const failures = run.assertions.flatMap((a) => a.failureMessages)
    expect(failures.some((m) => /\nresponse: HTTP 20[01]\n[^]*  x-echo-request: /.test(m)), run.output).toBe(true)
    const written = run.output + run.junit + JSON.stringify(run.assertions)
    for (const form of [key, encodeURIComponent(key), Buffer.from(key).toString('base64'), Buffer.from(key).toString('base64url'), Buffer.from(`Bearer ${key}`).toString('base64')]) {
      expect(written).not.toContain(form)
    }
  }, 60_000)

  // a known failure's note quotes the answer too, in the annotations and in each test's meta (vitest's json reporter), and the baseline written is said on stderr
  test('a server that echoes the key, its failures in a baseline: the notes and the meta quote its answers, the key never', async () => {
    const key = `cnry-${randomBytes(12).toString('hex')}+/Z=`
    const hostile = pathToFileURL(join(ROOT, 'test/hostile/hostile-servers.ts')).href
    const testFile = (more: string) => [
      `import { afterAll } from 'vitest'`,
      `import { echoesEverything } from '${hostile}'`,
      `import { defineConformance } from '${entryFiles().vitest}'`,
      `const server = echoesEverything()`,
      `afterAll(async () => (await server).close())`,
      `defineConformance({ baseUrl: server.then((s) => s.baseUrl), apiKey: '${key}', seed: ${MATRIX_SEED}, confirm: 0, baseline: 'conform-baseline.json'${more} })`,
    ].join('\n')
    // the default reporter too: it prints the file's stderr, where the baseline written is said
    const recorded = await childVitest(join(work, 'echoes-known'), testFile(', updateBaseline: true'), ['--reporter=default'])
    expect(recorded.output, recorded.output).toMatch(/Baseline written: conform-baseline\.json/)
    // the run's test says the failures were recorded, not passed ("verdict pass" stood beside them)
    const runNotes = (r: typeof recorded) => r.assertions.filter((a) => a.title === RUN_TEST_NAME).flatMap((a) => a.meta?.conformance?.notes ?? [])
    expect(runNotes(recorded)[0], recorded.output).toMatch(/ · verdict recorded \(the failures updateBaseline wrote down, not passes\)$/)
    const run = await childVitest(join(work, 'echoes-known'), testFile(''), ['--reporter=default'], { keep: ['conform-baseline.json'] })
    expect(run.code, run.output).toBe(0)
    expect(runNotes(run)[0]).toMatch(/ · verdict pass$/)
    const notes = run.assertions.flatMap((a) => a.meta?.conformance?.notes ?? [])
    expect(notes.filter((note) => note.startsWith('known failure (baseline)')).length, run.output).toBeGreaterThan(0)
    expect(notes.join('\n')).toMatch(/\nactual: .*\nreproduce: curl /)
    const written = [recorded, run].map((r) => r.output + r.junit + JSON.stringify(r.assertions)).join('\n')
    for (const form of [key, encodeURIComponent(key), Buffer.from(key).toString('base64'), Buffer.from(key).toString('base64url'), Buffer.from(`Bearer ${key}`).toString('base64')]) {
      expect(written).not.toContain(form)
    }
  }, 120_000)

  // vitest's JUnit reporter writes an annotation as it is given: a member name a list repeated stood
  // there raw, a line break, an escape and a log command with it, for a CI step that prints the file
  test('an advisory note quoting server text is an annotation with its controls marked and no log command', async () => {
    const name = '##vso[task.setvariable variable=X]evil\n::error::pwned \u001b[31m'
    const key = `k3y-${randomBytes(8).toString('hex')}`
    const testFile = [
      `import { createServer } from 'node:http'`,
      `import { afterAll } from 'vitest'`,
      `import { defineConformance } from '${entryFiles().vitest}'`,
      `const name = ${JSON.stringify(name)}`,
      `const list = '[{"id":1,"name":"a",' + JSON.stringify(name) + ':1,' + JSON.stringify(name) + ':2}]'`,
      // the key refused but for the list, which names that member twice; creates answered as stored
      `const answer = (req, res) => req.headers.authorization !== 'Bearer ${key}' ? res.writeHead(401).end() : req.method === 'POST' ? res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":2,"name":"b"}') : res.writeHead(200, { 'content-type': 'application/json' }).end(list)`,
      `const server = new Promise((resolve) => { const s = createServer((req, res) => req.resume().on('end', () => answer(req, res))).listen(0, '127.0.0.1', () => resolve({ baseUrl: 'http://127.0.0.1:' + s.address().port + '/v1', close: () => s.close() })) })`,
      `afterAll(async () => (await server).close())`,
      `defineConformance({ baseUrl: server.then((s) => s.baseUrl), apiKey: '${key}', seed: ${MATRIX_SEED}, confirm: 0 })`,
    ].join('\n')
    const run = await childVitest(join(work, 'member-names'), testFile)
    expect(run.junit, run.output).toMatch(/<property name="notice" value="the first list: body\[0\] names &quot;⟨U\+0023⟩#vso\[task\.setvariable variable=X\]evil↵::error::pwned ⟨ESC⟩\[31m&quot; twice;/)
    expect(run.junit + run.output).not.toMatch(/##vso\[|\x1b|(^|\n)\s*::error::pwned/)
  }, 60_000)

  // a skip's reason became a 'skipped' annotation (JUnit's property) as it was: a Location header it quotes with it
  test("a skip's reason quoting server text (a redirect's Location) is an annotation with no log command", async () => {
    const key = `k3y-${randomBytes(8).toString('hex')}`
    const testFile = [
      `import { createServer } from 'node:http'`,
      `import { afterAll } from 'vitest'`,
      `import { defineConformance } from '${entryFiles().vitest}'`,
      // a request without the key is redirected to a login page whose address carries a log command; the key's are served
      `const answer = (req, res) => req.headers.authorization !== 'Bearer ${key}' ? res.writeHead(302, { location: '/login##vso[task.setvariable variable=X]evil' }).end() : req.method === 'POST' ? res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":2,"name":"b"}') : res.writeHead(200, { 'content-type': 'application/json' }).end('[]')`,
      `const server = new Promise((resolve) => { const s = createServer((req, res) => req.resume().on('end', () => answer(req, res))).listen(0, '127.0.0.1', () => resolve({ baseUrl: 'http://127.0.0.1:' + s.address().port + '/v1', close: () => s.close() })) })`,
      `afterAll(async () => (await server).close())`,
      `defineConformance({ baseUrl: server.then((s) => s.baseUrl), apiKey: '${key}', seed: ${MATRIX_SEED}, confirm: 0 })`,
    ].join('\n')
    const run = await childVitest(join(work, 'skip-reasons'), testFile)
    expect(run.junit, run.output).toMatch(/<property name="skipped" value="answered 302 redirecting to \/login⟨U\+0023⟩#vso\[task\.setvariable variable=X\]evil/)
    // and in the reason each test's meta holds (vitest's json reporter)
    expect(run.assertions.filter((a) => a.meta?.conformance?.skipped?.includes('redirecting to /login⟨U+0023⟩#vso[')).length).toBeGreaterThan(0)
    expect(run.junit + run.output + JSON.stringify(run.assertions)).not.toMatch(/##vso\[/)
  }, 60_000)
})

