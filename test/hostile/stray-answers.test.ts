/**
 * A service that writes a second answer after some of its answers on a kept-alive connection (a
 * handler that answers twice, a body longer than its Content-Length), in front of the reference
 * server (wire-fronts.ts). Before, the run passed when the stray bytes came at once (undici dropped
 * the connection without a word), and when they came a few milliseconds later the next request on
 * the connection read them as its answer: rules it served failed "intermittently" with 500s, 401s and
 * 404s that were other requests' answers. Now either way the stray answers are the one finding of
 * the run (a problem of kind stray-answer, the bytes as evidence, RFC 9112 §6.3), and no rule fails
 * for them: the failures answers in doubt gave are not verified.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { plain, runBehindFront, type Shape } from './wire-fronts.ts'

const KEY = `stray-${randomBytes(12).toString('hex')}`
const STRAY = 'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}'
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

/** `first`: what the first stray bytes begin with; a stray read as the next request's answer makes that one's real answer the stray one. */
const SHAPES: { name: string; shape: Shape; first: RegExp }[] = [
  { name: 'a second answer after every fifth, in the same write', shape: (a) => ({ bytes: a.nth % 5 === 0 ? Buffer.concat([plain(a), Buffer.from(STRAY)]) : plain(a) }), first: /: "HTTP\/1\.1 500 Internal Server Error\\r\\n/ },
  {
    name: 'a second answer 5 ms after every fifth, when the next request may be out',
    first: /: "HTTP\/1\.1 \d{3} /,
    shape: (a, socket) => {
      if (a.nth % 5 === 0) setTimeout(() => socket.destroyed || socket.write(STRAY), 5)
      return { bytes: plain(a) }
    },
  },
]

describe('stray answers on kept-alive connections', () => {
  test.each(SHAPES)('$name: one finding, of kind stray-answer, and no rule failed', async ({ shape, first }) => {
    const { run } = await runBehindFront(KEY, shape, closers)
    expect(run.code, run.stdout).toBe(1)
    expect(run.results?.rules.filter((rule) => rule.status === 'fail').map((rule) => rule.id)).toEqual([])
    expect(run.results?.problems.map((p) => p.kind)).toEqual(['stray-answer'])
    expect(run.results?.problems[0]?.message).toMatch(/^stray answers \(\d+ times\): .*RFC 9112 §6\.3/)
    expect(run.results?.problems[0]?.message).toMatch(first)
    expect(run.stdout).toMatch(/✗ stray answers \(\d+ times\): bytes written after an answer's end on a kept-alive connection/)
  }, 120_000)
})
