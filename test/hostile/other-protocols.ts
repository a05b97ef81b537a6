/**
 * Ports where something other than an HTTP/1.1 server listens, each counting the HTTP requests
 * that reached it (request lines read off the bytes, however they came) and the POSTs among them:
 * what a run sends to another service's port before it stops (lib/runner/tls-port.ts).
 */
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Socket } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import type { SelfSignedCert } from './hostile-servers.ts'

export interface CountingPort {
  baseUrl: string
  /** HTTP requests that reached the port, and the POSTs among them. */
  requests(): number
  posts(): number
  close(): Promise<void>
}

/** What the port does with a connection: `seen` counts the request lines of each chunk that came. */
type Speaker = (socket: Socket, seen: (chunk: Buffer) => void) => void

const REQUEST_LINE = /(?:^|\r\n)(GET|POST|PUT|HEAD|OPTIONS|DELETE) \/\S* HTTP\/1\.1\r\n/g

async function countingPort(speak: Speaker): Promise<CountingPort> {
  let requests = 0
  let posts = 0
  const sockets = new Set<Socket>()
  const seen = (chunk: Buffer) => {
    for (const [, method] of chunk.toString('latin1').matchAll(REQUEST_LINE)) {
      requests++
      if (method === 'POST') posts++
    }
  }
  const server = createNetServer((socket) => {
    sockets.add(socket.on('close', () => sockets.delete(socket)).on('error', () => {}))
    speak(socket, seen)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    posts: () => posts,
    close: () => new Promise<void>((resolve) => (sockets.forEach((s) => s.destroy()), server.close(() => resolve()))),
  }
}

/** Redis: `-ERR unknown command` to whatever came, the connection kept. */
export const redisPort = () => countingPort((socket, seen) => socket.on('data', (chunk: Buffer) => (seen(chunk), socket.write('-ERR unknown command\r\n'))))

/** OpenSSH: its banner as the connection opens, then "Protocol mismatch." and closed. */
export const sshPort = () =>
  countingPort((socket, seen) => {
    socket.write('SSH-2.0-OpenSSH_9.6\r\n')
    socket.on('data', (chunk: Buffer) => (seen(chunk), socket.end('Protocol mismatch.\r\n')))
  })

/** A TLS server that answers bytes which are no ClientHello with a TLS alert record (0x15 0x03 …: protocol_version), then closes. */
export const tlsAlertPort = () => countingPort((socket, seen) => socket.on('data', (chunk: Buffer) => (seen(chunk), socket.end(Buffer.from([0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x46])))))

/**
 * A port of TLS, as Node's tls.createServer() is one: a connection whose first bytes are no
 * ClientHello is closed without a byte of answer, a ClientHello gets a handshake (the run's own,
 * which asks whether the port speaks TLS).
 */
export async function tlsPort(cert: SelfSignedCert): Promise<CountingPort> {
  const tls = createTlsServer({ cert: cert.cert, key: cert.key }, (client) => client.end())
  tls.on('tlsClientError', () => {})
  return countingPort((socket, seen) =>
    socket.once('data', (chunk: Buffer) => {
      if (chunk[0] !== 0x16) return void (seen(chunk), socket.destroy())
      socket.pause()
      socket.unshift(chunk)
      tls.emit('connection', socket)
    }),
  )
}

/** An HTTP server whose every answer is framed wrong (Content-Length beside Transfer-Encoding): it speaks HTTP, at the right port. */
export const framedWrongPort = () =>
  countingPort((socket, seen) =>
    socket.on('data', (chunk: Buffer) => {
      seen(chunk)
      // one answer per request line that came (a body with no request line of its own answers nothing)
      for (const _ of chunk.toString('latin1').matchAll(REQUEST_LINE)) socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n')
    }),
  )

/** An HTTP server whose first three requests get Redis's `-ERR` (bytes with no status line), every later one 200 `[]` (201 to a POST) after 30 ms. */
export const garblesFirstPort = () => {
  let answered = 0
  return countingPort((socket, seen) =>
    socket.on('data', (chunk: Buffer) => {
      seen(chunk)
      for (const [, method] of chunk.toString('latin1').matchAll(REQUEST_LINE)) {
        if (++answered <= 3) socket.write('-ERR unknown command\r\n')
        else setTimeout(() => socket.write(method === 'POST' ? 'HTTP/1.1 201 Created\r\nContent-Type: application/json\r\nContent-Length: 19\r\n\r\n{"id":1,"name":"a"}' : 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]'), 30)
      }
    }),
  )
}

/** A port that accepts every connection and closes it at once, with no byte (a forwarder with nothing behind it: docker-proxy while the container starts). */
export const closesAtOncePort = () => countingPort((socket) => void socket.destroy())

/**
 * A port that reads each connection's first request and closes it with no byte of an answer (a load
 * balancer with no healthy backend). `alone`: called on a request with no traceparent, a GET alone.
 */
export const closesUnansweredPort = (alone?: () => void) =>
  countingPort((socket, seen) => socket.once('data', (chunk: Buffer) => (seen(chunk), /\r\ntraceparent:/i.test(chunk.toString('latin1')) || alone?.(), socket.destroy())))

/**
 * A port that takes TLS and plain HTTP both (Jetty's detect mode, a front that sniffs the first
 * byte): a ClientHello gets a handshake, plain bytes an HTTP answer, 200 `[]` after `answerMs`.
 */
export async function tlsAndPlainPort(cert: SelfSignedCert, answerMs = 0): Promise<CountingPort> {
  const tls = createTlsServer({ cert: cert.cert, key: cert.key }, (client) => client.end())
  tls.on('tlsClientError', () => {})
  return countingPort((socket, seen) =>
    socket.once('data', (first: Buffer) => {
      if (first[0] === 0x16) return void (socket.pause(), socket.unshift(first), tls.emit('connection', socket))
      const answer = (chunk: Buffer) => {
        seen(chunk)
        for (const _ of chunk.toString('latin1').matchAll(REQUEST_LINE)) setTimeout(() => socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]'), answerMs)
      }
      answer(first)
      socket.on('data', answer)
    }),
  )
}

/** A forwarder whose service starts `startMs` after the port opened: every connection before is closed with no byte, every request after answered 200 `[]`. */
export function startsLatePort(startMs: number): Promise<CountingPort> {
  const opened = Date.now()
  return countingPort((socket, seen) =>
    socket.on('data', (chunk: Buffer) => {
      seen(chunk)
      if (Date.now() - opened < startMs) return void socket.destroy()
      for (const _ of chunk.toString('latin1').matchAll(REQUEST_LINE)) socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n[]')
    }),
  )
}

/** A forwarder (docker-proxy) to `upstream`, whose service dies after `connections` connections: from then on every connection, open or new, is closed with no byte. */
export function diesBehindForwarder(upstream: number, connections: number): Promise<CountingPort> {
  let taken = 0
  const open = new Set<Socket>()
  return countingPort((socket, seen) => {
    if (++taken > connections) return void (open.forEach((s) => s.destroy()), socket.on('data', (chunk: Buffer) => (seen(chunk), socket.destroy())))
    const service = netConnect(upstream, '127.0.0.1')
    open.add(service.on('error', () => socket.destroy()).on('close', () => (open.delete(service), socket.destroy())))
    socket.on('data', (chunk: Buffer) => (seen(chunk), service.write(chunk)))
    service.pipe(socket)
    socket.on('close', () => service.destroy())
  })
}
