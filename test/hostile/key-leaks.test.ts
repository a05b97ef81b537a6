/**
 * The key appears in no output: not on stdout or stderr, not in any file of the report
 * directory, not in a curl line or an error message; also when the server echoes it back in
 * bodies and headers, and when it is given with --api-key. Each run uses a canary key and scans
 * every byte written for it and for its base64 and URL-encoded forms, its halves, its pieces in order and its lower-case
 * letters and digits, decoded (escapes, UTF-16, base64, hex), and for the wrong key of the same shape the suite derives from it.
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { sameShape } from '../../lib/http/redact.ts'
import { unescapedTexts, writtenOut } from '../helpers/key-leaks.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { echoesEverything, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'

/** A key shaped like a real one (RFC 6750 b64token), with the characters encodings change. */
const canary = () => `cnry-${randomBytes(12).toString('hex')}+/Z=`

function formsOf(key: string): Record<string, string> {
  return {
    raw: key,
    'URL-encoded': encodeURIComponent(key),
    base64: Buffer.from(key).toString('base64'),
    base64url: Buffer.from(key).toString('base64url'),
    'Bearer … in base64': Buffer.from(`Bearer ${key}`).toString('base64'),
    // in part: a key of 16 characters or more here, whose halves are runs of 8 or more (FRAGMENT_MIN_SECRET_LENGTH is 12)
    ...(key.length >= 16
      ? {
          'first half': key.slice(0, Math.ceil(key.length / 2)),
          'second half': key.slice(Math.ceil(key.length / 2)),
          'lower-case, letters and digits': key.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, -4),
        }
      : {}),
    'every character a JSON escape': key.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    // in hex, and upper- and lower-cased whole
    ...writtenOut(key),
  }
}

/** Every text the run wrote: stdout, stderr, and each file under the report directory. */
function everythingWritten(run: ConformRun): Record<string, string> {
  const texts: Record<string, string> = { stdout: run.stdout, stderr: run.stderr }
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name)
      if (statSync(path).isDirectory()) walk(path)
      else texts[path.slice(run.reportDir.length + 1)] = readFileSync(path, 'latin1')
    }
  }
  walk(run.reportDir)
  return texts
}

/** The key's letters and digits in order, a few characters at most for each other one: its pieces, which read in order give it back. */
const piecesOf = (key: string) => new RegExp(key.replace(/^[^a-z0-9]+|[^a-z0-9]+$/gi, '').split(/[^a-z0-9]+/i).join('[\\s\\S]{0,24}?'), 'i')

/** The key's letters and digits one by one, anything but a letter or digit between them (a JSON string each, a zero-width space or a soft hyphen after each, as UTF-8 read as latin1). */
const spreadOf = (key: string) => new RegExp(key.replace(/[^a-z0-9]/gi, '').split('').join('[^a-z0-9]{0,40}'), 'i')

function expectNoKey(run: ConformRun, key: string): void {
  const leaks: string[] = []
  for (const [where, text] of Object.entries(everythingWritten(run))) {
    for (const [form, value] of Object.entries(formsOf(key))) {
      const at = text.indexOf(value)
      if (at >= 0) leaks.push(`${where} holds the key (${form}): …${text.slice(Math.max(0, at - 80), at + value.length + 20)}…`)
    }
    const pieces = piecesOf(key).exec(text)
    if (pieces) leaks.push(`${where} holds the key (its pieces in order): …${text.slice(Math.max(0, pieces.index - 80), pieces.index + pieces[0].length + 20)}…`)
    const spread = spreadOf(key).exec(text)
    if (spread) leaks.push(`${where} holds the key (a character at a time): …${text.slice(Math.max(0, spread.index - 80), spread.index + spread[0].length + 20)}…`)
    // escaped a character or byte at a time, in UTF-16, base64 or hex: decoded, the key itself
    const decoded = unescapedTexts(text).find((t) => t.includes(key))
    if (decoded !== undefined) leaks.push(`${where} holds the key (escaped, in UTF-16, base64 or hex): …${decoded.slice(Math.max(0, decoded.indexOf(key) - 80), decoded.indexOf(key) + key.length + 20)}…`)
  }
  expect(leaks).toEqual([])
}

