/**
 * lib/http/redact.ts redactedCut: the 4 KB a long body keeps as evidence hold characters of their
 * own. A slice of a long text is a view of it in V8, and the evidence of every list read (a 5.6 MB
 * list, 14 MB as two-byte text) would keep the whole body in memory until the run ends.
 */
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { expect, test } from 'vitest'
import { createRedactor, longestForm, ownCopy, redactedCut } from '../../lib/http/redact.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

test('the evidence cut from a long body does not keep the body in memory', () => {
  const key = 'sk_live_Evidence+Key/123=='
  const redact = createRedactor(key)
  const kept: string[] = []
  gc()
  const before = process.memoryUsage().heapUsed
  for (let i = 0; i < 20; i++) {
    // a body as the client decodes it (lib/http/body-reader.ts): one flat text, two-byte as a € makes it, 4 MB
    const body = new TextDecoder().decode(Buffer.from(`[${`{"id":1,"name":"€ ${i}"},`.repeat(100_000)}{}]`))
    const cut = redactedCut(body, 4096, longestForm(key), redact)
    expect(cut.truncated).toBe(true)
    expect(cut.body).toBe(body.slice(0, 4096))
    kept.push(cut.body)
  }
  gc()
  // twenty 4 MB bodies kept through views: about 80 MB; the cuts alone: 160 KB
  expect((process.memoryUsage().heapUsed - before) / 2 ** 20).toBeLessThan(10)
  expect(kept).toHaveLength(20)
})

test('ownCopy keeps every UTF-16 unit, a lone surrogate too', () => {
  for (const text of ['', 'abc', '€ and 🐇', '\ud83d', 'x\udc07y', 'a\u0000b']) expect(ownCopy(text)).toBe(text)
})
