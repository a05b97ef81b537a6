/**
 * An abort while the preflight waits on a silent host (a TLS port that never answers the handshake:
 * up to --timeout) ends that wait at once, as a signal does for the command line and a fleet
 * (lib/runner/preflight.ts untilInterrupted). The library waited the handshake out: a test runner's
 * own abort (its timeout, a cancelled watch run) held the call for the whole --timeout.
 */
import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, expect, test } from 'vitest'
import { mainEntry } from './api-entry.ts'

const sockets: Socket[] = []
let server: Server | undefined
afterAll(async () => {
  sockets.forEach((s) => s.destroy())
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)))
})

test('an abort during the preflight on a silent host ends the call at once, "interrupted … before the run started"', { timeout: 30_000 }, async () => {
  let reach: () => void = () => undefined
  const reached = new Promise<void>((resolve) => (reach = resolve))
  server = createServer((socket) => {
    sockets.push(socket)
    socket.on('error', () => undefined)
    reach()
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  const { runConformance } = await mainEntry()
  const controller = new AbortController()
  const started = performance.now()
  const call = runConformance({ baseUrl: `https://127.0.0.1:${port}/v1`, apiKey: 'abort-preflight-key-5b7e', timeout: 20_000, deadline: 60_000, signal: controller.signal, environment: {} })
  void reached.then(() => setTimeout(() => controller.abort('the test runner'), 300))
  await expect(call).rejects.toThrow(/interrupted by the test runner before the run started/)
  // before: the handshake's whole --timeout (20 s)
  expect(performance.now() - started).toBeLessThan(5_000)
})
