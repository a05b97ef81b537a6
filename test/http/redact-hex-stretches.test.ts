/**
 * The runs of hex scanned only in the stretches of hex that hold six bytes of ASCII
 * (lib/http/secret-hex-runs.ts replacedRuns): a fleet of ten's texts hold 28,930 runs of hex (trace
 * ids, UUIDs), 1,353 stretches with ASCII in them, and the pattern of runs scanned every text whole
 * (160 ms of CPU for the fleet's texts, 27 now). The same runs replaced as a scan of the whole text
 * replaces them, and the pattern run over the stretches only, counted.
 */
import fc from 'fast-check'
import { afterEach, expect, test } from 'vitest'
import { createRedactor } from '../../lib/http/redact.ts'
import { HEX_RUN, replacedRuns } from '../../lib/http/secret-hex-runs.ts'

const original = String.prototype.replace
afterEach(() => {
  String.prototype.replace = original
})

const ASCII = /(?:[2-7][0-9a-fA-F][ :-]?(?:00[ :-]?)?){6}/
const marked = (run: string) => (ASCII.test(run) ? `[${run.length}]` : run)

test('the runs a whole scan replaces, and only those, whatever stands around them', () => {
  const piece = fc.oneof(
    fc.constantFrom('0x', 'x', 'g', 'G', ' ', '-', ':', '"', '.', '0', '00', 'ab', '7f', '2a', 'FF ', '\n', '_', 'é'),
    fc.stringMatching(/^[0-9a-fA-F]{1,40}$/),
    fc.uint8Array({ minLength: 6, maxLength: 40 }).map((bytes) => Buffer.from(bytes).toString('hex')),
    fc.string({ minLength: 6, maxLength: 24 }).map((text) => Buffer.from(text, Math.random() < 0.5 ? 'latin1' : 'utf16le').toString('hex')),
    fc.tuple(fc.string({ minLength: 8, maxLength: 24 }), fc.constantFrom(' ', ':', '-')).map(([text, sep]) => Buffer.from(text).toString('hex').replace(/..(?!$)/g, `$&${sep}`)),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const text = pieces.join('')
      expect(replacedRuns(text, marked)).toBe(text.replace(HEX_RUN, marked))
    }),
    { numRuns: 20_000 },
  )
})

test("a report's hex (trace ids, UUIDs) is not scanned for runs: only the stretch with six bytes of ASCII in it", () => {
  const line = (i: number) => `{"traceparent":"00-7d1a8e2e5d644caadc38498cc5a${String(i).padStart(5, '0')}-98cae0f4af853d79-01","id":"3f2b8c1e-9a4d-4e7b-b6c5-2d1f0e9a8b7c"}\n`
  const text = Array.from({ length: 1200 }, (_, i) => line(i)).join('') + `{"echo":"${Buffer.from('categories-conformance').toString('hex')}"}`
  let scanned = 0
  String.prototype.replace = function (this: string, pattern: unknown, replacement: unknown) {
    if (pattern instanceof RegExp && pattern.source === HEX_RUN.source) scanned += this.length
    return (original as (...args: unknown[]) => string).call(this, pattern, replacement)
  } as typeof String.prototype.replace
  expect(createRedactor('Zq81LmX0pR4tYv2NaB7cWd5E')(text)).toBe(text)
  String.prototype.replace = original
  expect(text.length).toBeGreaterThan(100_000)
  // the stretch of the ASCII word's hex and its context, not the text
  expect(scanned).toBeLessThan(100)
  expect(scanned).toBeGreaterThan(0)
})
