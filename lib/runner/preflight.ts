/**
 * Before any check: can the host be reached at all? A refused connection, an unknown host, a
 * TLS certificate that is not trusted or a proxy that is down means the run cannot be made
 * (exit 2), which is a different verdict from a server that answers badly (exit 1). Only a TCP
 * (and TLS) handshake is made: no request, so no key is sent and a server that never answers is
 * left to the checks.
 */
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect, type TLSSocket } from 'node:tls'
import type { TransportErrorCode } from '../http/exchange.ts'
import type { TlsMaterial } from '../config/client-tls.ts'
import { isLoopbackHost } from '../config/url-hints.ts'
import { isLoopbackAddress, notLoopbackWords } from '../http/loopback-lookup.ts'
import { hasClientCertificate, originTls } from '../http/origin-tls.ts'
import { certificateRefusal, certificateWordWaitMs } from './client-certificate.ts'
import { askedForCertificate } from '../http/certificate-alert.ts'
import { openTunnel } from './preflight-tunnel.ts'

export interface PreflightFailure {
  message: string
}

/** The proxy setting that applies to a URL: which variable, and its value. */
export interface ProxySetting {
  variable: string
  value: string
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443, 'socks:': 1080, 'socks5:': 1080 }

/** `lower ?? UPPER`, as undici reads them; an empty value means none. */
function envSetting(env: NodeJS.ProcessEnv, name: string): ProxySetting | undefined {
  const lower = name.toLowerCase()
  const variable = env[lower] !== undefined ? lower : name
  const value = env[variable]
  return value ? { variable, value } : undefined
}

/**
 * The proxy for `url` by the rules undici's EnvHttpProxyAgent follows: lower-case names first,
 * HTTPS falls back to HTTP_PROXY, plain http goes direct, NO_PROXY entries may carry a port and a
 * leading `.` or `*.`, and `*` alone turns proxies off. Undefined: a direct connection. The run
 * hands this one to its HTTP client (lib/http/agent.ts reads no environment), so the preflight and
 * the checks take the same path by construction.
 */
export function proxyFor(url: URL, env: NodeJS.ProcessEnv): ProxySetting | undefined {
  // plain http is never proxied: the proxy would read the key in clear (lib/http/client.ts)
  if (url.protocol === 'http:') return undefined
  const http = envSetting(env, 'HTTP_PROXY')
  const proxy = url.protocol === 'https:' ? (envSetting(env, 'HTTPS_PROXY') ?? http) : http
  if (!proxy) return undefined
  const noProxy = env.no_proxy ?? env.NO_PROXY ?? ''
  if (noProxy === '*') return undefined
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase()
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0
  for (const entry of noProxy.split(/[,\s]/)) {
    if (!entry) continue
    const parsed = /^(.+):(\d+)$/.exec(entry)
    const entryHost = (parsed ? parsed[1] : entry).replace(/^\*?\./, '').toLowerCase()
    const entryPort = parsed ? Number.parseInt(parsed[2], 10) : 0
    if (entryPort && entryPort !== port) continue
    if (hostname === entryHost || hostname.endsWith(`.${entryHost}`)) return undefined
  }
  return proxy
}

/** How long the preflight waits for the base URL: --timeout, at most 10 s, never past the run's deadline. */
export function preflightWaitMs(timeoutMs: number, deadlineAt: number): number {
  return Math.max(1, Math.min(timeoutMs, 10_000, deadlineAt - Date.now()))
}

/** OpenSSL's errors for a handshake answered with bytes that are not a TLS record (an HTTP answer, say). */
const PLAIN_HTTP_ANSWER = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_RECORD_LAYER_FAILURE'])

/**
 * What `pending` (a preflight, a lookup) gives, or undefined as soon as `interrupt` fires: a
 * signal does not wait out a silent host's handshake (up to 10 s, preflightWaitMs), past the
 * seconds the process gives itself to write its reports after one (lib/cli/conform.ts).
 */
export function untilInterrupted<T>(pending: Promise<T>, interrupt: AbortSignal | undefined): Promise<T | undefined> {
  if (interrupt === undefined) return pending
  if (interrupt.aborted) return Promise.resolve(undefined)
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(undefined)
    interrupt.addEventListener('abort', onAbort, { once: true })
    const done = () => interrupt.removeEventListener('abort', onAbort)
    pending.then(
      (value) => (done(), resolve(value)),
      (error: unknown) => (done(), reject(error)),
    )
  })
}

