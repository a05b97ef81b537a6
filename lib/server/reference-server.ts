/**
 * The reference implementation of the interface: node:http, an in-memory store, requests validated
 * with the same schemas the suite checks responses against. It conforms to every rule; the
 * `behaviour` seams let self-tests make it misbehave one rule at a time, or use a freedom the
 * document leaves (see lib/server/mutations.ts and lib/server/variants.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { connectionCloser } from './connection-closer.ts'
import { oneConnectionAtATime } from './one-connection-server.ts'
import { send, serialise, type Reply, type Transport } from './reply-writer.ts'
import { patchWire } from './wire-patches.ts'
import { schemaProblems } from '../spec/schema-registry.ts'

export type OperationId = 'listCategories' | 'createCategory' | 'getPet' | 'listStoreOrders'

export interface StoredCategory {
  id: bigint
  name: string
  description?: string
}


export interface RequestInfo {
  operation: OperationId | undefined
  method: string
  path: string
  /** The query string as sent ('?…'), or '' when none. */
  query: string
  authorization: string | undefined
  /** Media type of the request body as sent (Content-Type header), if any. */
  contentType: string | undefined
  /** The Transfer-Encoding header as sent (chunked for a body in pieces), if any. */
  transferEncoding?: string
  /** The Accept header as sent, if any. */
  accept?: string
  /** The Accept-Encoding header as sent, if any. */
  acceptEncoding?: string
  /** The socket the request came on: a key for what a server keeps per connection. */
  connection?: object
  /** The User-Agent header as sent, if any. */
  userAgent?: string
  /** The Cookie header as sent, if any. */
  cookie?: string
  /** The X-Forwarded-For header as sent, if any. */
  forwardedFor?: string
  /** The X-Real-IP header as sent, if any (nginx's proxy_set_header X-Real-IP). */
  realIp?: string
  /** The Host header as sent, if any (a redirect a framework writes as an absolute URL). */
  host?: string
  /** The raw create body as received, decoded leniently ('' when none was sent). */
  rawBody?: string
  /** The parsed create body when there is one. */
  body?: unknown
}

/** The seams a mutation or a variant overrides; each default is the conforming behaviour. */
export interface Behaviour {
  /** True when the Authorization header carries the key as a bearer token. */
  authorize(authorization: string | undefined, key: string, operation: OperationId | undefined, cookie?: string): boolean
  /** The create body's bytes as text; throws when they are not UTF-8 (RFC 8259 §8.1; answered 400). */
  /** The body's text from its bytes; `pieces`: the reads they came in (a body sent in pieces, lib/http/body-pieces.ts). */
  decodeBody(bytes: Buffer, pieces: readonly Buffer[]): string
  /** The create body is what the first read of it returned, and its answer goes at once, the rest unread (a server on a bare socket that reads once and answers). */
  bodyReadOnce?: true
  /** The create body parsed; throws when it is not JSON (answered 400). */
  parseBody(text: string): unknown
  /** Problems with a create body (parsed JSON), or null when it is a valid NewCategory. */
  validate(body: unknown): string | null
  /** The id of the next record. */
  nextId(store: StoredCategory[]): bigint
  /** What is stored for a valid body. */
  toRecord(body: { name: string; description?: string }, id: bigint): StoredCategory
  /** The list as it is answered. */
  listBody(store: StoredCategory[]): unknown
  /** The created record as it is answered. */
  createdBody(record: StoredCategory): unknown
  /**
   * How the router reads a request's path below the base path, as sent (dot segments and escapes
   * unresolved, the query string kept), and whether the key check sees the request: the default routes the path resolved
   * as a URL and always checks the key. A mutation makes the router more lenient than the guard.
   */
  routePath?(raw: string): { path: string; guarded: boolean }
  /**
   * The Authorization header as the service reads it from the request's headers (name, value, name,
   * value … as sent): by default Node's, whatever the case of its name. `connection`: the socket the
   * request came on, a key for what a server keeps per connection.
   */
  authorizationOf?(rawHeaders: readonly string[], connection: object): string | undefined
  /** The Error record for a status. */
  errorBody(status: number, code: string, message: string): unknown
  /**
   * Last word on every reply: a mutation can change status, headers or body here, and the store
   * (a variant that refuses a create takes the record back). A header whose value is '' is left
   * out (so `'content-type': ''` sends no Content-Type).
   */
  finish(reply: Reply, request: RequestInfo, store: StoredCategory[]): Reply
  /** How a reply goes on the wire. */
  transport: Transport
}

