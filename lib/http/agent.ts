/**
 * The client's undici dispatcher: one per run, a bounded pool of keep-alive connections to the
 * base URL's origin.
 */
import { Agent, Client, Pool, ProxyAgent, type Dispatcher } from './undici-parts.ts'
import { connectReadingPastInterimAnswers } from './interim-answers.ts'
import { MAX_HEAD_BYTES } from './transport-errors.ts'
import type { Handshakes } from './handshakes.ts'
import { hasClientCertificate, originTls } from './origin-tls.ts'
import { loopbackConnect, type Resolve } from './loopback-lookup.ts'
import type { TlsMaterial } from '../config/client-tls.ts'

/**
 * How long a connection may stay idle before the client closes it, and the most a server's
 * Keep-Alive hint may make it. A server closes an idle connection after its own timeout; a
 * request written to it at that moment meets the close (the keep-alive race) and gets no answer.
 * The client closes first: gunicorn's 2 s is the shortest common default (Node 5 s, uvicorn 5 s,
 * Apache 5 s, nginx 75 s, Go none), and the run's resends wait 1, 2 or 4 s, exactly as long.
 */
const IDLE_CONNECTION_MS = 1_000

/**
 * `proxy`: the one the run chose from its environment (lib/runner/preflight.ts proxyFor); this module reads no environment.
 * `resolve`: the resolver of a plain http:// origin named as loopback (lib/http/loopback-lookup.ts), the system's unless a test gives one.
 */
export function createAgent(options: { baseUrl: string; timeoutMs: number; concurrency: number; maxResponseBytes: number; proxy?: string; tls?: TlsMaterial; handshakes?: Handshakes; resolve?: Resolve }): Dispatcher {
  // The request's abort signal is the one deadline once a request is written; undici's own phase
  // timeouts are off (0), so that the abort's reason always says which deadline ended a request.
  // Before it is written, a request waits for a connection (bounded by the run's deadline) or for
  // one to be made (undici's connect timeout, a TIMEOUT too). undici's response-size limit caps the
  // bytes on the wire (a coded body may be larger than decoded); readCapped caps decoded bytes.
  // The run decides the proxy from the environment it was given (HTTP_PROXY, HTTPS_PROXY, NO_PROXY:
  // preflight.ts proxyFor, which the preflight uses too); a plain http:// target never goes through
  // one, as the proxy would read the key in clear. Every connection to the origin, direct or through
  // a proxy's tunnel, is made by the factory's connector, which reads past interim 1xx answers
  // undici cannot (lib/http/interim-answers.ts). The user's CA and client certificate go into the
  // handshakes with the origin only: directly, or inside the tunnel (requestTls), never the proxy's.
  // With a client certificate, no TLS session is resumed: a gateway built on OpenSSL that verifies
  // client certificates without a session id context (socat 1.7.4's verify=1) refuses every resumed
  // handshake with an internal_error alert, and a conforming service behind it failed 13 rules as
  // "intermittent" (measured); a full handshake per connection costs little, as connections are kept.
  const tls = { ...originTls(options.tls), ...(hasClientCertificate(options.tls) ? { maxCachedSessions: 0 } : {}) }
  const agentOptions = {
    // a plain http:// origin named as loopback: each connection to the loopback addresses it resolves to only
    connect: { timeout: options.timeoutMs, ...tls, ...loopbackConnect(options.baseUrl, options.resolve) },
    connections: options.concurrency,
    headersTimeout: 0,
    bodyTimeout: 0,
    maxHeaderSize: MAX_HEAD_BYTES,
    keepAliveTimeout: IDLE_CONNECTION_MS,
    keepAliveMaxTimeout: IDLE_CONNECTION_MS,
    maxResponseSize: options.maxResponseBytes + Math.ceil(options.maxResponseBytes / 100) + 1024,
    factory: options.handshakes ? timedOriginDispatcher(options.handshakes) : originDispatcher,
  }
  return options.proxy === undefined || new URL(options.baseUrl).protocol === 'http:' ? new Agent(agentOptions) : new ProxyAgent({ ...agentOptions, uri: options.proxy, requestTls: { ...(options.tls ? { timeout: options.timeoutMs } : {}), ...tls } })
}

/**
 * undici's default factory (a Client for one connection, else a Pool), its connector wrapped: the
 * options' `connect` is the agent's (its timeout) or, behind a proxy, the tunnel's.
 */
export function originDispatcher(origin: string | URL, options: object, handshakes?: Handshakes): Dispatcher {
  const connect = connectReadingPastInterimAnswers((options as Pool.Options).connect)
  const withFilter = { ...(options as Pool.Options), connect: handshakes ? handshakes.timing(connect) : connect }
  return withFilter.connections === 1 ? new Client(origin, withFilter) : new Pool(origin, withFilter)
}

/** originDispatcher, each of its handshakes timed (lib/http/handshakes.ts). */
const timedOriginDispatcher = (handshakes: Handshakes) => (origin: string | URL, options: object) => originDispatcher(origin, options, handshakes)
