/**
 * lib/http/answer-clock.ts through the client: a body still arriving holds --timeout back as an
 * answer does, but only a body the server serves. A limiter's 429 or 503 is no sign of the server
 * at work, its body no more than its status line: a request the server never answers still times
 * out while a limiter in front answers others with pages of HTML.
 */
import { expect, test } from 'vitest'
import { serve, withClient } from './client-harness.ts'

test("a limiter's 429 bodies do not hold --timeout back: a request the server never answers times out meanwhile", async () => {
  const server = await serve((req, res) => {
    if (req.url?.endsWith('/hang')) return // never answered
    // a limiter's page, larger than BODY_PROGRESS_BYTES, about once a second (the client's resends of a 429)
    res.writeHead(429, { 'retry-after': '1', 'content-type': 'text/html' }).end('<p>slow down</p>'.repeat(4096))
  })
  const hung = await withClient({ baseUrl: server.baseUrl, timeoutMs: 3_000, deadlineAt: Date.now() + 12_000 }, async (c) => {
    const hung = c.send({ method: 'GET', path: '/hang' })
    // answered 429 at once and sent again about every second until the deadline: each page came after the hung request was written
    // (--timeout 3 s, not 1.5: on a loaded machine the first resend came after 1.5 s, and nothing was shown)
    await new Promise((resolve) => setTimeout(resolve, 100))
    void c.send({ method: 'GET', path: '/categories' })
    return hung
  })
  expect(hung.exchange.error).toEqual({ code: 'TIMEOUT', message: 'no response within 3000 ms' })
  // --timeout after its write, give or take a timer's lateness on a loaded machine; held back by the pages, until the deadline
  expect(hung.exchange.durationMs).toBeLessThan(4_500)
  expect(server.requests.filter((r) => r.url.endsWith('/categories')).length).toBeGreaterThan(1)
}, 20_000)
