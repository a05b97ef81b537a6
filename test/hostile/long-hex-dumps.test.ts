/**
 * A server that echoes the key's bytes inside long dumps of hex (more than 256 bytes: a debug
 * page's hexdump of the request), in the forms that might slip past long runs looked for only in
 * stretches read every 256th character (lib/http/long-hex-stretches.ts, review57): separators that
 * change from byte to byte, upper case, UTF-16's hex, the key glued between two long runs of other
 * separators, a comma every 255 characters, the dump starting at each character read and at the
 * text's start. In headers, in bodies (at different places in each answer) and in the created
 * names the journal redacts whole. None shows in any output.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, expect, test } from 'vitest'
import { filesUnder } from '../helpers/key-leaks.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'

/** Bytes of a dump that read as no text: no six printable ASCII bytes in a row. */
const noise = (count: number) => Buffer.from(Array.from({ length: count }, (_, i) => ((i * 151) % 32) + (i % 2 ? 0x80 : 0)))
const spaced = (hex: string, seps: string) => hex.replace(/../g, (pair, i: number) => `${pair}${seps[(i / 2) % seps.length]}`).slice(0, -1)

/** The dumps of `key`'s bytes with `before` bytes of noise before them. */
const dumps = (key: Buffer, before: number): Record<string, string> => {
  const around = (bytes: Buffer) => Buffer.concat([noise(before), bytes, noise(290)])
  return {
    together: around(key).toString('hex'),
    'separators-changing': spaced(around(key).toString('hex'), ' :-'),
    'upper-dashes': spaced(around(key).toString('hex').toUpperCase(), '-'),
    utf16: around(Buffer.from(key.toString('latin1'), 'utf16le')).toString('hex'),
    glued: `${spaced(noise(before + 260).toString('hex'), ' ')}${key.toString('hex')}${spaced(noise(300).toString('hex'), ':')}`,
    'comma-every-255': around(key).toString('hex').replace(/.{255}/g, '$&,'),
  }
}

const echoingServer = () => {
  let answers = 0
  return httpServer((req, res, seen) => {
    const key = Buffer.from(String(seen.headers.authorization ?? '').replace(/^\S+\s+/, ''))
    // each answer's dumps at another place: before them 0 to 511 characters, the dump's own start 0 to 300 bytes in
    const lead = [0, 1, 254, 255, 256, 257, 511][answers % 7]!
    const forms = dumps(key, [0, 3, 100, 127, 300][answers % 5]!)
    answers++
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' }
    for (const name of ['together', 'separators-changing', 'glued']) headers[`x-dump-${name}`] = forms[name]!
    const names = Object.keys(forms)
    const record = { id: answers, name: `${'.'.repeat(lead)}${forms[names[answers % names.length]!]}`, description: 'x' }
    res.writeHead(req.method === 'POST' ? 201 : 200, headers)
    res.end(JSON.stringify(req.method === 'POST' ? record : [record, ...names.map((name, i) => ({ id: 1000 + i, name: forms[name], description: name }))]))
  })
}

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

test("the key's hex in long dumps of every form, at every place, shows in no output", { timeout: RUN_TIMEOUT_MS }, async () => {
  const key = `cnry-${randomBytes(12).toString('hex')}+/Z=`
  const server = await echoingServer()
  servers.push(server)
  const run = await runConform(['--base-url', server.baseUrl, '--timeout', '5000'], { env: { CONFORM_API_KEY: key }, killAfterMs: 100_000 })
  runs.push(run)
  expect(server.requests.some((r) => r.headers.authorization === `Bearer ${key}`), run.stderr).toBe(true)
  expect(Object.keys(run.files)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html', 'summary.md']))
  const keyHex = [Buffer.from(key).toString('hex'), Buffer.from(key, 'utf16le').toString('hex')]
  const leaks: string[] = []
  for (const [where, text] of Object.entries({ stdout: run.stdout, stderr: run.stderr, ...filesUnder(run.reportDir) })) {
    const digits = text.replace(/[^0-9a-fA-F]/g, '').toLowerCase()
    for (const hex of keyHex) for (let at = 0; at + 16 <= hex.length; at += 2) if (digits.includes(hex.slice(at, at + 16))) leaks.push(`${where}: the key's hex, byte ${at / 2}`)
    for (let at = 0; at + 8 <= key.length; at++) if (text.includes(key.slice(at, at + 8))) leaks.push(`${where}: the key, ${at}..${at + 8}`)
  }
  expect([...new Set(leaks)]).toEqual([])
  // what the server echoed is there, redacted, not dropped
  expect(run.files['results.json']).toContain('[REDACTED]')
  expect(run.files['results.json']).toContain('x-dump-glued')
})
