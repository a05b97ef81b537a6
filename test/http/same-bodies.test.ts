/**
 * lib/http/same-bodies.ts: a large body read again unchanged is kept once, its parse shared; a body
 * that changed, or a small one, is its own. A run reads the list five times or more once its writes
 * are done, and against a store of 60,000 records each read was 14 MB of text and as much parsed.
 */
import { expect, test } from 'vitest'
import { jsonBodyOf } from '../../lib/checks/response.ts'
import { SAME_BODY_MIN_CHARACTERS } from '../../lib/http/same-bodies.ts'
import { serve, withClient } from './client-harness.ts'

const list = (count: number, extra = '') => JSON.stringify([...Array.from({ length: count }, (_, i) => ({ id: i + 1, name: `category €${i}`, description: 'Pets of a kind' })), ...(extra ? [{ id: count + 1, name: extra }] : [])])

test('the same large list read again shares its parse; a changed one, and small ones, do not', async () => {
  const large = list(2_000)
  expect(large.length).toBeGreaterThan(SAME_BODY_MIN_CHARACTERS)
  const bodies = [large, large, list(2_000, 'created'), large, '[{"id":1,"name":"a"}]', '[{"id":1,"name":"a"}]']
  let served = 0
  const server = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(bodies[served++])
  })
  const parsed = await withClient({ baseUrl: server.baseUrl }, async (client) => {
    const reads = []
    for (let i = 0; i < bodies.length; i++) reads.push(await client.send({ method: 'GET', path: '/categories' }))
    reads.forEach((r, i) => expect(r.text).toBe(bodies[i]))
    return reads.map((r) => jsonBodyOf(r))
  })
  expect(parsed[1]).toBe(parsed[0])
  expect(parsed[3]).toBe(parsed[0])
  expect(parsed[2]).not.toBe(parsed[0])
  expect(parsed[2]).toEqual([...(parsed[0] as unknown[]), { id: 2001, name: 'created' }])
  // a small body is parsed for its own answer, as before
  expect(parsed[5]).not.toBe(parsed[4])
  expect(parsed[5]).toEqual(parsed[4])
})