/** `tls`: the user's CA and client certificate (--ca-cert, --client-cert), in the handshake as in the run's. */
export async function preflight(baseUrl: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env, tls?: TlsMaterial): Promise<PreflightFailure | undefined> {
  const url = new URL(baseUrl)
  const proxy = proxyFor(url, env)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const port = Number(url.port || DEFAULT_PORTS[url.protocol])
  const where = `${url.hostname}:${port}`
  const hint = 'is the server running there, and is the base URL right?'
  const withCertificate = hasClientCertificate(tls)
  const describe: Describe = (code, errno, message, { connected, asked, secured }) => {
    const refusal = url.protocol === 'https:' ? certificateRefusal(where, errno, withCertificate, asked, connected && !secured) : undefined
    if (refusal) return refusal
    if (code === 'TIMEOUT') {
      return connected
        ? `cannot reach ${where}: the TCP connection opened but no TLS handshake completed within ${timeoutMs} ms`
        : `cannot reach ${where}: no connection within ${timeoutMs} ms; ${hint}`
    }
    if (code === 'DNS_FAILURE') return `cannot reach ${where}: host ${url.hostname} not found; is the base URL right?`
    if (code === 'CONNECTION_REFUSED') return `cannot reach ${where}: connection refused; ${hint}`
    // https:// to a server of plain HTTP (a local service, a port that is not the TLS one): its answer is no TLS record
    if (url.protocol === 'https:' && PLAIN_HTTP_ANSWER.has(errno)) return `cannot reach ${where} over TLS: it answered the handshake with something that is not TLS (${errno}), as a server of plain HTTP does; is the base URL http://${url.host}${url.pathname.replace(/\/+$/, '')}, or is ${port} not its TLS port?`
    // NODE_TLS_REJECT_UNAUTHORIZED=0 turns every check off, so the key would go to whoever answers: followed with --allow-insecure-http only (originMaterial)
    const unchecked = env.NODE_TLS_REJECT_UNAUTHORIZED === '0' ? '; NODE_TLS_REJECT_UNAUTHORIZED=0 is not followed, as the key would go to whoever answers for the host: --allow-insecure-http to send it so anyway' : ''
    // a certificate its CA signed for other names: no --ca-cert makes it do (NODE_EXTRA_CA_CERTS trusted, the name still checked)
    if (code === 'TLS_FAILURE' && errno === 'ERR_TLS_CERT_ALTNAME_INVALID') return `TLS certificate of ${where} does not name ${url.hostname} (${errno}): give the base URL by a host name the certificate names (its subjectAltName), or have it issued for ${url.hostname}${unchecked}`
    if (code === 'TLS_FAILURE') return `TLS certificate of ${where} is not trusted (${errno || message}); add its CA with --ca-cert FILE (or NODE_EXTRA_CA_CERTS=/path/to/ca.pem)${unchecked}`
    return `cannot reach ${where}: ${errno || message}`
  }
  if (proxy) {
    // the proxy reaches the host; through an http:// proxy's tunnel, the origin's TLS handshake is judged as a direct one is (preflight-tunnel.ts)
    // the three steps share the one wait, which the run's deadline bounds (preflightWaitMs)
    const until = Date.now() + timeoutMs
    const left = () => Math.max(1, until - Date.now())
    const reached = await reachProxy(proxy, timeoutMs)
    if (reached || url.protocol !== 'https:' || !/^http:$/.test(new URL(proxy.value).protocol)) return reached
    const proxyUrl = new URL(proxy.value)
    const tunnel = await openTunnel(proxyUrl, host, port, left())
    if (tunnel !== undefined && 'refusedWith' in tunnel) return { message: tunnelRefused(proxyUrl, proxy.variable, where, tunnel.refusedWith) }
    return tunnel ? handshake(tls ?? {}, host, port, left(), describe, undefined, tunnel) : undefined
  }
  // plain http goes to a remote host only with --allow-insecure-http; a loopback name (localhost,
  // *.localhost) is taken for one by its name (lib/config/config.ts), so where it resolves to is
  // looked at too: the key must never go in clear to a host that only calls itself local
  const byName = url.protocol === 'http:' && !isIpLiteral(host) && isLoopbackHost(host) ? host : undefined
  return handshake(url.protocol === 'https:' ? tls ?? {} : undefined, host, port, timeoutMs, describe, byName)
}

/** A proxy that refused the tunnel to the origin: its host and port, never its credentials, and what to change. */
function tunnelRefused(proxy: URL, variable: string, where: string, status: number): string {
  const fix = status !== 407 ? `is ${where} allowed through it?` : proxy.username ? `it refused the credentials ${variable} gives` : `give its credentials in ${variable} (http://user:password@host:port)`
  return `the proxy ${proxy.hostname}:${proxy.port || 80} (${variable}) answered ${status} to CONNECT ${where}, so no request can reach the server: ${fix}; or list the host in NO_PROXY`
}

