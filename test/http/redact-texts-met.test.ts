/**
 * A redactor's answers kept for short texts met again (lib/http/secret-filter.ts textsMet, perf33):
 * an answer is kept by one redactor, of one set of keys, for that exact text, so a redactor of more
 * keys (a fleet's, once its targets are read), or one made later, never gets an answer a redactor of
 * fewer keys gave; a text that holds a key split with its neighbour is still hidden glued; the kept
 * answers are forgotten past their cap and given again as they were; and they keep no long text alive.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { expect, test } from 'vitest'
import { evidenceHeaders } from '../../lib/http/cookies.ts'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'

const [KEY_A, KEY_B] = ['Jh5tUvW0yXoPq2Rs9Ke', 'Zp4w8Nc1-dGmB3fL6aT']
const hexListed = (key: string) => [...Buffer.from(key)].map((b) => b.toString(16)).join(', ')
/** Texts holding KEY_B in the forms a server echoes it in: as is, JSON-escaped, in base64, listed in hex, spread out, cut short. */
const holdingB = [`Bearer ${KEY_B}`, `{"key":"${KEY_B.replace('-', '\\u002d')}"}`, Buffer.from(KEY_B).toString('base64'), `[${hexListed(KEY_B)}]`, [...KEY_B].join(' '), `x-key: ${KEY_B.slice(0, 14)}`]

test("a redactor of more keys never gets the answer one of fewer gave to the same text, in either order", () => {
  const fewer = createRedactor(KEY_A)
  // the one of fewer keys first: its answers (the texts whole, as it knows no KEY_B) kept
  expect(holdingB.map(fewer)).toEqual(holdingB)
  const more = createRedactor(KEY_A, KEY_B)
  for (const text of holdingB) expect(more(text), text).not.toContain(KEY_B.slice(-8))
  // and after the one of more keys, the one of fewer still gives its own answer
  expect(holdingB.map(fewer)).toEqual(holdingB)
})

test('a fleet whose keys grow as its targets are read: each text met before, then redacted with every key', () => {
  const secrets: string[] = [KEY_A]
  // as lib/fleet/fleet-run.ts: a redactor made again when the secrets change
  const redact = (text: string) => createRedactor(...secrets)(text)
  expect(holdingB.map(redact)).toEqual(holdingB)
  secrets.push(KEY_B)
  for (const text of holdingB) expect(redact(text), text).toContain(REDACTED)
})

test('a key split over two headers is hidden glued though each piece was met alone before', () => {
  const redact = createRedactor(KEY_B)
  const [first, second] = [KEY_B.slice(0, 6), KEY_B.slice(6)]
  // each piece alone met and kept (too short, or too little of the key, to be hidden alone)
  expect(redact(first)).toBe(first)
  const shown = evidenceHeaders({ 'x-a': first, 'x-b': second }, redact)
  expect(JSON.stringify(shown)).not.toContain(first + second)
  expect(Object.values(shown)).toContain(REDACTED)
})

test('past the cap the answers are forgotten together and given again as they were; a text past 1,024 characters each time', () => {
  const redact = createRedactor(KEY_A)
  // a lone surrogate too: the copy kept holds every UTF-16 unit as it was
  const texts = [`Bearer ${KEY_A}`, `${'x'.repeat(1024 - KEY_A.length)}${KEY_A}`, `${'x'.repeat(1025 - KEY_A.length)}${KEY_A}`, `name \ud800 and ${KEY_A} \udfff`]
  const first = texts.map(redact)
  for (const out of first) expect(out).not.toContain(KEY_A)
  // more texts than the cap (20,000), each its own
  for (let i = 0; i < 20_500; i++) redact(`text ${i}`)
  expect(texts.map(redact)).toEqual(first)
  expect(texts.map(createRedactor(KEY_B, KEY_A))).toEqual(first)
})

// a short cut of a long text is, in V8, a view of it whole (a sliced string): kept as it was given, it
// kept the long text alive as long as the redactor (a fleet's, a process's: 20 cuts of 5 MB texts, 100 MB)
/** How much the heap grew over `work`, collected before and after (twice: what a first collection leaves for the next). */
function heapGrowth(work: () => void): number {
  setFlagsFromString('--expose-gc')
  const gc = runInNewContext('gc') as () => void
  gc()
  const before = process.memoryUsage().heapUsed
  work()
  gc()
  gc()
  return process.memoryUsage().heapUsed - before
}

test('a short cut of a long text, its answer kept, keeps no long text alive', () => {
  const redact = createRedactor(KEY_A)
  const growth = heapGrowth(() => {
    for (let i = 0; i < 8; i++) {
      const long = `${i}{"name":"a category","description":"the Pet Store categories interface"}\n`.repeat(70_000)
      expect(redact(long.slice(0, 300))).toBe(long.slice(0, 300))
      expect(redact(`${long.slice(0, 300)}${KEY_A}`)).toContain(REDACTED)
    }
  })
  // 41 MB: the eight long texts, kept by the answers; under 8 MB kept so, once 10 MB in a CI run (the heap's own
  // growth with the redactor's first texts), so the bound is half of what the fault keeps
  expect(growth).toBeLessThan(20_000_000)
})

// counted in texts alone, 20,000 texts of 1,024 characters (a long header value, a description sent) kept 80 MB (review50)
test('the answers kept are bounded in characters, not in texts alone', () => {
  const redact = createRedactor(KEY_A)
  const growth = heapGrowth(() => {
    for (let i = 0; i < 19_000; i++) redact(`${i} ${'y'.repeat(1000)}`)
  })
  // 19,000 × 1,006 characters: 20.5 MB of growth when all are kept (measured with MEMO_CHARS lifted), 1.3 MB with at most
  // 2 M characters kept; the bound is half of what the fault keeps, as the heap grows by itself too
  expect(growth).toBeLessThan(10_000_000)
})
