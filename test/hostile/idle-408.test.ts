/**
 * A server that writes 408 Request Timeout and Connection: close on a kept-alive connection as it
 * closes it idle (RFC 9110 §15.5.9; some servers and proxies do, and browsers then send the
 * request again on a fresh connection): a request written on the connection as it closes reads
 * the 408, which answers no request of the run. It failed the checks of such requests with
 * "answered 408"; it is the keep-alive race, said in words (lib/http/lost-answer.ts
 * idleTimeoutNotice): a GET goes again, a POST only when the list shows it was not stored. A 408
 * on a connection that carried nothing before is the server's answer, and judged.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { withClient } from '../http/client-harness.ts'
import { rawServer } from './hostile-servers.ts'
import { plain, runBehindFront } from './wire-fronts.ts'

const KEY = `idle408-${randomBytes(12).toString('hex')}`
const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe('a 408 written on a kept-alive connection as the server closes it', () => {
  test('20 ms after every answer, whatever came meanwhile: the requests that read it go again, the run passes, no POST stored twice', async () => {
    const { server, run } = await runBehindFront(
      KEY,
      (answer, socket) => {
        setTimeout(() => socket.destroyed || socket.end(TIMED_OUT), 20)
        return { bytes: plain(answer) }
      },
      closers,
    )
    expect(run.code, run.stdout).toBe(0)
    const statuses = (run.results?.rules ?? []).flatMap((rule) => rule.checks.flatMap((check) => check.exchanges ?? [])).map((e) => e.response?.status)
    expect(statuses).not.toContain(408)
    // the POSTs that read it went again only once the list showed them not stored
    expect(run.stdout).toMatch(/and \d+ sent again after their connection closed before any answer \(the list showed them not stored\)/)
    const stored = server.store.map((record) => JSON.stringify([record.name, record.description]))
    expect(new Set(stored).size, 'a create stored twice').toBe(stored.length)
  }, 120_000)

  test('on a connection that carried nothing before, the 408 is the answer', async () => {
    const server = await rawServer((socket, request) => void request.then(() => socket.end(TIMED_OUT)))
    closers.push(() => server.close())
    await withClient({ baseUrl: server.baseUrl }, async (client) => {
      const { exchange } = await client.send({ method: 'GET', path: '/categories' })
      expect(exchange.error).toBeUndefined()
      expect(exchange.response?.status).toBe(408)
    })
  }, 30_000)
})
