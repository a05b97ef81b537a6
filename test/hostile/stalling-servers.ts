/**
 * Servers that stall on purpose, for test/hostile/run-ends.test.ts: one that trickles its head,
 * and a front for the reference server that never answers the requests of one phase of a run.
 */
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { httpListen, rawServer, type HostileServer, type State } from './hostile-servers.ts'

/**
 * Sends its status line and headers a byte every `everyMs` and never finishes them: a server
 * stalled behind a slow proxy. No request of it is ever answered within a short --timeout.
 */
export const tricklesHead = (everyMs = 200) =>
  rawServer((socket, request) =>
    void request.then(() => {
      const head = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: ' + 'x'.repeat(2000) + '\r\n')
      let at = 0
      const timer = setInterval(() => {
        if (socket.destroyed || at >= head.length) return clearInterval(timer)
        socket.write(head.subarray(at, ++at))
      }, everyMs)
      socket.on('close', () => clearInterval(timer))
    }),
  )

/**
 * A front for `upstream` (the reference server) that passes every request through, byte for byte,
 * except those `stalls` picks, which it never answers: a service that hangs in one phase of a
 * run. `nth` counts the requests of the same method and path, from 1.
 */
export async function stallingFront(upstream: string, stalls: (method: string, path: string, nth: number) => boolean): Promise<HostileServer> {
  const state: State = { requests: [], bytes: 0, hungUp: 0 }
  const seen = new Map<string, number>()
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const method = req.method ?? ''
      const path = (req.url ?? '').replace(/\?.*$/, '')
      const nth = (seen.get(`${method} ${path}`) ?? 0) + 1
      seen.set(`${method} ${path}`, nth)
      state.requests.push({ method, url: req.url ?? '', headers: req.headers, body: body.toString('latin1') })
      if (stalls(method, path, nth)) return
      const headers = { ...req.headers, connection: 'close' }
      delete headers.host
      // node:http, not fetch: the global dispatcher is shared with every other test file of the worker
      const forward = httpRequest(upstream + (req.url ?? ''), { method, headers }, (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const out = { ...answer.headers }
          delete out['transfer-encoding']
          delete out.connection
          res.writeHead(answer.statusCode ?? 502, { ...out, 'content-length': String(Buffer.concat(chunks).byteLength) })
          res.end(Buffer.concat(chunks))
        })
        answer.on('error', () => res.destroy())
      })
      forward.on('error', () => res.destroy())
      forward.end(body)
    })
    res.on('error', () => {})
  })
  return httpListen(server, state)
}