export const conformingBehaviour: Behaviour = {
  authorize(authorization, key) {
    const match = /^Bearer (\S+)$/.exec(authorization ?? '')
    if (!match) return false
    const given = Buffer.from(match[1])
    const expected = Buffer.from(key)
    return given.length === expected.length && timingSafeEqual(given, expected)
  },
  // fatal: bytes that are not UTF-8 make the body invalid JSON; ignoreBOM keeps a BOM for JSON.parse to refuse
  decodeBody: (bytes) => new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes),
  parseBody: (text) => JSON.parse(text) as unknown,
  validate(body) {
    const problems = schemaProblems('NewCategory', body)
    return problems === null ? null : problems.join('; ')
  },
  nextId(store) {
    return store.length === 0 ? 1n : store[store.length - 1].id + 1n
  },
  toRecord(body, id) {
    return { id, name: body.name, ...(body.description !== undefined ? { description: body.description } : {}) }
  },
  listBody: (store) => store,
  createdBody: (record) => record,
  errorBody: (status, code, message) => ({ code, message, status }),
  finish: (reply) => reply,
  transport: { delayMs: 0, chunked: false, connectionClose: false },
}

export interface ReferenceServerOptions {
  /** The key it accepts; default: a random one (RunningServer.apiKey says which). */
  apiKey?: string
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0: a free port. */
  port?: number
  /** Default /v1, as §9.2 says. */
  basePath?: string
  behaviour?: Partial<Behaviour>
  /** Records present before the run. */
  seed?: StoredCategory[]
  /** Largest request body accepted, in bytes. */
  maxRequestBytes?: number
}

export interface RunningServer {
  /** Base URL including the base path, e.g. http://127.0.0.1:40123/v1. */
  baseUrl: string
  apiKey: string
  store: StoredCategory[]
  /** Requests received, by method and path, for tests that count them. */
  requests: { method: string; path: string }[]
  close(): Promise<void>
}

export async function startReferenceServer(options: ReferenceServerOptions = {}): Promise<RunningServer> {
  const apiKey = options.apiKey ?? randomBytes(24).toString('base64url')
  const behaviour: Behaviour = { ...conformingBehaviour, ...options.behaviour }
  behaviour.transport = { ...conformingBehaviour.transport, ...options.behaviour?.transport }
  const basePath = options.basePath ?? '/v1'
  const store: StoredCategory[] = [...(options.seed ?? [])]
  const requests: { method: string; path: string }[] = []
  const maxRequestBytes = options.maxRequestBytes ?? 1024 * 1024

  const error = (status: number, code: string, message: string): Reply => ({
    status,
    headers: status === 401 ? { 'www-authenticate': 'Bearer realm="petstore"' } : {},
    body: behaviour.errorBody(status, code, message),
  })

  async function handle(req: IncomingMessage): Promise<{ reply: Reply; info: RequestInfo }> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    const authorization = behaviour.authorizationOf ? behaviour.authorizationOf(req.rawHeaders, req.socket) : req.headers.authorization
    const info: RequestInfo = {
      operation: undefined,
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      authorization,
      contentType: req.headers['content-type'],
      ...(req.headers['transfer-encoding'] !== undefined ? { transferEncoding: req.headers['transfer-encoding'] } : {}),
      accept: req.headers.accept,
      acceptEncoding: req.headers['accept-encoding'],
      connection: req.socket,
      userAgent: req.headers['user-agent'],
      cookie: req.headers.cookie,
      forwardedFor: typeof req.headers['x-forwarded-for'] === 'string' ? req.headers['x-forwarded-for'] : undefined,
      realIp: typeof req.headers['x-real-ip'] === 'string' ? req.headers['x-real-ip'] : undefined,
      host: req.headers.host,
    }
    if (!url.pathname.startsWith(basePath + '/')) return { info, reply: error(404, 'not_found', `no resource at ${url.pathname}`) }
    // the request target as sent, its query string included: a lenient router may drop it
    const raw = (req.url ?? '/').replace(/#.*$/, '')
    const routed = behaviour.routePath && raw.startsWith(basePath + '/') ? behaviour.routePath(raw.slice(basePath.length)) : { path: url.pathname.slice(basePath.length), guarded: true }
    const path = routed.path
    const route = routeOf(info.method, path)
    if (route === 'method-not-allowed') return { info, reply: error(405, 'method_not_allowed', `${info.method} is not allowed on ${path}`) }
    if (route === undefined) return { info, reply: error(404, 'not_found', `no resource at ${path}`) }
    info.operation = route
    if (routed.guarded && !behaviour.authorize(authorization, apiKey, route, req.headers.cookie)) {
      return { info, reply: error(401, 'unauthorized', 'The API key is missing or invalid.') }
    }
    switch (route) {
      case 'listCategories':
        return { info, reply: { status: 200, headers: {}, body: behaviour.listBody(store) } }
      case 'listStoreOrders':
        return { info, reply: { status: 200, headers: {}, body: [] } }
      case 'getPet':
        // §9.4: deprecated with a sunset date whose value is not shown; these dates are the
        // reference server's own, not the service's.
        return {
          info,
          reply: {
            ...error(404, 'not_found', `pet ${path.split('/').pop()} not found`),
            headers: { deprecation: '@1735689600', sunset: 'Thu, 31 Dec 2099 23:59:59 GMT' },
          },
        }
      case 'createCategory': {
        const pieces = await readBody(req, maxRequestBytes, behaviour.bodyReadOnce === true)
        if (pieces === undefined) return { info, reply: error(413, 'payload_too_large', `request body over ${maxRequestBytes} bytes`) }
        const bytes = Buffer.concat(pieces)
        info.rawBody = bytes.toString('utf8')
        let body: unknown
        try {
          body = behaviour.parseBody(behaviour.decodeBody(bytes, pieces))
        } catch {
          return { info, reply: error(400, 'invalid_json', bytes.byteLength === 0 ? 'The request body is missing.' : 'The request body is not valid JSON.') }
        }
        info.body = body
        const problem = behaviour.validate(body)
        if (problem !== null) return { info, reply: error(400, 'invalid_request', problem) }
        const record = behaviour.toRecord(body as { name: string; description?: string }, behaviour.nextId(store))
        store.push(record)
        return { info, reply: { status: 201, headers: {}, body: behaviour.createdBody(record) } }
      }
    }
  }

  let worker: Promise<void> = Promise.resolve()
  const closes = connectionCloser(behaviour.transport)
  const server: Server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', path: req.url ?? '' })
    closes?.(req, res)
    patchWire(res, behaviour.transport)
    const answer = () =>
      untilClosedIfChunked(req, behaviour.transport.chunkedReadToClose)
        .then(() => handle(req))
        .then(({ reply, info }) => send(res, behaviour.finish(reply, info, store), behaviour.transport, req.headers['accept-encoding']))
        .catch((err: unknown) => send(res, error(500, 'internal', String(err)), behaviour.transport, req.headers['accept-encoding']))
    const turn = behaviour.transport.oneAtATimeMs
    if (turn === undefined) return void answer()
    worker = worker.then(() => new Promise<void>((resolve) => setTimeout(resolve, turn))).then(answer)
  })
  // a server that closes on its own says nothing of it: no Keep-Alive header (Node writes one while
  // its timeout is set); one that serves a connection at a time keeps it as long as the client does
  server.keepAliveTimeout = closes || behaviour.transport.oneConnectionAtATime ? 0 : 5_000
  if (behaviour.transport.maxConnections !== undefined) server.maxConnections = behaviour.transport.maxConnections
  const serial = behaviour.transport.oneConnectionAtATime ? oneConnectionAtATime(server) : undefined
  const listening = serial?.front ?? server
  // a port in use (EADDRINUSE) or a host not this machine's rejects the start: emitted on the server, it ended the process with Node's stack trace (npm run serve twice)
  await new Promise<void>((resolve, reject) => {
    listening.once('error', reject)
    listening.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      listening.off('error', reject)
      resolve()
    })
  })
  const address = listening.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    baseUrl: `http://${host}:${address.port}${basePath}`,
    apiKey,
    store,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        serial?.destroyWaiting()
        if (serial) serial.front.close()
        server.close(() => resolve())
      }),
  }
}

