/**
 * A fleet of up to 1,000 deployments (MAX_DEPLOYMENTS), each with a key of its own: every
 * deployment's evidence and the fleet's reports hide every key, so the redactor is made of all of
 * them. With the key's bytes in spaced hex (its runs hidden too) a list of their anchors passed
 * the arguments a spread into Math.min takes: a fleet of 700 keys ended in "RangeError: Maximum
 * call stack size exceeded" before any request, printed with its stack trace (exit 7), as the
 * last resort made the same redactor.
 */
import { expect, test } from 'vitest'
import { createRedactor, longestForm, REDACTED } from '../../lib/http/redact.ts'
import { MAX_DEPLOYMENTS } from '../../lib/fleet/targets.ts'

const keys = Array.from({ length: MAX_DEPLOYMENTS }, (_, i) => `key${i}-Xq9${'abcdefghijklmnop'.slice(i % 8)}Z${i * 7919}`)

test(`a redactor of ${MAX_DEPLOYMENTS} keys is made, and hides each`, { timeout: 120_000 }, () => {
  const redact = createRedactor(...keys)
  expect(redact(`a ${keys[0]} b ${keys[MAX_DEPLOYMENTS - 1]} c`)).toBe(`a ${REDACTED} b ${REDACTED} c`)
  expect(longestForm(...keys)).toBeGreaterThanOrEqual(longestForm(keys[0]))
})
