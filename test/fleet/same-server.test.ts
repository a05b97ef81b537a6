/**
 * One server listed twice under two host names, with one key, would be judged twice at once and
 * written to twice: the same base URL and key is refused (targets.test.ts); two names of one
 * address, port, path and key get a note before any request, not a refusal (they may be virtual
 * hosts of their own). Only names that could alias one another are resolved; no request is sent.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { sameServerNotes, type AliasCandidate, type Resolve } from '../../lib/fleet/same-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { fleetServer, type FleetServer } from './fleet-servers.ts'

const d = (label: string, baseUrl: string, apiKey = 'k-one'): AliasCandidate => ({ label, config: { baseUrl, apiKey } })
const dns: Record<string, string[]> = { 'eu.example': ['192.0.2.7'], 'eu-alias.example': ['198.51.100.1', '192.0.2.7'], 'us.example': ['203.0.113.9'], localhost: ['::1', '127.0.0.1'] }
const asked: string[] = []
const resolve: Resolve = async (host) => {
  asked.push(host)
  return dns[host] ?? (/^[\da-f.:]+$/.test(host) ? [host] : [])
}

describe('which deployments get the note', () => {
  test.each<[string, AliasCandidate[], RegExp[]]>([
    ['localhost and 127.0.0.1, one port, path and key', [d('a', 'http://127.0.0.1:8080/v1'), d('b', 'http://localhost:8080/v1/')], [/^b \(localhost\) and a \(127\.0\.0\.1\) reach the same address, 127\.0\.0\.1 port 8080, with the same path and key: if they are one server, it is judged twice at once and written to twice \(list it once\); if they are virtual hosts of their own, nothing is wrong$/]],
    ['two DNS names sharing an address', [d('eu', 'https://eu.example/v1'), d('eu2', 'https://eu-alias.example:443/v1'), d('us', 'https://us.example/v1')], [/^eu2 \(eu-alias\.example\) and eu \(eu\.example\) reach the same address, 192\.0\.2\.7 port 443/]],
    ['an IPv4-mapped address is the address', [d('a', 'http://127.0.0.1:8080/v1'), d('b', 'http://[::ffff:127.0.0.1]:8080/v1')], [/^b \(::ffff:7f00:1\) and a \(127\.0\.0\.1\) reach the same address, 127\.0\.0\.1 port 8080/]],
    // production listed under two names, read-only (or one of them): judged twice, written to at most once
    ['both read-only: not written to twice', [{ label: 'a', config: { baseUrl: 'http://127.0.0.1:8080/v1', apiKey: 'k-one', readOnly: true } }, { label: 'b', config: { baseUrl: 'http://localhost:8080/v1', apiKey: 'k-one', readOnly: true } }], [/: if they are one server, it is judged twice at once \(list it once\); if they/]],
    ['one of them maxWrites: 0', [d('a', 'http://127.0.0.1:8080/v1'), { label: 'b', config: { baseUrl: 'http://localhost:8080/v1', apiKey: 'k-one', maxWrites: 0 } }], [/: if they are one server, it is judged twice at once \(list it once\); if they/]],
    ['keys of their own: tenants', [d('a', 'http://127.0.0.1:8080/v1'), d('b', 'http://localhost:8080/v1', 'k-two')], []],
    ['another port', [d('a', 'http://127.0.0.1:8080/v1'), d('b', 'http://localhost:8081/v1')], []],
    ['another path', [d('a', 'http://127.0.0.1:8080/v1'), d('b', 'http://localhost:8080/tenant/v1')], []],
    ['another scheme', [d('a', 'http://eu.example/v1'), d('b', 'https://eu-alias.example/v1')], []],
    ['names of other addresses', [d('eu', 'https://eu.example/v1'), d('us', 'https://us.example/v1')], []],
  ])('%s', async (_name, deployments, says) => {
    const notes = await sameServerNotes(deployments, {}, resolve)
    expect(notes.length).toBe(says.length)
    says.forEach((pattern, i) => expect(notes[i]).toMatch(pattern))
  })

  test('names with nothing to alias are not resolved; a name behind a proxy is left alone', async () => {
    asked.length = 0
    await sameServerNotes([d('eu', 'https://eu.example/v1'), d('us', 'https://us.example/v2'), d('x', 'https://x.example/v1', 'k-two')], {}, resolve)
    expect(asked).toEqual([])
    expect(await sameServerNotes([d('eu', 'https://eu.example/v1'), d('eu2', 'https://eu-alias.example/v1')], { HTTPS_PROXY: 'http://proxy.example:3128' }, resolve)).toEqual([])
    expect(asked).toEqual([])
  })

  test('a name that does not resolve in time is no note and no wait past a second', async () => {
    const started = Date.now()
    const never: Resolve = () => new Promise(() => undefined)
    expect(await sameServerNotes([d('a', 'http://127.0.0.1:8080/v1'), d('b', 'http://localhost:8080/v1')], {}, never)).toEqual([])
    expect(Date.now() - started).toBeLessThan(3000)
  })
})

describe('a fleet of one server under two names', () => {
  let server: FleetServer
  let run: ConformRun | undefined
  beforeAll(async () => {
    server = await fleetServer()
  })
  afterAll(async () => {
    run?.cleanup()
    await server.server.close()
  })

  test('the note is said on stderr before the run, and the fleet runs', async () => {
    const port = new URL(server.server.baseUrl).port
    run = await runConformInProcess(['--base-url', `http://127.0.0.1:${port}/v1`, '--base-url', `http://localhost:${port}/v1`, '--read-only', '--rule', 'auth-missing-key-401'], { env: { CONFORM_API_KEY: server.key } })
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.stderr).toMatch(/^conform: note: localhost-\d+-v1 \(localhost\) and 127\.0\.0\.1-\d+-v1 \(127\.0\.0\.1\) reach the same address, 127\.0\.0\.1 port \d+, with the same path and key: if they are one server/m)
    expect(run.stderr).not.toContain(server.key)
  }, 60_000)
})
