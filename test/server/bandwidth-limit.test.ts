/**
 * The reference server's bandwidth limit (lib/server/reply-writer.ts, variant
 * answers-at-a-bandwidth-limit) holds its rate on a loaded machine: a timer that fires late writes
 * what the rate allowed meanwhile. A tenth of the rate a turn fell behind whenever the event loop
 * was kept busy (runs side by side in one process, shared cores), and the variant, whose lists
 * take three times --timeout, failed 5 rules on "the 200 response's body did not end within
 * 800 ms" (3 of 3 runs with the loop kept busy 400 ms a second; 0 of 3 now).
 */
import { request } from 'node:http'
import { afterEach, expect, test } from 'vitest'
import { caseKey, startCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'

const stops: (() => Promise<void>)[] = []
afterEach(async () => void (await Promise.all(stops.splice(0).map((stop) => stop()))))

test('a list sent at 48 KiB a second keeps that rate while the event loop is kept busy 400 ms at a time', async () => {
  const variant = VARIANTS.find((v) => v.name === 'answers-at-a-bandwidth-limit')!
  const apiKey = caseKey(variant)
  const server = await startCase(variant, { apiKey })
  stops.push(() => server.close())
  const started = performance.now()
  let firstAt = Number.NaN
  let first = 0
  // busy 400 ms of every 500 (at most 2 s of it): the server's turns come late, as beside busy runs
  const busy = setInterval(() => {
    const end = performance.now() + 400
    while (performance.now() < end);
  }, 100)
  stops.push(async () => clearInterval(busy))
  const body = await new Promise<Buffer>((resolve, reject) => {
    request(`${server.baseUrl}/categories`, { headers: { authorization: `Bearer ${apiKey}` } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => {
        if (chunks.length === 0) [firstAt, first] = [performance.now(), chunk.byteLength]
        chunks.push(chunk)
        if (performance.now() - started > 2_000) clearInterval(busy)
      })
      res.on('end', () => resolve(Buffer.concat(chunks)))
      res.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
  // from its first bytes to its last: the list's making and the request's own time are not the rate
  const seconds = (performance.now() - firstAt) / 1000
  // about 98 KB of 1,500 categories: 2 s at the rate; a tenth a turn took more than twice that
  expect(body.byteLength).toBeGreaterThan(90_000)
  expect((body.byteLength - first) / seconds).toBeGreaterThan(0.8 * 48 * 1024)
})
