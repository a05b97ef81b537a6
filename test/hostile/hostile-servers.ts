/**
 * Servers that misbehave on purpose, for the self-tests of test/hostile/: each listens on a free
 * loopback port (port 0), records what it received, and is closed by the test that started it.
 * Plain node:http, node:net and node:tls, so that what goes over the wire is exactly what the
 * scenario says, not what a framework would tidy up.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import { connect as netConnect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer as createTlsServer } from 'node:tls'

/** What a hostile server saw of one request. */
export interface SeenRequest {
  method: string
  url: string
  headers: Record<string, string | string[] | undefined>
  body: string
  /** The body's bytes as they came (httpServer), where `body` decodes them as UTF-8. */
  bytes?: Buffer
}

export interface HostileServer {
  /** http://127.0.0.1:<port> */
  origin: string
  /** The origin plus /v1: what --base-url gets. */
  baseUrl: string
  port: number
  /** Requests received (HTTP servers), or CONNECT targets (the proxy). */
  requests: SeenRequest[]
  /** Connections accepted so far. */
  connections(): number
  /** Bytes of response body written so far (endless body). */
  bytesSent(): number
  /** Responses the client closed before they ended (endless body). */
  hungUp(): number
  close(): Promise<void>
}

export interface State {
  requests: SeenRequest[]
  bytes: number
  hungUp: number
}

/** An HTTP server of another file (stalling-servers.ts) listening as these do. */
export const httpListen = (server: Server, state: State) => listen(server, 'http', state)

/** Listens on 127.0.0.1:0, tracks every socket so close() can end them, and never waits for a client. */
async function listen(server: Server, scheme: 'http' | 'https', state: State): Promise<HostileServer> {
  const sockets = new Set<Socket>()
  let accepted = 0
  server.on('connection', (socket: Socket) => {
    accepted++
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    // a client that goes away mid-scenario is normal here; it must not crash the test process
    socket.on('error', () => {})
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const origin = `${scheme}://127.0.0.1:${port}`
  return {
    origin,
    baseUrl: `${origin}/v1`,
    port,
    requests: state.requests,
    connections: () => accepted,
    bytesSent: () => state.bytes,
    hungUp: () => state.hungUp,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      }),
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: SeenRequest, state: State) => void

/** An answer of a JSON body with its status, as the handlers of httpServer write one. */
export const jsonReply = (res: ServerResponse, status: number, body: unknown): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))

/** Passes a request on to `upstream` (its host and port) as it came, and its answer back as it comes: a front, a balancer or a gateway of a test. */
export function forwardTo(upstream: { hostname: string; port: string | number }, req: IncomingMessage, res: ServerResponse): void {
  const forwarded = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers)
    answer.pipe(res)
  })
  forwarded.on('error', () => res.destroy())
  req.pipe(forwarded)
}

/** An HTTP server that reads each request whole, records it, then lets `handler` answer. */
export async function httpServer(handler: Handler): Promise<HostileServer> {
  const state: State = { requests: [], bytes: 0, hungUp: 0 }
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const bytes = Buffer.concat(chunks)
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: bytes.toString('utf8'), bytes }
      state.requests.push(seen)
      handler(req, res, seen, state)
    })
    res.on('error', () => {})
  })
  return listen(server, 'http', state)
}
/** A TCP server that hands each accepted socket to `onSocket`; for answers node:http would refuse to write. */
export async function rawServer(onSocket: (socket: Socket, firstRequest: Promise<string>) => void): Promise<HostileServer> {
  const state: State = { requests: [], bytes: 0, hungUp: 0 }
  const server = createNetServer((socket) => {
    const firstRequest = new Promise<string>((resolve) => {
      let head = ''
      const onData = (chunk: Buffer) => {
        head += chunk.toString('latin1')
        if (!head.includes('\r\n\r\n')) return
        socket.off('data', onData)
        const [line] = head.split('\r\n')
        const [method, url] = line.split(' ')
        // the HTTP/2 preface the run sends to ask whether the port speaks h2c (lib/runner/tls-port.ts) is no request of the run
        if (line !== 'PRI * HTTP/2.0') state.requests.push({ method, url, headers: {}, body: '' })
        resolve(head)
      }
      socket.on('data', onData)
    })
    onSocket(socket, firstRequest)
  })
  return listen(server, 'http', state)
}

/** Accepts the connection, reads the request, and never answers. */
export const neverAnswers = () => rawServer(() => {})
/** Resets every connection (TCP RST) as soon as a request arrives. */
export const resetsConnections = () => rawServer((socket, request) => void request.then(() => socket.resetAndDestroy()))

