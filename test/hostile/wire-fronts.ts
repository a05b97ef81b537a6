/**
 * Fronts for the reference server that write each answer's bytes themselves, for
 * test/hostile/wire-shapes.test.ts (and stray-answers, idle-408: runBehindFront): the front reads the upstream answer whole, then writes what the
 * scenario makes of it straight onto the client's socket, which stays open for the next request
 * (keep-alive) unless the scenario ends it. What goes over the wire is exactly the scenario's: 1xx
 * answers before the final one, chunk extensions and trailers, an HTTP/1.0 body ended by the close,
 * bytes node:http would refuse to write.
 */
import { createServer as createHttpServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { httpListen, type HostileServer, type State } from './hostile-servers.ts'

/** The upstream's answer, its framing headers (Content-Length, Transfer-Encoding, Connection) taken out. */
export interface Answer {
  status: number
  headers: IncomingHttpHeaders
  body: Buffer
  method: string
  /** 1 for the first request the front received, and so on. */
  nth: number
}

/** What a scenario does with an answer: the bytes to write, and whether to end the connection after them. */
export type Shape = (answer: Answer, socket: Socket) => { bytes: string | Buffer; end?: boolean }

/** The header lines of `headers` (no status line, no empty line). */
export const headLines = (headers: IncomingHttpHeaders): string =>
  Object.entries(headers)
    .flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${name}: ${v}\r\n`))
    .join('')

/** The status line, the headers and a Content-Length, and the body: an answer as a conforming server writes it. */
export const plain = (answer: Answer, status = `${answer.status} X`, extra = ''): Buffer =>
  Buffer.concat([Buffer.from(`HTTP/1.1 ${status}\r\n${extra}${headLines(answer.headers)}content-length: ${answer.body.byteLength}\r\n\r\n`, 'latin1'), answer.body])

export async function wireFront(upstream: string, shape: Shape): Promise<HostileServer> {
  const state: State = { requests: [], bytes: 0, hungUp: 0 }
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      state.requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('latin1') })
      const nth = state.requests.length
      const headers = { ...req.headers, connection: 'close' }
      delete headers.host
      // node:http, not fetch: the global dispatcher is shared with every other test file of the worker
      const forward = httpRequest(upstream + (req.url ?? ''), { method: req.method, headers }, (answer) => {
        const parts: Buffer[] = []
        answer.on('data', (chunk: Buffer) => parts.push(chunk))
        answer.on('end', () => {
          const out = { ...answer.headers }
          for (const name of ['transfer-encoding', 'connection', 'content-length', 'keep-alive']) delete out[name]
          const made = shape({ status: answer.statusCode ?? 502, headers: out, body: Buffer.concat(parts), method: req.method ?? '', nth }, req.socket)
          // written on the socket itself, never through `res`: node:http then writes nothing of its own on this connection
          if (made.end) req.socket.end(made.bytes)
          else req.socket.write(made.bytes)
        })
        answer.on('error', () => req.socket.destroy())
      })
      forward.on('error', () => req.socket.destroy())
      forward.end(body)
    })
    res.on('error', () => {})
  })
  return httpListen(server, state)
}

/** A run against the reference server behind a front of `shape` (key `key`), with `args` besides; what it started is closed through `closers`, the test file's afterAll. */
export async function runBehindFront(key: string, shape: Shape, closers: (() => unknown)[], args: string[] = []) {
  const server = await startReferenceServer({ apiKey: key })
  closers.push(() => server.close())
  const front = await wireFront(new URL(server.baseUrl).origin, shape)
  closers.push(() => front.close())
  const run = await runConformInProcess(['--base-url', front.baseUrl, '--timeout', '10000', ...args], { env: { CONFORM_API_KEY: key } })
  closers.push(() => run.cleanup())
  return { server, run }
}