/** A key of `openssl rand -base64 32`, with a "+", "/" or "=" every ten characters or so (here at 10, 21 and 32 for sure). */
const base64Key = () => {
  const b64 = randomBytes(32).toString('base64')
  return `${b64.slice(0, 10)}+${b64.slice(11, 21)}/${b64.slice(22, 32)}+${b64.slice(33)}`
}

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

describe.concurrent('a server that echoes every request back, the key included', { timeout: RUN_TIMEOUT_MS }, () => {
  const ways = [
    { how: 'CONFORM_API_KEY', args: (_key: string) => [] as string[], env: (key: string) => ({ CONFORM_API_KEY: key }), key: canary },
    { how: '--api-key', args: (key: string) => ['--api-key', key], env: (_key: string) => ({}), key: canary },
    // too short for the case-blind runs of a long key: hidden upper-cased and in hex as a whole
    { how: 'CONFORM_API_KEY, 12 characters', args: (_key: string) => [] as string[], env: (key: string) => ({ CONFORM_API_KEY: key }), key: () => `sk_${randomBytes(4).toString('hex').slice(0, 7)}Q+/` },
    // its pieces between "+", "/" and "=" shorter than the runs hidden: the echo's header name (lower-cased, "/" and "=" made "-") gave it back
    { how: 'CONFORM_API_KEY, base64 of 32 random bytes', args: (_key: string) => [] as string[], env: (key: string) => ({ CONFORM_API_KEY: key }), key: base64Key },
  ]
  for (const way of ways) {
    test(`key given with ${way.how} → no byte written anywhere holds it`, async () => {
      const key = way.key()
      const server = await echoesEverything()
      servers.push(server)
      const run = await runConform(['--base-url', server.baseUrl, '--timeout', '5000', ...way.args(key)], { env: way.env(key), killAfterMs: 100_000 })
      runs.push(run)
      expect(run.code, run.stderr).toBe(1)
      // the echo worked: the key went out, came back, and the failures quote what came back
      expect(server.requests.filter((r) => r.headers.authorization === `Bearer ${key}`).length).toBeGreaterThan(5)
      expect(run.stdout).toContain('[REDACTED]')
      expect(Object.keys(everythingWritten(run))).toEqual(expect.arrayContaining(['results.json', 'junit.xml']))
      expectNoKey(run, key)
      // the wrong key of the same shape is the key with each letter and digit moved by one: as telling
      expect(server.requests.some((r) => r.headers.authorization === `Bearer ${sameShape(key)}`)).toBe(true)
      expectNoKey(run, sameShape(key))
    })
  }
})

describe.concurrent('error messages about the arguments never quote the key', () => {
  const cases = [
    { name: 'an unknown flag after --api-key=…', args: (key: string) => [`--api-key=${key}`, '--bogus'] },
    { name: 'a stray word after --api-key (the key given twice)', args: (key: string) => ['--api-key', key, key] },
    { name: 'the key given to a flag that takes no value', args: (key: string) => [`--read-only=${key}`] },
    { name: 'a misspelt --api-key', args: (key: string) => [`--apikey=${key}`] },
    { name: 'a key that starts with a dash', args: (key: string) => ['--api-key', `-${key}`] },
  ]
  for (const c of cases) {
    test(c.name, async () => {
      const key = canary()
      const run = await runConform(c.args(key), { killAfterMs: 60_000 })
      runs.push(run)
      expect(run.code, run.stderr).toBe(2)
      expect(run.stderr).toMatch(/^conform: .+\n$/)
      expectNoKey(run, key)
    })
  }
})