/** 200 with a chunked application/json body that never ends; writes only as fast as the client reads. */
export const endlessBody = () =>
  httpServer((_req, res, _seen, state) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    const chunk = Buffer.from(`{"id":1,"name":"${'x'.repeat(16_000)}"},`)
    res.write('[')
    const pump = () => {
      while (!res.destroyed && !res.writableEnded) {
        state.bytes += chunk.byteLength
        if (!res.write(chunk)) return void res.once('drain', pump)
      }
    }
    res.on('close', () => {
      res.removeAllListeners('drain')
      if (!res.writableEnded) state.hungUp++
    })
    pump()
  })

/** 200 with a body that trickles in, a byte every 50 ms, and never ends. */
export const dripsBody = () =>
  httpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('[')
    const timer = setInterval(() => res.write(' '), 50)
    res.on('close', () => clearInterval(timer))
  })

/** 200 declared as JSON, with an HTML page for a body (a proxy's or a login page). */
export const htmlInsteadOfJson = () =>
  httpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('<!doctype html><html><head><title>Sign in</title></head><body><h1>Please sign in</h1></body></html>')
  })

/** 503 with an HTML body to every request. */
export const serverErrors = () =>
  httpServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'text/html' })
    res.end('<html><body><h1>503 Service Temporarily Unavailable</h1></body></html>')
  })

/** JSON cut off mid-record, with a Content-Length that matches the cut body. */
export const truncatedJson = () =>
  httpServer((req, res) => {
    const status = req.method === 'POST' ? 201 : 200
    const body = '[{"id": 1, "name": "dog"}, {"id": 2, "na'
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })

/** Content-Length promises more than is sent, then the connection closes. */
export const contentLengthTooLong = () =>
  rawServer((socket, request) =>
    void request.then(() => {
      const body = '[{"id": 1, "name": "dog"}]'
      socket.end(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length + 500}\r\n\r\n${body}`)
    }),
  )

/** Content-Length promises less than is sent: the rest is garbage where the next response should be. */
export const contentLengthTooShort = () =>
  rawServer((socket, request) =>
    void request.then(() => {
      const body = '[{"id": 1, "name": "dog"}, {"id": 2, "name": "cat"}]'
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 10\r\nConnection: keep-alive\r\n\r\n${body}`)
    }),
  )

/** Answers with bytes that are not HTTP at all (an SSH banner, a wrong service on the port). */
export const notHttp = () =>
  rawServer((socket, request) => void request.then(() => socket.end('SSH-2.0-OpenSSH_9.6\r\nProtocol mismatch.\r\n')))

/** 200 (201 to a POST) with 3 MB of arrays nested 1,500,000 deep: valid JSON that JSON.parse takes about a second to read. */
export const nestedDeep = () => {
  const body = '['.repeat(1_500_000) + ']'.repeat(1_500_000)
  return httpServer((req, res) => void res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' }).end(body))
}

/** Answers every request with `status` and a Location on another server. */
export const redirectsTo = (location: string, status = 307) =>
  httpServer((_req, res) => {
    res.writeHead(status, { location, 'content-type': 'application/json' })
    res.end('{}')
  })

/** Records every request and answers 200 []: the target of redirects and of the proxy tests. */
export const recorder = () =>
  httpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('[]')
  })

/**
 * Echoes every request back, in every place the suite prints from: the body (raw, and as the
 * record's name, which create-echoes-fields quotes), a response header, WWW-Authenticate (quoted
 * by an advisory note), a Location (quoted by redirect failures, URL-encoded) and a header with
 * the token in base64, in two halves, in hex, every byte percent-escaped, upper-cased, lower-cased in a header's name, a
 * character at a time (a soft hyphen, a zero-width space, a JSON string each): what a debugging proxy or an error page does with the key.
 */
