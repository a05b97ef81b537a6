/**
 * The reference server's one worker (oneAtATimeMs, variant one-request-at-a-time): a client that
 * goes away while its request waits its turn must not stop the worker. On a loaded machine the
 * suite's --timeout ended such waits, and the worker then waited for ever on a body no one would
 * send, so that every request after it timed out and the variant failed 14 rules.
 */
import { connect } from 'node:net'
import { afterEach, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'

let server: RunningServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A POST whose client closes its connection 20 ms after writing `sent` of the body's bytes. */
function abandoned(url: URL, sent: 'whole body' | 'part of the body'): Promise<void> {
  const body = '{"name":"abandoned"}'
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname, () => {
      const head = `POST ${url.pathname}/categories HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer k\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`
      socket.write(head + (sent === 'whole body' ? body : body.slice(0, 4)))
      setTimeout(() => (socket.destroy(), resolve()), 20)
    })
    socket.on('error', () => undefined)
  })
}

test.each(['whole body', 'part of the body'] as const)('a client gone while its POST (%s sent) waited its turn: the worker answers the next request', async (sent) => {
  server = await startReferenceServer({ apiKey: 'k', behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: true, oneAtATimeMs: 50 } } })
  const url = new URL(server.baseUrl)
  // a request ahead of it keeps the worker busy while the client of the second goes away
  await Promise.all([abandoned(url, 'whole body'), abandoned(url, sent)])
  const answer = await fetch(`${server.baseUrl}/categories`, { headers: { authorization: 'Bearer k' }, signal: AbortSignal.timeout(3_000) })
  expect(answer.status).toBe(200)
})
