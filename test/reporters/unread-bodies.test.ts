/**
 * Failed answers each given to the request that came next on its connection after a POST answered
 * on its head alone (lib/result/unread-bodies.ts afterUnreadBodyWords): a body left unread there,
 * read as the start of that request, not one replica behind a balancer (early13). Whole runs:
 * test/hostile/early-answers.test.ts.
 */
import { describe, expect, test } from 'vitest'
import type { JournalEntry } from '../../lib/http/journal.ts'
import { afterUnreadBodyWords } from '../../lib/result/unread-bodies.ts'

const post = (traceparent: string, status: number, authorization?: string): JournalEntry => ({
  id: traceparent,
  at: '2026-01-01T00:00:00.000Z',
  method: 'POST',
  url: 'https://petstore.example/v1/categories',
  body: '{"name":"cf-abcde-k01"}',
  headers: { traceparent, ...(authorization !== undefined ? { authorization } : {}) },
  onWire: true,
  outcome: 'answered',
  status,
})
const failedAfter = (traceparent: string | undefined, status = 400) => ({ exchanges: [{ response: { body: '{}', status }, ...(traceparent !== undefined ? { afterOnItsConnection: traceparent } : {}) }] })

describe('failed answers after a POST answered on its head alone, on their connection', () => {
  test('each failed answer came so: the words name those POSTs and the rule a server breaks', () => {
    const journal = [post('t-1', 401), post('t-2', 401), post('t-3', 401, 'Bearer undefined')]
    const words = afterUnreadBodyWords([failedAfter('t-1'), failedAfter('t-2'), failedAfter('t-3', 501)], journal)
    expect(words).toMatch(/^: each failed answer was to the next request on its connection after a POST answered on its head alone \(POST \/v1\/categories without a key answered 401 \(2 times\); POST \/v1\/categories with a wrong key answered 401\), whose body the service may have left unread: /)
    expect(words).toContain('RFC 9112 §9.3')
  })

  test('not when a failed answer came after anything else, nor after a POST refused for its body (a 400), which a conforming service answers most POSTs with', () => {
    expect(afterUnreadBodyWords([failedAfter('t-1'), failedAfter(undefined)], [post('t-1', 401)])).toBe('')
    expect(afterUnreadBodyWords([failedAfter('t-1'), failedAfter('t-9')], [post('t-1', 401)])).toBe('')
    expect(afterUnreadBodyWords([failedAfter('t-1')], [post('t-1', 400)])).toBe('')
    expect(afterUnreadBodyWords([failedAfter('t-1')], [post('t-1', 201)])).toBe('')
  })

  test('not when the failed answer is not what a request line garbled by a body gets (a 500 of one replica, at random after a 401 POST on --concurrency 1), nor a wrong record (review42)', () => {
    // measured: a run at --concurrency 1 sends 8 POSTs answered 401 on the head, each followed on its one connection by the next request
    expect(afterUnreadBodyWords([failedAfter('t-1', 500)], [post('t-1', 401)])).toBe('')
    expect(afterUnreadBodyWords([failedAfter('t-1', 502), failedAfter('t-2', 503)], [post('t-1', 401), post('t-2', 401)])).toBe('')
    expect(afterUnreadBodyWords([failedAfter('t-1', 201)], [post('t-1', 401)])).toBe('')
    // what a garbled request line gets: a 400, a 501 (an unknown method), a 505 (an unknown version), or no answer
    expect(afterUnreadBodyWords([failedAfter('t-1', 505), { exchanges: [{ response: undefined, afterOnItsConnection: 't-2' }] }], [post('t-1', 401), post('t-2', 401)])).toMatch(/^: each failed answer/)
  })
})
