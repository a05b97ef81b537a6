/**
 * review34: a limit on connections shared with other clients (Node's server.maxConnections on a busy
 * staging service, a proxy's limit for everyone behind one address) is a limit one lone connection
 * of the run can meet all the same: as the run lets go of its connections, others take their places,
 * and a POST sent alone is closed at the door, as the list read right after it is. Three such tries
 * alone failed a conforming service NO_RESPONSE ("sent alone 3 times"); a try counts only when the
 * list read after it was answered at once (lib/http/unanswered-alone.ts, AloneTries).
 */
import { connect, createServer, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'

const KEY = 'shared-limit-key-0123456789abcdef'
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

/**
 * The reference server behind a limit of one connection shared with others: one more than the run's
 * one is closed as soon as it is accepted, and once the run has none open for 100 ms, others hold
 * the place for 600 ms, closing at the door whatever comes meanwhile.
 */
async function sharedLimit(): Promise<string> {
  const server = await startReferenceServer({ apiKey: KEY })
  closers.push(() => server.close())
  const upstream = new URL(server.baseUrl)
  let own = 0
  let othersUntil = 0
  const front = createServer((socket: Socket) => {
    if (own >= 1 || performance.now() < othersUntil) return void socket.destroy()
    own++
    const back = connect(Number(upstream.port), upstream.hostname)
    socket.pipe(back).pipe(socket)
    const done = () => (socket.destroy(), back.destroy())
    socket.once('close', () => {
      if (--own === 0) setTimeout(() => void (own === 0 && (othersUntil = performance.now() + 400)), 200)
      done()
    })
    socket.on('error', done)
    back.on('error', done)
    back.on('close', done)
  })
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve))
  closers.push(() => new Promise((resolve) => front.close(resolve)))
  return `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`
}

describe('a connection limit others share', () => {
  test('no POST fails as unanswered alone when the list read right after its tries went unanswered too (closed at the door as they were)', async () => {
    const baseUrl = await sharedLimit()
    const run = await runConformInProcess(['--base-url', baseUrl, '--concurrency', '2', '--deadline', '100000'], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    // others closing connections at the door may cost a request its ten resends (no complete response): that is not what is judged here
    const checks = run.results!.rules.flatMap((rule) => rule.checks)
    expect(checks.filter((c) => c.status === 'fail' && /sent alone/.test(c.failure?.message ?? '')).map((c) => c.failure?.message.slice(0, 60))).toEqual([])
    expect(run.files['journal.ndjson']).not.toMatch(/sent alone three times/)
  }, 150_000)
})
