/**
 * The HTTP client of the suite, on undici: one keep-alive dispatcher per process, a deadline per
 * request, a cap on response size, redirects never followed, and every exchange recorded as
 * evidence with the key redacted.
 */
import { randomUUID } from 'node:crypto'
import { EnvHttpProxyAgent, errors as undiciErrors, request, type Dispatcher } from 'undici'
import type { Exchange, RecordedRequest, TransportErrorCode } from './exchange.ts'
import { createRedactor, KEY_PLACEHOLDER, type Redactor } from './redact.ts'

export interface ClientOptions {
  /** Base URL, path included (…/v1); request paths are appended to it. */
  baseUrl: string
  apiKey: string
  /** Whole-request deadline: connect, headers and body. */
  timeoutMs: number
  maxResponseBytes: number
  /** How much of a body the evidence keeps. */
  evidenceBodyBytes?: number
}

export interface SendOptions {
  method: 'GET' | 'POST'
  /** Appended to the base URL, e.g. `/categories`. */
  path: string
  /** Header values may contain $CONFORM_API_KEY, replaced by the key only on the wire. */
  headers?: Record<string, string>
  body?: string
}

export interface HttpResult {
  exchange: Exchange
  /** The whole body text; undefined when no complete response arrived. */
  text?: string
}

const USER_AGENT = 'petstore-categories-conformance'

export class HttpClient {
  readonly redact: Redactor
  private readonly dispatcher: Dispatcher
  private readonly evidenceBodyBytes: number

  constructor(private readonly options: ClientOptions) {
    this.redact = createRedactor(options.apiKey)
    this.evidenceBodyBytes = options.evidenceBodyBytes ?? 4096
    // EnvHttpProxyAgent honours HTTP_PROXY, HTTPS_PROXY and NO_PROXY, and is a plain keep-alive
    // agent when none is set. TLS certificates are verified by Node's defaults (NODE_EXTRA_CA_CERTS).
    this.dispatcher = new EnvHttpProxyAgent({
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 4_000,
    })
  }

  url(path: string): string {
    return this.options.baseUrl.replace(/\/+$/, '') + path
  }

  async send(options: SendOptions): Promise<HttpResult> {
    const recorded: RecordedRequest = {
      method: options.method,
      url: this.url(options.path),
      headers: { ...(options.headers ?? {}) },
      ...(options.body !== undefined ? { body: this.redact(options.body) } : {}),
    }
    const wireHeaders: Record<string, string> = { 'user-agent': USER_AGENT, accept: 'application/json' }
    for (const [name, value] of Object.entries(recorded.headers)) {
      wireHeaders[name] = value.replaceAll(KEY_PLACEHOLDER, this.options.apiKey)
    }
    const exchange: Exchange = { id: randomUUID(), startedAt: new Date().toISOString(), durationMs: 0, request: recorded }
    const started = performance.now()
    const abort = AbortSignal.timeout(this.options.timeoutMs)
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
      const bytes = await this.readCapped(response.body)
      const text = new TextDecoder().decode(bytes)
      const redacted = this.redact(text)
      exchange.response = {
        status: response.statusCode,
        headers,
        body: redacted.length > this.evidenceBodyBytes ? redacted.slice(0, this.evidenceBodyBytes) : redacted,
        bodyBytes: bytes.byteLength,
        bodyTruncated: redacted.length > this.evidenceBodyBytes,
      }
      return { exchange, text }
    } catch (error) {
      exchange.error = this.describeError(error, abort.aborted)
      return { exchange }
    } finally {
      exchange.durationMs = Math.round(performance.now() - started)
    }
  }

  private async readCapped(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }): Promise<Uint8Array> {
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of body) {
      size += chunk.byteLength
      if (size > this.options.maxResponseBytes) {
        body.destroy()
        throw new ResponseTooLargeError(this.options.maxResponseBytes)
      }
      chunks.push(chunk)
    }
    return Buffer.concat(chunks, size)
  }

  private describeError(error: unknown, timedOut: boolean): { code: TransportErrorCode; message: string } {
    const limit = this.options.timeoutMs
    if (error instanceof ResponseTooLargeError) return { code: 'RESPONSE_TOO_LARGE', message: error.message }
    if (
      timedOut ||
      error instanceof undiciErrors.HeadersTimeoutError ||
      error instanceof undiciErrors.BodyTimeoutError ||
      error instanceof undiciErrors.ConnectTimeoutError
    ) {
      return { code: 'TIMEOUT', message: `no response within ${limit} ms` }
    }
    const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
    const code = err.code ?? err.cause?.code ?? ''
    const detail = this.redact(err.cause?.message ?? err.message ?? String(error))
    if (code === 'ECONNREFUSED') return { code: 'CONNECTION_REFUSED', message: `connection refused (${detail})` }
    if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE')
      return { code: 'CONNECTION_RESET', message: `connection closed before a complete response (${detail})` }
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return { code: 'DNS_FAILURE', message: `host not found (${detail})` }
    if (code.startsWith('ERR_TLS') || code.startsWith('CERT_') || code.includes('SELF_SIGNED') || code.startsWith('UNABLE_TO'))
      return { code: 'TLS_FAILURE', message: `TLS failure: ${detail}` }
    if (code.startsWith('HPE_') || code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || code === 'UND_ERR_INFO')
      return { code: 'PROTOCOL_ERROR', message: `malformed HTTP response (${detail})` }
    return { code: 'NETWORK_ERROR', message: `${code ? code + ': ' : ''}${detail}` }
  }

  async close(): Promise<void> {
    await this.dispatcher.close()
  }
}

export class ResponseTooLargeError extends Error {
  constructor(limit: number) {
    super(`response body larger than ${limit} bytes (the limit set by --max-response-bytes)`)
  }
}
