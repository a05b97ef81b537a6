/**
 * A Go team's net/http service with its collection at a ServeMux subtree pattern,
 * mux.HandleFunc("/v1/categories/", …), behind a key check that wraps the mux: every request to the
 * path §4 gives is redirected, 301, before any handler runs (measured on Go 1.19). The suite named
 * the redirect as Django's APPEND_SLASH, and failed six rules with 80 checks as six findings; it is
 * one now, named as Go's (mutation go-servemux-subtree-pattern-redirects).
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'
import { VALID_CREATES } from '../../suites/cases/valid-creates.ts'

const KEY = 'go-net-http-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

test('a ServeMux subtree pattern: every rule the redirect fails names Go\'s ServeMux, and the redirect is one finding', async () => {
  const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'go-servemux-subtree-pattern-redirects')!, { apiKey: KEY })))
  expect(run.code, run.stdout).toBe(1)
  const failed = run.results!.rules.filter((r) => r.status === 'fail')
  expect(failed.map((r) => r.id)).toEqual(expect.arrayContaining(['list-returns-200', 'create-returns-201', 'create-rejects-invalid-json']))
  for (const rule of failed) {
    const words = rule.checks.filter((c) => c.status === 'fail').map((c) => c.failure!.message)
    expect(words.some((w) => /Go's ServeMux redirects a path without its trailing slash/.test(w)), rule.id).toBe(true)
    expect(words.filter((w) => /APPEND_SLASH/.test(w)), rule.id).toEqual([])
  }
  expect(run.stdout).toMatch(new RegExp(`✗ deterministic: \\d+ checks met requests redirected \\(301 to /v1/categories/\\) instead of answered, .*across ${failed.length} rules;`))
  expect(run.stdout.match(/^✗ /gm), run.stdout).toHaveLength(1)
}, 60_000)

/**
 * The same, and the rest of what was measured, against the Go service itself
 * (go-net-http/main.go, the standard library alone), where Go is installed; CI has none, and the
 * mutations above prove the same there.
 */
const go = spawnSync('go', ['version']).status === 0
const stops: (() => void)[] = []
afterAll(() => stops.forEach((stop) => stop()))

describe.skipIf(!go)("a service on Go's net/http, built from go-net-http/main.go", () => {
  let binary: string
  beforeAll(() => {
    binary = join(mkdtempSync(join(tmpdir(), 'go-net-http-')), 'service')
    stops.push(() => rmSync(dirname(binary), { recursive: true, force: true }))
    const built = spawnSync('go', ['build', '-o', binary, '.'], { cwd: join(import.meta.dirname, 'go-net-http'), encoding: 'utf8', env: { ...process.env, GOFLAGS: '-mod=mod' } })
    expect(built.status, built.stderr).toBe(0)
  }, 120_000)

  async function serveGo(mode: string): Promise<{ baseUrl: string }> {
    const server = spawn(binary, [], { env: { ...process.env, MODE: mode, SERVER_KEY: KEY, ID_START: '9007199254740993' }, stdio: ['ignore', 'pipe', 'inherit'] })
    stops.push(() => server.kill())
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
      server.once('exit', (code) => reject(new Error(`the Go service exited ${code}`)))
    })
    return { baseUrl: `http://127.0.0.1:${port}/v1` }
  }

  test('written to conform (json.NewEncoder\'s \\u003c escapes, ids past 2^53, U+0000 kept): the run passes', async () => {
    const run = await conform(await serveGo('careful'))
    expect(run.code, run.stdout).toBe(0)
  }, 60_000)

  // misshunt16's creates (create-name-in-two-cases, an "=" description, create-whitespace's 98 bytes) against
  // a service that refuses all a service may: each refusal a freedom, the run passes
  test('written to conform and refusing with 400 a member NewCategory does not name, a body past 98 bytes, names past 16 and descriptions past 32: the run passes', async () => {
    const run = await conform(await serveGo('careful-strict'))
    expect(run.code, run.stdout).toBe(0)
  }, 60_000)

  test('name checked under its key, then the body bound with json.Unmarshal: create-echoes-fields alone fails, naming encoding/json', async () => {
    const run = await conform(await serveGo('bound-after-check'))
    expect(run.code, run.stdout).toBe(1)
    expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['create-echoes-fields'])
    const [failed] = run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail')
    expect(failed.failure!.message).toMatch(/it holds what the body sent under the key "Name" after "name": .*Go's encoding\/json/)
  }, 60_000)

  // DisallowUnknownFields refuses create-sends-id's id, where the only "Name" beside "name" went; "Name" it
  // binds as name, and so takes create-name-in-two-cases (which it passed without) as "cf-…-2nd"
  test('name checked under its key, then bound by a json.Decoder with DisallowUnknownFields: create-echoes-fields fails on create-name-in-two-cases', async () => {
    const run = await conform(await serveGo('bound-after-check-strict'))
    expect(run.code, run.stdout).toBe(1)
    expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['create-echoes-fields'])
    const failed = run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail')
    const label = VALID_CREATES.find((v) => v.key === 'create-name-in-two-cases')!.label
    expect(failed.map((c) => c.name.startsWith(`POST /categories with ${label} →`))).toEqual([true])
    expect(failed[0]!.failure!.message).toMatch(/it holds what the body sent under the key "Name" after "name": .*Go's encoding\/json/)
  }, 60_000)

  test('the collection at a subtree pattern: one finding, the 301 named as Go\'s ServeMux', async () => {
    const run = await conform(await serveGo('subtree'))
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).toMatch(/^✗ deterministic: \d+ checks met requests redirected \(301 to \/v1\/categories\/\) instead of answered/m)
    const listed = run.results!.rules.find((r) => r.id === 'list-returns-200')!.checks.filter((c) => c.status === 'fail')
    expect(listed.map((c) => c.failure!.message)).toEqual(listed.map(() => expect.stringMatching(/Go's ServeMux redirects a path without its trailing slash/)))
  }, 60_000)

  test('json.Decoder and http.Error: the errors named as http.Error\'s, "Name" taken as one finding', async () => {
    const run = await conform(await serveGo('http-error'))
    expect(run.code, run.stdout).toBe(1)
    const failed = (rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail')
    for (const rule of ['error-body-is-error-record', 'json-content-type']) expect(failed(rule).every((c) => /Go's http\.Error writes/.test(c.failure!.message)), rule).toBe(true)
    expect(run.stdout).toMatch(/^✗ deterministic: 3 creates were taken whose body held "Name"/m)
  }, 60_000)
})