/** Resolves once the client closes the connection, for a chunked request when `readToClose` (Transport.chunkedReadToClose); at once otherwise. */
function untilClosedIfChunked(req: IncomingMessage, readToClose: boolean | undefined): Promise<void> {
  if (!readToClose || !/chunked/i.test(req.headers['transfer-encoding'] ?? '') || req.socket.destroyed) return Promise.resolve()
  return new Promise((resolve) => req.socket.once('close', () => resolve()))
}

function routeOf(method: string, path: string): OperationId | 'method-not-allowed' | undefined {
  const route = path.replace(/\/+$/, '')
  if (route === '/categories') return method === 'GET' ? 'listCategories' : method === 'POST' ? 'createCategory' : 'method-not-allowed'
  if (/^\/pets\/[^/]+$/.test(route)) return method === 'GET' ? 'getPet' : 'method-not-allowed'
  if (route === '/store/orders') return method === 'GET' ? 'listStoreOrders' : 'method-not-allowed'
  return undefined
}

/**
 * The body's reads as they came (data events, as a service that reads `body += chunk` sees them:
 * an async iterator would join the reads it finds waiting); undefined past `limit` bytes.
 */
function readBody(req: IncomingMessage, limit: number, once: boolean): Promise<Buffer[] | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength
      if (size <= limit) chunks.push(chunk)
      if (once) resolve(chunks)
    })
    req.on('end', () => resolve(size > limit ? undefined : chunks))
    req.on('error', reject)
    // a client that went away while its request waited its turn (oneAtATimeMs) left a stream that
    // says nothing more: without this the worker waited on it for ever, and answered no one after it
    req.on('close', () => req.readableEnded || reject(new Error('the client closed the connection before its body was read')))
    if (req.destroyed) reject(new Error('the client closed the connection before its body was read'))
  })
}

export { serialise, type Reply, type Transport }