/** Whether percent-decoding `text` succeeds. */
function decodes(text: string): boolean {
  try {
    decodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

type Describe = (code: TransportErrorCode, errno: string, message: string, state: HandshakeState) => string

/** A TCP handshake with the proxy; its address is named, never its credentials. */
async function reachProxy(proxy: ProxySetting, timeoutMs: number): Promise<PreflightFailure | undefined> {
  let url: URL
  try {
    url = new URL(proxy.value)
  } catch {
    return { message: `${proxy.variable} is not a URL; give one like http://proxy.example:3128, or unset it` }
  }
  const port = Number(url.port || DEFAULT_PORTS[url.protocol])
  if (!port) return { message: `${proxy.variable} must be an http://, https:// or socks5:// URL, got ${url.protocol}//` }
  // its credentials are percent-decoded for Proxy-Authorization (here and by undici): a bad escape threw there; named, never shown
  const undecodable = [['user name', url.username] as const, ['password', url.password] as const].find(([, part]) => !decodes(part))
  if (undecodable) return { message: `${proxy.variable}: the proxy's ${undecodable[0]} has a bad percent escape (a % not followed by two hex digits, or escapes of no UTF-8 text); write a % in it as %25` }
  const where = `the proxy ${url.hostname}:${port} (${proxy.variable})`
  return handshake(undefined, url.hostname.replace(/^\[|\]$/g, ''), port, timeoutMs, (code, errno, message) => {
    const why = code === 'TIMEOUT' ? `no connection within ${timeoutMs} ms` : code === 'CONNECTION_REFUSED' ? 'connection refused' : code === 'DNS_FAILURE' ? 'host not found' : errno || message
    return `cannot reach ${where}: ${why}; fix ${proxy.variable}, or list the host in NO_PROXY`
  })
}

/**
 * Opens a TCP (and TLS) connection and closes it; `describe` turns a failure into one line, from
 * the same classification the HTTP client uses (lib/http/transport-errors.ts).
 */
function handshake(
  tls: TlsMaterial | undefined,
  host: string,
  port: number,
  timeoutMs: number,
  describe: Describe,
  loopbackName?: string,
  /** A tunnel through a proxy, open to the origin: the TLS handshake goes over it. */
  through?: Socket,
): Promise<PreflightFailure | undefined> {
  return new Promise((resolve) => {
    const state: HandshakeState = { connected: false, asked: false, secured: false }
    let expiry: NodeJS.Immediate | undefined
    let waitForWord: NodeJS.Timeout | undefined
    const startedAt = performance.now()
    const done = (failure?: PreflightFailure) => {
      clearTimeout(timer)
      clearTimeout(waitForWord)
      clearImmediate(expiry)
      socket.destroy()
      resolve(failure)
    }
    // The runner loads while this waits (lib/cli/conform.ts), and evaluating its modules can hold
    // the event loop past a short --timeout; the timer then runs before the poll phase reads the
    // connection that opened meanwhile. Deferred to the check phase, after the poll, it only fires
    // on a handshake that really has not happened (undici defers its connect timeout alike).
    const timer = setTimeout(() => {
      expiry = setImmediate(() => done({ message: describe('TIMEOUT', '', '', state) }))
    }, timeoutMs)
    // a server that asked for a client certificate has its word first (lib/runner/client-certificate.ts)
    const secured = (secure: TLSSocket) => {
      state.secured = true
      if (!(state.asked = askedForCertificate(secure))) return done()
      clearTimeout(timer)
      secure.once('session', () => done())
      secure.once('close', (hadError: boolean) => hadError || done({ message: describe('NETWORK_ERROR', '', '', state) }))
      waitForWord = setTimeout(() => done(), certificateWordWaitMs(performance.now() - startedAt, timeoutMs))
    }
    const socket: Socket = tls
      ? tlsConnect({ ...(through ? { socket: through } : { host, port }), servername: isIpLiteral(host) ? undefined : host, ...originTls(tls) }, () => secured(socket as TLSSocket))
      : netConnect({ host, port }, () => done(loopbackName === undefined ? undefined : notLoopback(loopbackName, socket.remoteAddress)))
    if (through) state.connected = true
    else socket.once('connect', () => (state.connected = true))
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // the classifier loads undici: only a failed handshake needs it here, and the run loads it in
      // its worker anyway
      void import('../http/transport-errors.ts').then(({ classifyNetworkError }) => {
        const { code, errno, detail } = classifyNetworkError(error)
        done({ message: describe(code, errno, detail, state) })
      })
    })
  })
}

/** How far a handshake came: TCP's, TLS's, and whether the server asked for a client certificate. */
interface HandshakeState {
  connected: boolean
  secured: boolean
  asked: boolean
}

/** A name taken for loopback that resolved elsewhere: the run stops before the key is sent in clear. */
export function notLoopback(name: string, address: string | undefined): PreflightFailure | undefined {
  if (address === undefined || isLoopbackAddress(address)) return undefined
  return { message: notLoopbackWords(name, address) }
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':')
}