export const echoesEverything = () =>
  httpServer((req, res, seen) => {
    const authorization = String(seen.headers.authorization ?? '')
    const token = authorization.replace(/^\S+\s+/, '')
    const echo = { method: seen.method, url: seen.url, headers: seen.headers, body: seen.body }
    const headers: Record<string, string> = {
      'content-type': 'application/json', 'x-echo-token-utf16': JSON.stringify(Buffer.from(token, 'utf16le').toString('latin1')).slice(1, -1), 'x-echo-token-utf16-base64': Buffer.from(token, 'utf16le').toString('base64'), // UTF-16 (.NET's Encoding.Unicode) as text in JSON (c\u0000n\u0000…), and its base64
      // header values must be printable ASCII: everything else as a JSON \u escape; the body's
      // first 1,024 characters, so that the head of the longest create (66 KB of € signs, each
      // written \u20ac here) stays under a client's limit
      'x-echo-request': JSON.stringify({ ...echo, body: echo.body.slice(0, 1024) }).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      'x-echo-token-base64': Buffer.from(token).toString('base64'),
      // a debug page's hex dump of the header, and an upper-cased log line
      'x-echo-authorization-hex': Buffer.from(authorization).toString('hex'),
      'x-echo-token-percent': Buffer.from(token).toString('hex').replace(/../g, '%$&'),
      'x-echo-token-upper': token.toUpperCase(),
      // every character a JSON escape, letters and digits too
      'x-echo-token-json-escaped': token.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
      'x-echo-token-part-1': token.slice(0, Math.ceil(token.length / 2)), // cut in two over two headers, and with its case folded (a header name HTTP lower-cases)
      'x-echo-token-part-2': token.slice(Math.ceil(token.length / 2)),
      [`x-echo-${token.toLowerCase().replace(/[^a-z0-9-]/g, '-')}`]: '1',
      'www-authenticate': `Basic realm="${authorization}"`,
      'x-echo-token-soft-hyphens': [...token].join('\u00ad'), // a character at a time (a template that lets a long word wrap anywhere)
      'x-echo-next': `/login?next=${encodeURIComponent(`/v1/categories?token=${encodeURIComponent(token)}`)}`, // a URL inside another's query: escaped twice (%252B)
    }
    let status = req.method === 'POST' ? 201 : 200
    if (seen.url.startsWith('/v1/store/')) {
      status = 302
      headers.location = `/login?token=${encodeURIComponent(token)}`
    } else if (seen.url.startsWith('/v1/pets/')) {
      status = 401
    }
    res.writeHead(status, headers)
    const spread = { characters: [...token], wrapped: [...token].join('\u200b'), message: `invalid token '${Buffer.from(token, 'utf16le').toString('latin1')}'` } // a JSON string each (Go's []string), a zero-width space after each; the key in UTF-16 in an error message (its NULs \u0000 in JSON)
    res.end(JSON.stringify(req.method === 'POST' ? { id: 1, name: authorization, description: token, echo, spread } : [{ id: 1, name: authorization, echo, spread }]))
  })

/** A forward proxy for HTTPS (CONNECT only) that records each tunnel's target and pipes it through. */
export async function connectProxy(): Promise<HostileServer> {
  const state: State = { requests: [], bytes: 0, hungUp: 0 }
  const server = createHttpServer((_req, res) => {
    res.writeHead(405).end()
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    state.requests.push({ method: 'CONNECT', url: req.url ?? '', headers: req.headers, body: '' })
    const [host, port] = (req.url ?? '').split(':')
    const upstream = netConnect({ host, port: Number(port) }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  return listen(server, 'http', state)
}

export interface SelfSignedCert {
  certFile: string
  cert: string
  key: string
  cleanup(): void
}

/** Why the TLS tests cannot run here, or undefined when openssl is available. */
export function opensslMissing(): string | undefined {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' })
    return undefined
  } catch {
    return 'openssl is not installed, so no self-signed certificate can be made'
  }
}

/** A certificate for 127.0.0.1 and localhost (or the subjectAltName `names`), valid for a day, made with openssl in a temp dir. */
export function selfSignedCert(names = 'IP:127.0.0.1,DNS:localhost'): SelfSignedCert {
  const dir = mkdtempSync(join(tmpdir(), 'conform-tls-'))
  const certFile = join(dir, 'cert.pem')
  const keyFile = join(dir, 'key.pem')
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', keyFile, '-out', certFile,
      '-days', '1', '-subj', '/CN=localhost', '-addext', `subjectAltName=${names}`],
    { stdio: 'ignore' },
  )
  return { certFile, cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Terminates TLS with `cert` and pipes each connection to a plain HTTP server on `upstreamPort`. */
export async function tlsFront(cert: SelfSignedCert, upstreamPort: number): Promise<HostileServer> {
  const state: State = { requests: [], bytes: 0, hungUp: 0 }
  const server = createTlsServer({ cert: cert.cert, key: cert.key }, (client) => {
    const upstream = netConnect({ host: '127.0.0.1', port: upstreamPort })
    client.pipe(upstream).pipe(client)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  return listen(server, 'https', state)
}

/** A loopback port that nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}
