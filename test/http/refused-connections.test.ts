/**
 * A request refused its connection waits and goes again while the server has refused for less than
 * REFUSED_WINDOW_MS since it last answered (a restart); past that, its refusals are final (a server gone).
 */
import { expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import { REFUSED_RESENDS, REFUSED_WINDOW_MS, RefusedConnections, refusedWindowMs } from '../../lib/http/refused-connections.ts'

const ended = (code?: 'CONNECTION_REFUSED' | 'CONNECTION_RESET', sent = false): Exchange => ({
  id: 'x',
  startedAt: new Date(0).toISOString(),
  durationMs: 1,
  request: { method: 'POST', url: 'http://127.0.0.1:9/v1/categories', headers: {} },
  sent,
  ...(code ? { error: { code, message: code } } : { response: { status: 201, headers: {}, body: '', bodyBytes: 0, bodyTruncated: false } }),
})

test('a refused connection waits 100 ms, doubled for each refusal up to 1 s, within the window, at most REFUSED_RESENDS times; a reset, an answer or a request on the wire do not', () => {
  const refusals = new RefusedConnections(() => false)
  expect([1, 2, 3, 4, 5, 6].map((n) => refusals.waitBefore(ended('CONNECTION_REFUSED'), n, Infinity, 0))).toEqual([100, 200, 400, 800, 1000, 1000])
  expect(refusals.waitBefore(ended('CONNECTION_RESET'), 1, Infinity, 0)).toBeUndefined()
  expect(refusals.waitBefore(ended(), 1, Infinity, 0)).toBeUndefined()
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED', true), 1, Infinity, 0)).toBeUndefined()
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), REFUSED_RESENDS + 1, Infinity, 0)).toBeUndefined()
  // past the run's deadline
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 1, 50, 0)).toBeUndefined()
})

test('refusals for REFUSED_WINDOW_MS with no answer since the first are final; an answer opens the window again', () => {
  let answered = false
  const refusals = new RefusedConnections(() => answered)
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 1, Infinity, 1_000)).toBe(100)
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 4, Infinity, 1_000 + REFUSED_WINDOW_MS - 900)).toBe(800)
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 1, Infinity, 1_000 + REFUSED_WINDOW_MS)).toBeUndefined()
  answered = true // the server answered a request since the first refusal: it came back
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 1, Infinity, 1_000 + REFUSED_WINDOW_MS)).toBe(100)
})

test('the window is the run\'s --timeout, at least REFUSED_WINDOW_MS: a restart may last as long as an answer may take', () => {
  expect([1_000, 5_000, 10_000, 30_000].map(refusedWindowMs)).toEqual([5_000, 5_000, 10_000, 30_000])
  const refusals = new RefusedConnections(() => false, () => 30_000)
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 1, Infinity, 1_000)).toBe(100)
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 25, Infinity, 1_000 + 28_000)).toBe(1_000)
  expect(refusals.waitBefore(ended('CONNECTION_REFUSED'), 26, Infinity, 1_000 + 29_500)).toBeUndefined()
  // the default --timeout (10 s): refused at 7 s still waits, past 10 s is final
  const byDefault = new RefusedConnections(() => false, () => 10_000)
  expect(byDefault.waitBefore(ended('CONNECTION_REFUSED'), 1, Infinity, 0)).toBe(100)
  expect(byDefault.waitBefore(ended('CONNECTION_REFUSED'), 8, Infinity, 7_000)).toBe(1_000)
  expect(byDefault.waitBefore(ended('CONNECTION_REFUSED'), 9, Infinity, 9_500)).toBeUndefined()
})
