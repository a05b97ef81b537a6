/**
 * The HTTP client of the suite, on undici: one keep-alive dispatcher per process, a deadline per
 * request, a cap on response size, redirects never followed, and every exchange recorded as
 * evidence with the key redacted.
 */
import { randomUUID } from 'node:crypto'
import { Agent, EnvHttpProxyAgent, errors as undiciErrors, request, type Dispatcher } from 'undici'
import type { Exchange, RecordedRequest, TransportErrorCode } from './exchange.ts'
import { createRedactor, keyOnTheWire, longestForm, type Redactor } from './redact.ts'

export interface ClientOptions {
  /** Base URL, path included (…/v1); request paths are appended to it. */
  baseUrl: string
  apiKey: string
  /** Whole-request deadline: connect, headers and body. */
  timeoutMs: number
  maxResponseBytes: number
  /**
   * Bytes of response bodies one client keeps over the run (the suite keeps every body until the
   * run ends, and sends its requests at once); past it, further bodies fail RESPONSE_TOO_LARGE.
   * Default 4 × maxResponseBytes: two full lists and room for the small answers.
   */
  maxKeptBytes?: number
  /**
   * The run's deadline (--deadline) as epoch milliseconds: no request is sent after it, and one
   * in flight is cut at it. Undefined: only the per-request deadline applies.
   */
  deadlineAt?: number
  /** How much of a body the evidence keeps. */
  evidenceBodyBytes?: number
}

export interface SendOptions {
  method: 'GET' | 'POST'
  /** Appended to the base URL, e.g. `/categories`. */
  path: string
  /** Header values may contain $CONFORM_API_KEY, replaced by the key only on the wire. */
  headers?: Record<string, string>
  /** Bytes only for bodies that are not UTF-8 text (a probe of invalid JSON). */
  body?: string | Uint8Array
}

export interface HttpResult {
  exchange: Exchange
  /** The whole body text; undefined when no complete response arrived. */
  text?: string
}

const USER_AGENT = 'petstore-categories-conformance'

/** What is known of a response when its body fails: the status line came, the body did not. */
interface BodyProgress {
  status: number
  declaredBytes?: number
  receivedBytes: number
}

export class HttpClient {
  readonly redact: Redactor
  private readonly dispatcher: Dispatcher
  private readonly evidenceBodyBytes: number
  private readonly keyFormLength: number
  private readonly maxKeptBytes: number
  /** Body bytes read and kept so far; a failed read gives its bytes back. */
  private keptBytes = 0

  constructor(private readonly options: ClientOptions) {
    this.redact = createRedactor(options.apiKey)
    this.keyFormLength = longestForm(options.apiKey)
    this.evidenceBodyBytes = options.evidenceBodyBytes ?? 4096
    this.maxKeptBytes = options.maxKeptBytes ?? 4 * options.maxResponseBytes
    // EnvHttpProxyAgent honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY, and is a plain keep-alive
    // agent when none is set. TLS certificates are verified by Node's defaults (NODE_EXTRA_CA_CERTS).
    // A plain http:// target never goes through a proxy: the proxy would read the key in clear
    // (undici's proxy agent does not exempt loopback). lib/runner/preflight.ts proxyFor agrees.
    const agentOptions = {
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    }
    this.dispatcher = new URL(options.baseUrl).protocol === 'http:' ? new Agent(agentOptions) : new EnvHttpProxyAgent(agentOptions)
  }

  url(path: string): string {
    return this.options.baseUrl.replace(/\/+$/, '') + path
  }

