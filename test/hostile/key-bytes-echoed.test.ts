/**
 * A server that echoes the key's bytes written out and cut short (lib/http/secret-hex-runs.ts):
 * two thirds of its hex inside a dump longer than 256 bytes (a debug page's hexdump of the request),
 * and listed in decimal (`[99, 110, 114, …]`, `99,110,114`, of UTF-16 too) or as a C array (`0x63, 0x6e`), in headers and bodies; and a secret
 * --header value with a character past ASCII (Latin-1's é), echoed cut short as text, in UTF-8 and
 * Latin-1 hex and in decimal. Each stood in the reports: the redactor passed over runs of hex longer
 * than 256 bytes, read no decimal bytes, and made no runs of a secret beyond ASCII.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import { filesUnder } from '../helpers/key-leaks.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'

/** Bytes of a dump that read as no text: no six printable ASCII bytes in a row. */
const noise = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => ((i * 151) % 32) + (i % 2 ? 0x80 : 0)))

/** Two thirds of `bytes`, from a third of the way in when `tail`. */
const twoThirds = (bytes: Buffer, tail = false) => (tail ? bytes.subarray(Math.floor(bytes.length / 3)) : bytes.subarray(0, Math.ceil((bytes.length * 2) / 3)))

/** The forms of `bytes` cut short, as the server writes them. */
const echoes = (bytes: Buffer): Record<string, string> => ({
  dump: Buffer.concat([noise(300), twoThirds(bytes), noise(40)]).toString('hex'),
  'dump-bitconverter': Buffer.concat([noise(290), twoThirds(bytes, true)]).toString('hex').toUpperCase().replace(/..(?!$)/g, '$&-'),
  decimal: `[${[...twoThirds(bytes)].join(', ')}, ...]`,
  'decimal-commas': [...twoThirds(bytes, true)].join(','),
  'c-array': `{ ${[...twoThirds(bytes)].map((b) => `0x${b.toString(16)}`).join(', ')} }`,
  'utf16-decimal': [...twoThirds(Buffer.from(bytes.toString('latin1'), 'utf16le'))].join(' '),
})

const echoingServer = () =>
  httpServer((req, res, seen) => {
    const token = String(seen.headers.authorization ?? '').replace(/^\S+\s+/, '')
    // Node reads a header's bytes as Latin-1: the gateway key's bytes as they came, and as the UTF-8 a service would make of its text
    const gateway = String(seen.headers['x-gateway-key'] ?? '')
    const forms = { ...echoes(Buffer.from(token)), ...Object.fromEntries(Object.entries(echoes(Buffer.from(gateway, 'latin1'))).map(([k, v]) => [`gateway-${k}`, v])), ...Object.fromEntries(Object.entries(echoes(Buffer.from(gateway))).map(([k, v]) => [`gateway-utf8-${k}`, v])) }
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
    for (const [name, value] of Object.entries(forms)) headers[`x-echo-${name}`] = value
    const record = { id: 1, name: `invalid gateway key ${twoThirds(Buffer.from(gateway)).toString('utf8')}`, description: 'x', forms }
    res.writeHead(req.method === 'POST' ? 201 : 200, headers)
    res.end(JSON.stringify(req.method === 'POST' ? record : [record]))
  })

/** Where a run of `bytes` (8 or more, at any place) shows in `text`: in hex (separators dropped, either case), in decimal, or as text. */
function leaksOf(text: string, bytes: Buffer, secret: string): string[] {
  const digits = text.replace(/[-: ]/g, '').toLowerCase()
  const numbers = text.replace(/\s/g, '')
  const found: string[] = []
  for (let at = 0; at + 8 <= bytes.length; at++) {
    const run = bytes.subarray(at, at + 8)
    if (digits.includes(run.toString('hex'))) found.push(`hex of bytes ${at}..${at + 8}`)
    if (numbers.includes(`${[...run].join(',')},`) || numbers.includes([...run].join(','))) found.push(`decimal bytes ${at}..${at + 8}`)
  }
  for (let at = 0; at + 8 <= secret.length; at++) if (text.includes(secret.slice(at, at + 8))) found.push(`text ${at}..${at + 8}`)
  return found
}

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

test('the key and a gateway key beyond ASCII echoed as bytes cut short (a long dump, decimal) show in no output', { timeout: RUN_TIMEOUT_MS }, async () => {
  const key = `cnry-${randomBytes(12).toString('hex')}+/Z=`
  const gateway = `clé-sécrète-${randomBytes(4).toString('hex')}-ünïcødé`
  const server = await echoingServer()
  servers.push(server)
  const run = await runConform(['--base-url', server.baseUrl, '--timeout', '5000', '--header', `X-Gateway-Key: ${gateway}`], { env: { CONFORM_API_KEY: key }, killAfterMs: 100_000 })
  runs.push(run)
  // the echo worked: the keys went out and came back
  expect(server.requests.some((r) => r.headers.authorization === `Bearer ${key}` && r.headers['x-gateway-key'] === gateway), run.stderr).toBe(true)
  expect(Object.keys(run.files)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html', 'summary.md']))
  const texts = { stdout: run.stdout, stderr: run.stderr, ...filesUnder(run.reportDir) }
  const leaks: string[] = []
  for (const [where, latin1] of Object.entries(texts)) {
    const text = where === 'stdout' || where === 'stderr' ? latin1 : Buffer.from(latin1, 'latin1').toString('utf8')
    for (const [what, bytes, secret] of [['key', Buffer.from(key), key], ['gateway key (UTF-8)', Buffer.from(gateway), gateway], ['gateway key (Latin-1)', Buffer.from(gateway, 'latin1'), gateway]] as const) {
      for (const leak of leaksOf(text, bytes, secret)) leaks.push(`${where}: the ${what}, ${leak}`)
    }
  }
  expect([...new Set(leaks)]).toEqual([])
  // what the server echoed is there, redacted, not dropped
  expect(run.files['results.json']).toContain('[REDACTED]')
  expect(run.files['results.json']).toContain('x-echo-gateway-utf8-decimal-commas')
})
