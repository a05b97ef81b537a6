/**
 * The forms' anchors and the runs' in one pass (lib/http/redact.ts, secret-filter.ts
 * sharedAnchorPass): a text that holds no key is read once for both, not once for each. A fleet of
 * ten deployments passed 35.4 M characters through the two passes (perf30). What it reads is
 * counted here, as the passes read it (String.prototype.charCodeAt), on texts that hold no key;
 * that a text which holds one is redacted as before, test/http/secret-filter.test.ts shows against
 * each key's steps in turn.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterEach, expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'
import { charReadsOf } from '../helpers/char-reads.ts'

const original = String.prototype.charCodeAt
afterEach(() => {
  String.prototype.charCodeAt = original
})

/** How many characters `redact` reads of `text`, by charCodeAt. */
const readsOf = charReadsOf

test.each([
  // one key: the forms' pass and the runs' read 1.47 characters a character, the one pass 0.8
  ['one key', ['bench-fleet-0-k3y0x9q2w7'], 1],
  // two keys: a pass for their pieces too (2.13 before, 1.47 now)
  ['two keys', ['bench-fleet-0-k3y0x9q2w7', 'cnry-3f9a1b2c4d5e6f708192a3b4+/Z='], 1.8],
])('a text of 100,000 characters without a key (%s): read once for the forms and the runs, not once for each', (_label, keys, perCharacter) => {
  const text = '{"name":"a category","description":"the Pet Store categories interface, read again"}\n'.repeat(1200).slice(0, 100_000)
  const redact = createRedactor(...(keys as string[]))
  expect(readsOf(redact, text)).toBeLessThan((perCharacter as number) * text.length)
})

// the pass remembers the last text it found clean until the runs' step asks about it: kept after, it
// kept that text alive as long as the redactor (a fleet's, a process's): a 60 MB body, or the cut of
// one, which V8 makes a view of the whole body
test.each([['a key of 24 characters', 'bench-fleet-0-k3y0x9q2w7'], ['a key of 8', 'AbCdEfGh'], ['a fleet of keys', 'k3y-of-a-fleet-0001', 'k3y-of-a-fleet-0002']])('a text redacted is not kept alive by the redactor (%s)', (_label, ...keys) => {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  const redact = createRedactor(...keys)
  gc()
  const before = process.memoryUsage().heapUsed
  let body: string | undefined = '{"name":"a category","description":"the Pet Store categories interface"}\n'.repeat(400_000)
  expect(redact(body) === body).toBe(true)
  body = undefined
  gc()
  // 29 MB: the body, kept by the pass
  expect(process.memoryUsage().heapUsed - before).toBeLessThan(8_000_000)
})
