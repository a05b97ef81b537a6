/**
 * A bearer token of 4,000 characters (a JWT of Azure AD or Keycloak with many claims, 2 to 4 KB),
 * against a server that echoes it in a header, in its body, percent-encoded, in base64, and the
 * Basic credentials the suite sends in base64: the run goes through, and no byte written holds it.
 * securehunt12 refused keys over 2,048 characters (one pattern of every form of a key of 3,000 was
 * more than V8 takes, and the run stopped); a long key's forms are looked for as texts now
 * (lib/http/secret-long.ts), and a key is refused from 16 KiB on (lib/config/api-key.ts LONGEST_KEY).
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import { filesUnder, formsOf, unescapedTexts } from '../helpers/key-leaks.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

/** A JWT's shape: base64url header, claims and signature, 4,000 characters in all. */
const jwtOf = (length: number) => {
  const head = `eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.${randomBytes(length).toString('base64url')}`
  return `${head.slice(0, length - 44)}.${randomBytes(32).toString('base64url')}`
}

/** Echoes the credentials of every request: the token in a header and its base64 in another, and in the body raw, percent-encoded, base64, and the Authorization header's base64. */
const echoesLongToken = () =>
  httpServer((req, res, seen) => {
    const authorization = String(seen.headers.authorization ?? '')
    const token = authorization.replace(/^\S+\s+/, '')
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'x-echo-token': token, 'x-echo-token-base64': Buffer.from(token).toString('base64') })
    const echo = { token, percent: encodeURIComponent(`/v1/categories?token=${token}`), base64: Buffer.from(token).toString('base64'), authorization: Buffer.from(authorization).toString('base64') }
    res.end(JSON.stringify(req.method === 'POST' ? { id: 1, name: token, echo } : [{ id: 1, name: token, echo }]))
  })

test('a token of 4,000 characters echoed in a header, a body, percent-encoded and base64: the run goes through, no byte written holds it', async () => {
  const key = jwtOf(4000)
  expect(key).toHaveLength(4000)
  const server = await echoesLongToken()
  servers.push(server)
  const run = await runConform(['--base-url', server.baseUrl, '--timeout', '5000'], { env: { CONFORM_API_KEY: key }, killAfterMs: 150_000 })
  runs.push(run)
  // failures (the echo is no category), not a refusal (2) nor an internal error
  expect(run.code, run.stderr.slice(0, 400)).toBe(1)
  expect(run.stderr).not.toContain('internal error')
  expect(server.requests.filter((r) => r.headers.authorization === `Bearer ${key}`).length).toBeGreaterThan(5)
  expect(server.requests.some((r) => r.headers.authorization === `Basic ${Buffer.from(`${key}:${key}`).toString('base64')}`)).toBe(true)
  expect(run.stdout).toContain('[REDACTED]')
  const written = { stdout: run.stdout, stderr: run.stderr, ...filesUnder(run.reportDir) }
  expect(Object.keys(written)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'journal.ndjson']))
  const leaks: string[] = []
  const forms = { ...formsOf(key), 'Basic credentials in base64': Buffer.from(`${key}:${key}`).toString('base64'), 'Bearer in base64': Buffer.from(`Bearer ${key}`).toString('base64') }
  for (const [where, text] of Object.entries(written)) {
    for (const [form, value] of Object.entries(forms)) if (text.includes(value)) leaks.push(`${where}: ${form}`)
    // any run of 40 of its characters, in any case, decoded too
    const folded = [text, ...unescapedTexts(text)].join('\n').toLowerCase()
    for (let at = 0; at + 40 <= key.length; at += 160) if (folded.includes(key.slice(at, at + 40).toLowerCase())) leaks.push(`${where}: its characters ${at} to ${at + 40}`)
  }
  expect(leaks).toEqual([])
}, RUN_TIMEOUT_MS * 3)
