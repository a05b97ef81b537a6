/**
 * Servers that would hold a run past its --deadline if anything waited on them, for
 * test/hostile/deadline-shapes.test.ts: each answers nothing a run can finish on, slowly or
 * endlessly, on a free loopback port (port 0), and is closed by the test that started it.
 */
import type { Socket } from 'node:net'
import { httpServer, rawServer, type HostileServer } from './hostile-servers.ts'

/** Sockets a scenario keeps writing to, and their timers: stopped when the client goes away. */
function everyMs(socket: Socket, ms: number, write: () => void): void {
  const timer = setInterval(() => (socket.destroyed ? clearInterval(timer) : write()), ms)
  socket.on('close', () => clearInterval(timer))
}

/** 103 Early Hints and 100 Continue, one after another every 2 ms for as long as the connection lasts, and never a final answer. */
export const interimFlood = (): Promise<HostileServer> =>
  rawServer((socket, request) =>
    void request.then(() => everyMs(socket, 2, () => socket.write('HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n'))),
  )

/** 200 with a JSON body that comes one byte every `ms` (below any --timeout a read has) and never ends. */
export const tricklesSlowly = (ms: number): Promise<HostileServer> =>
  httpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('[')
    const timer = setInterval(() => res.write(' '), ms)
    res.on('close', () => clearInterval(timer))
  })

/** A Content-Length 500 bytes longer than the body sent, then nothing more, the connection left open. */
export const contentLengthThenIdle = (): Promise<HostileServer> =>
  rawServer((socket, request) =>
    void request.then(() => {
      const body = '[{"id": 1, "name": "dog"}]'
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 500}\r\n\r\n${body}`)
    }),
  )

/** Every answer a status line and a header whose value is `bytes` long (the client reads 64 KiB of head at most: lib/http/transport-errors.ts MAX_HEAD_BYTES), written as fast as the client takes it. */
export const giantHeaderValue = (bytes: number): Promise<HostileServer> => {
  const head = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Padding: ${'a'.repeat(bytes)}\r\nContent-Length: 2\r\n\r\n[]`)
  return rawServer((socket, request) => void request.then(() => socket.write(head)))
}

/** Accepts each connection and never reads from it: what the client writes stays in the socket buffers. */
export const neverReads = (): Promise<HostileServer> =>
  // rawServer reads the first request head to count it; this one is paused before any byte is read
  rawServer((socket) => void socket.pause())

/** 200 (201 to a POST) with `depth` arrays nested: valid JSON, past the depth this client parses. */
export const nestedArrays = (depth: number): Promise<HostileServer> => {
  const body = '['.repeat(depth) + ']'.repeat(depth)
  return httpServer((req, res) => void res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(body))
}
