/**
 * redactedCut keeps at most `limit` characters of a long body, and no part of a secret: a margin
 * past what the body had left (secret-spread.ts's, 17 characters a key's character; a JWT-sized
 * secret --header's, thousands) made the end of the cut negative, and the evidence held more than
 * its limit, or nothing.
 */
import { expect, test } from 'vitest'
import { createRedactor, longestForm, redactedCut } from '../../lib/http/redact.ts'

const KEY = 'edge-key-0123456789abcdef0123456789abcdef'
const ASSERTION = `eyJhbGciOiJSUzI1NiJ9.${'Zq81LmX0pR4tYv2NaB3c'.repeat(40)}.sig9Xk`

test.each([
  ['a key', [KEY], 64, 'x'.repeat(40) + KEY + 'y'.repeat(500)],
  ['a key and a JWT-sized secret header', [KEY, ASSERTION], 4096, 'x'.repeat(3000) + KEY + 'y'.repeat(3000)],
  ['a key and a JWT-sized secret header, a body past the limit and the margin', [KEY, ASSERTION], 4096, 'x'.repeat(4080) + KEY + 'y'.repeat(40_000)],
])('%s: the evidence is cut to its limit, nearly whole, with no part of the key', (_label, secrets, limit, body) => {
  const margin = longestForm(...secrets)
  const { body: evidence, truncated } = redactedCut(body, limit, margin, createRedactor(...secrets))
  expect(truncated).toBe(true)
  // all of it, but what the key's replacement took of it when the cut dropped the margin
  expect(evidence.length).toBeLessThanOrEqual(limit)
  expect(evidence.length).toBeGreaterThan(limit - KEY.length)
  for (let i = 0; i + 8 <= KEY.length; i++) expect(evidence).not.toContain(KEY.slice(i, i + 8))
})
