/**
 * A key as long as one may be (16 KiB, lib/config/api-key.ts LONGEST_KEY): its redactor is made,
 * and hides it whole, in base64, in hex, one character at a time with a zero-width space after
 * each, and cut in two. Spread out whole, its pattern was more than V8 takes from 8 KB on
 * ("Invalid regular expression: … too large"); it is spread a piece of LONG_SECRET at a time now (lib/http/secret-long.ts).
 */
import { randomBytes } from 'node:crypto'
import { expect, test } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'
import { LONGEST_KEY } from '../../lib/config/api-key.ts'

test('a key of 16 KiB: hidden whole, encoded, spread out and cut in two, no pattern too large', () => {
  // begins with a letter: a key that begins with '-' or '_' (one in 32 of these) keeps that one mark before the first [REDACTED] of its spread-out and cut echoes, which hide letters and digits
  const key = `k${randomBytes(LONGEST_KEY).toString('base64url').slice(1, LONGEST_KEY)}`
  const redact = createRedactor(key)
  const echoes = [key, Buffer.from(key).toString('base64'), Buffer.from(key).toString('hex'), [...key].join('\u200b'), `${key.slice(0, 9000)}\n${key.slice(9000)}`]
  for (const echo of echoes) {
    const out = redact(`before ${echo} after`)
    expect(out.startsWith(`before ${REDACTED}`), out.slice(0, 80)).toBe(true)
    const letters = out.replace(/[^A-Za-z0-9]/g, '').toLowerCase()
    for (let at = 0; at + 16 <= key.length; at += 500) expect(letters).not.toContain(key.slice(at, at + 16).replace(/[^A-Za-z0-9]/g, '').toLowerCase())
  }
}, 120_000)