  async send(options: SendOptions): Promise<HttpResult> {
    const recorded: RecordedRequest = {
      method: options.method,
      url: this.url(options.path),
      headers: { ...(options.headers ?? {}) },
      ...(typeof options.body === 'string' ? { body: this.redact(options.body) } : {}),
      ...(options.body instanceof Uint8Array ? bytesEvidence(options.body) : {}),
    }
    // identity: with no Accept-Encoding any content coding is acceptable (RFC 9110 12.5.3), and
    // the client does not decode compressed bodies
    const wireHeaders: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json', 'accept-encoding': 'identity' }
    for (const [name, value] of Object.entries(recorded.headers)) {
      wireHeaders[name] = keyOnTheWire(value, this.options.apiKey)
    }
    const exchange: Exchange = { id: randomUUID(), startedAt: new Date().toISOString(), durationMs: 0, request: recorded }
    // --deadline bounds the run: once it has passed nothing more is sent, and what is in flight
    // gets only the time left, so a server that never answers cannot hold the run past it
    const left = this.options.deadlineAt === undefined ? Infinity : this.options.deadlineAt - Date.now()
    if (left <= 0) {
      exchange.error = { code: 'DEADLINE', message: "the run's deadline (--deadline) had passed, so this request was not sent" }
      exchange.sent = false
      return { exchange }
    }
    const budgetMs = Math.max(1, Math.min(this.options.timeoutMs, Math.ceil(left)))
    const started = performance.now()
    const abort = AbortSignal.timeout(budgetMs)
    let partial: BodyProgress | undefined
    try {
      const response = await request(recorded.url, {
        method: options.method,
        headers: wireHeaders,
        body: options.body,
        dispatcher: this.dispatcher,
        signal: abort,
        // undici's request() never follows redirects; a 3xx is reported, and the key goes nowhere else
      })
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(response.headers)) {
        if (value !== undefined) headers[name] = this.redact(Array.isArray(value) ? value.join(', ') : value)
      }
      const declared = Number(headers['content-length'])
      partial = { status: response.statusCode, receivedBytes: 0, ...(Number.isSafeInteger(declared) && declared >= 0 ? { declaredBytes: declared } : {}) }
      const bytes = await this.readCapped(response.body, partial)
      const text = new TextDecoder().decode(bytes)
      const { body, truncated } = this.evidence(text)
      exchange.response = { status: response.statusCode, headers, body, bodyBytes: bytes.byteLength, bodyTruncated: truncated }
      return { exchange, text }
    } catch (error) {
      if (partial) this.keptBytes -= partial.receivedBytes
      exchange.error = this.describeError(error, abort.aborted, budgetMs < this.options.timeoutMs, budgetMs, partial)
      return { exchange }
    } finally {
      exchange.durationMs = Math.round(performance.now() - started)
    }
  }

  /**
   * The body as evidence: redacted, cut to the evidence limit. Only the part kept is redacted
   * (a 60 MB body is not copied to cut 4 KB out of it); it is cut a key's length past the limit,
   * redacted, and the last key's length dropped, so that no cut can leave part of the key behind.
   */
  private evidence(text: string): { body: string; truncated: boolean } {
    const limit = this.evidenceBodyBytes
    if (text.length <= limit) return { body: this.redact(text), truncated: false }
    const margin = this.keyFormLength
    const redacted = this.redact(text.slice(0, limit + margin))
    return { body: redacted.slice(0, Math.min(limit, redacted.length - margin)), truncated: true }
  }

  private async readCapped(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }, partial: BodyProgress): Promise<Uint8Array> {
    const limit = this.options.maxResponseBytes
    // an honest Content-Length over the cap fails at once, without reading a byte of it
    if (partial.declaredBytes !== undefined && partial.declaredBytes > limit) {
      body.destroy()
      throw new ResponseTooLargeError(limit, partial.declaredBytes)
    }
    const chunks: Buffer[] = []
    for await (const chunk of body) {
      partial.receivedBytes += chunk.byteLength
      this.keptBytes += chunk.byteLength
      if (partial.receivedBytes > limit) {
        body.destroy()
        throw new ResponseTooLargeError(limit)
      }
      // the cap holds per body; this holds for all of them, which are read at once and kept
      if (this.keptBytes > this.maxKeptBytes) {
        body.destroy()
        throw new ResponseTooLargeError(
          limit,
          undefined,
          `response bodies of this run passed ${this.maxKeptBytes} bytes together (4 × --max-response-bytes); this one was not read past ${partial.receivedBytes} bytes`,
        )
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, partial.receivedBytes)
  }

  private describeError(error: unknown, aborted: boolean, cutByDeadline: boolean, budgetMs: number, partial: BodyProgress | undefined): { code: TransportErrorCode; message: string } {
    if (error instanceof ResponseTooLargeError) return { code: 'RESPONSE_TOO_LARGE', message: error.message }
    if (
      aborted ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError ||
      error instanceof undiciErrors.ConnectTimeoutError
    ) {
      const within = cutByDeadline ? `before the run's deadline (--deadline; ${budgetMs} ms were left)` : `within ${budgetMs} ms`
      if (cutByDeadline) return { code: 'DEADLINE', message: partial ? `the ${partial.status} response's body did not end ${within}` : `no response ${within}` }
      return { code: 'TIMEOUT', message: partial ? `the ${partial.status} response's body did not end ${within}` : `no response ${within}` }
    }
    const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
    const code = err.code ?? err.cause?.code ?? ''
    const detail = this.redact(err.cause?.message ?? err.message ?? String(error))
    if (partial) {
      // the status line and headers came, the body broke off: say how much of it arrived
      const of = partial.declaredBytes !== undefined ? ` of the ${partial.declaredBytes} its Content-Length declared` : ''
      return { code: 'INCOMPLETE_BODY', message: `the ${partial.status} response's body broke off after ${partial.receivedBytes} bytes${of} (${detail})` }
    }
    if (code === 'ECONNREFUSED') return { code: 'CONNECTION_REFUSED', message: `connection refused (${detail})` }
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
      return { code: 'CONNECTION_RESET', message: `connection closed before a complete response (${detail})` }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'DNS_FAILURE', message: `host not found (${detail})` }
    if (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SELF_SIGNED') || code.startsWith('UNABLE_TO'))
      return { code: 'TLS_FAILURE', message: `TLS failure: ${detail}` }
    // undici's parser errors do not always carry an HPE_ code (a reply that is not HTTP at all)
    if (error instanceof undiciErrors.HTTPParserError || code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_INFO')
      return { code: 'PROTOCOL_ERROR', message: `malformed HTTP response (${detail})` }
    return { code: 'NETWORK_ERROR', message: `${code ? code + ': ' : ''}${detail}` }
  }

  async close(): Promise<void> {
    await this.dispatcher.close()
  }
}

/** A body that is not UTF-8: shown with its non-ASCII bytes as \xHH, kept whole for the curl line. */
function bytesEvidence(bytes: Uint8Array): Pick<RecordedRequest, 'body' | 'bodyBase64'> {
  const shown = Array.from(bytes, (b) => (b >= 0x20 && b < 0x7f && b !== 0x5c ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, '0')}`)).join('')
  return { body: shown, bodyBase64: Buffer.from(bytes).toString('base64') }
}

export class ResponseTooLargeError extends Error {
  /** `message` overrides the text for other limits than the one body's. */
  constructor(limit: number, declared?: number, message?: string) {
    const text =
      message ??
      (declared === undefined
        ? `response body larger than ${limit} bytes (the limit set by --max-response-bytes); reading stopped there`
        : `response body of ${declared} bytes (its Content-Length) is larger than ${limit} bytes (the limit set by --max-response-bytes); not read`)
    super(text)
  }
}
