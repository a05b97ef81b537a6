/**
 * The HTTP client of the suite, on undici: a run's pools of keep-alive connections, bounded and
 * made fewer for a server that refuses more (lib/http/connection-pools.ts), one abort source per request (its --timeout, lib/http/answer-clock.ts,
 * and the run's --deadline, told apart by the abort's reason), a cap on the decoded size of every
 * body, redirects never followed, 429 and 503 waited out and sent again, every exchange recorded
 * as evidence with the key redacted, and every request (sent or refused) written to the run's
 * journal (lib/http/journal.ts).
 */
import { randomUUID } from 'node:crypto'
import { unlimitedListeners } from './listener-limit.ts'
import type { Readable } from 'node:stream'
import { setTimeout as sleep } from 'node:timers/promises'
import { ConnectionPools } from './connection-pools.ts'
import { AnswerClock } from './answer-clock.ts'
import { codingWords, contentCodings, decodeUtf8, transferCodings } from './body-reader.ts'
import { cookieHeaderOf, evidenceHeaders } from './cookies.ts'
import { readCapped, type KeptBytes } from './capped-read.ts'
import { bytesEvidence, type Exchange, type RecordedRequest } from './exchange.ts'
import { chunksOnlyToHttp11, piecesOf } from './body-pieces.ts'
import { closesItsConnection, takeHttp10, takeInterimAnswers } from './interim-answers.ts'
import type { RefusalReason } from './journal.ts'
import { journalStages, UNHEARD, type FewerConnections, type RequestStages, type RequestTag } from './request-stages.ts'
import { Pacer } from './pacer.ts'
import type { Release } from './request-slots.ts'
import type { Written } from './one-connection-at-a-time.ts'
import { stallingOperation, StalledOperations } from './stalled-operations.ts'
import { RateHold } from './rate-hold.ts'
import { challengeOf } from './challenge.ts'
import { heldUntil, whyNotSent } from './refusals.ts'
import { newSpanId, newTraceId } from './trace-context.ts'
import { requestHeaders } from './request-headers.ts'
import { secretValues } from '../config/extra-headers.ts'
import type { WriteWatch } from './write-watch.ts'
import { createRedactor, longestForm, redactedCut, type Redactor } from './redact.ts'
import { OutlastedAnswers, POST_RESENDS_PER_WRITE, retryWaitMs, SERVED_LOOKBACK_MS, serverNow } from './retry-after.ts'
import { connectionNotTaken, describeTransportError, NOT_TAKEN_RESENDS, RunDeadlineReached, type BodyProgress } from './transport-errors.ts'
import { afterTheRace, idleNoticeAsLost, lostInTransit, LOST_ANSWER_RESENDS, type RaceMarks } from './lost-answer.ts'
import { oneShowedStored, storedDespiteUnavailable, worthLooking } from './stored-despite-unavailable.ts'
import { firstOnItsConnection, watchFirstRequests, writtenAfterOnItsConnection } from './first-requests.ts'
import { AloneTries, clearTheWire, unansweredAlone, type AloneTry } from './unanswered-alone.ts'
import { RefusedConnections } from './refused-connections.ts'
import { strayAnswersAfter } from './stray-answers.ts'
import { SameBodies } from './same-bodies.ts'
import type { PostResends, ClientOptions, HttpResult, SendOptions } from './client-options.ts'
export type { ClientOptions, HttpResult, SendOptions }

export class HttpClient {
  readonly redact: Redactor
  private readonly pools: ConnectionPools
  private readonly evidenceBodyBytes: number
  private readonly keyFormLength: number
  private readonly stages: RequestStages // who hears each stage of a request: the run's journal (lib/http/request-stages.ts)
  private readonly closed = new AbortController() // aborted, with a RunDeadlineReached reason, when the client is closed or abandoned
  private readonly runEnd: AbortSignal // the end of every request: the run's end (its clock's signal), or this client's
  private readonly kept: KeptBytes // body bytes read and kept so far (a failed read gives its bytes back), and the most kept
  private readonly pacer: Pacer
  readonly stalls: StalledOperations // operations that let a request go unanswered past --timeout, released for the confirmation
  private readonly rateHold: RateHold // what a 429 holds back (lib/http/rate-hold.ts)
  private readonly resent: PostResends // POSTs sent again, counted over the run's clients (the run's suites each have one) when it shares its count
  private readonly outlastedAnswers = new OutlastedAnswers()
  private readonly sameBodies = new SameBodies() // a large body read again unchanged, kept once (lib/http/same-bodies.ts)
  /** What the keep-alive race took on reused connections that the server had not stored (lost-answer.ts). */
  readonly raceMarks: RaceMarks = { lostUnstored: 0 }
  private readonly answers: AnswerClock
  private readonly refusals = new RefusedConnections((at) => this.answers.answeredSince(at), () => this.options.timeoutMs) // a server restarting (refused-connections.ts)
  private readonly traceId: string
  /** The base URL's origin and path (no trailing slash): request paths are appended as written. */
  private readonly origin: string
  private readonly basePath: string

  constructor(private readonly options: ClientOptions) {
    watchFirstRequests()
    const secrets = [options.apiKey, ...secretValues(options.extraHeaders ?? []), ...(options.otherSecrets ?? [])] // a body cut past its limit by each one's longest form: a header's too
    ;[this.redact, this.keyFormLength] = [createRedactor(...secrets), longestForm(...secrets)]
    this.resent = options.postResends ?? { afterWait: 0, afterLostAnswer: 0 }
    this.evidenceBodyBytes = options.evidenceBodyBytes ?? 4096
    this.kept = { bytes: 0, max: options.maxKeptBytes ?? 4 * options.maxResponseBytes }
    this.stages = options.journal ? journalStages(options.journal, { url: (url) => this.redact(url), redact: this.redact, everyHeader: options.journalEveryHeader === true }) : UNHEARD
    this.runEnd = options.run ? AbortSignal.any([this.closed.signal, options.run.signal]) : this.closed.signal
    // each request in flight listens to the run's end (--concurrency of them, and those waiting their turn), and to a port found wrong
    unlimitedListeners(this.runEnd)
    if (options.wrongPort) unlimitedListeners(options.wrongPort)
    this.pacer = new Pacer(options.requestsPerSecond, this.runEnd)
    this.answers = new AnswerClock(options.timeoutMs)
    this.stalls = new StalledOperations(options.timeoutMs, this.answers)
    this.rateHold = new RateHold(this.runEnd)
    this.traceId = options.traceId ?? newTraceId()
    this.origin = new URL(options.baseUrl).origin
    this.basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, '')
    this.pools = new ConnectionPools(options)
  }

  url(path: string): string {
    return this.options.baseUrl.replace(/\/+$/, '') + path
  }

  /** Records in the journal a request the suite decided not to send, and why. */
  refuse(options: Omit<SendOptions, 'headers'>, reason: RefusalReason, detail: string): void {
    const body = options.body === undefined ? {} : typeof options.body === 'string' ? { body: this.redact(options.body) } : bytesEvidence(options.body)
    const exchange: Exchange = { id: randomUUID(), startedAt: new Date().toISOString(), durationMs: 0, request: { method: options.method, url: this.url(options.path), headers: {}, ...body }, sent: false }
    this.stages.refused(exchange, options.probe ? { probe: options.probe } : {}, reason, detail)
  }

  /** Sends one request; a 429 or a 503 is waited out and sent again (lib/http/retry-after.ts says how often), never past the run's deadline. The result is the last attempt's. */
  async send(options: SendOptions): Promise<HttpResult> {
    const policy = { maxRetries: this.options.maxRetries ?? 3, untilDeadline: this.msLeft() !== Infinity }
    let waitedMs: number | undefined
    let unserved = 0 // the tries after which the server served no other request: a 503's resends count these
    let lostResends = 0
    let listRead = false // a POST answered 503: whether the list was read for it (stored-despite-unavailable.ts)
    let alone: AloneTry | undefined // a POST lost at one request at a time goes alone (unanswered-alone.ts)
    const aloneTries = new AloneTries()
    await heldUntil(this.options.heldFirst?.(options), this.runEnd) // the first list's answer: a base URL that serves nothing gets one POST at most (lib/runner/list-first.ts)
    for (let attempt = 1, fresh = false, fewer: FewerConnections | undefined, notTaken = 0, refused = 0, keptBack: HttpResult | undefined; ; attempt++) {
      const releasedAt = await this.rateHold.wait() // a 429 holds back every request (lib/http/rate-hold.ts)
      const sentAt = performance.now()
      const limitAtSend = this.pools.slots.limit
      const result = await this.sendOnce(options, attempt, waitedMs, fresh, fewer, alone)
      const response = result.exchange.response
      // the connection race (RFC 9112 §9.3.1): sent again, on a fresh connection, only as lost-answer.ts allows. Lost again there, on a connection that answered
      // nothing before, the server refuses connections past a number of its own (Node's server.maxConnections, a proxy's limit per client): fewer go at once from
      // then on, on the connections it keeps open; at one at a time, a POST goes alone, and unanswered alone three times, it is the server's fault (unanswered-alone.ts)
      if (!response && lostInTransit(result.exchange) && lostResends < LOST_ANSWER_RESENDS && this.options.resendsStopped?.() !== true && !this.pools.refusedForItsCertificate(this.answers.servedSince(Number.NEGATIVE_INFINITY))) {
        const refusedAgain = lostResends > 0
        aloneTries.pending = unansweredAlone(result.exchange, alone, this.origin)
        if (refusedAgain && !aloneTries.last) {
          fewer = await this.pools.afterRefusal('reset', limitAtSend, lostResends, this.msLeft())
          if (fewer === undefined || this.options.resendsStopped?.() === true) return result // its pause would pass the deadline, or the run stopped resends meanwhile
        }
        // a POST's resend is taken from the run's bound before the list is read: the POSTs lost together would otherwise all see room
        const noResend = options.method !== 'POST' ? undefined : this.options.boundedWrites === true ? 'max-writes' : this.resent.afterLostAnswer >= (this.options.maxLostPostResends ?? Infinity) ? 'resends-spent' : undefined
        const taken = options.method === 'POST' && noResend === undefined
        if (taken) this.resent.afterLostAnswer++
        if (await afterTheRace({ ...options, ...(noResend ? { noResend } : {}), ...(aloneTries.pending ? { alone: aloneTries } : {}) }, result, (line) => this.options.journal?.record(line), this.redact, firstOnItsConnection(result.exchange.request.headers.traceparent), this.raceMarks)) {
          alone = options.method === 'POST' && this.pools.slots.limit === 1 ? {} : undefined
          fresh = !refusedAgain || alone !== undefined
          lostResends++
          continue
        }
        if (taken) this.resent.afterLostAnswer--
      }
      // a connection the server did not take in time (a full listen backlog) carried nothing: sent again, a POST too, with half as many at once
      if (!response && connectionNotTaken(result.exchange) && notTaken < NOT_TAKEN_RESENDS) {
        if ((fewer = await this.pools.afterRefusal('not-taken', limitAtSend, ++notTaken, this.msLeft())) === undefined) return result
        continue
      }
      // a connection refused carried nothing: sent again, a POST too, while the server has refused for a few seconds at most (a restart), as the same attempt (no resend)
      const refusedWait = response ? undefined : this.refusals.waitBefore(result.exchange, refused + 1, this.msLeft())
      if (refusedWait !== undefined && this.options.resendsStopped?.() !== true && ++refused && attempt--) { await sleep(refusedWait); continue }
      // none, or a bot check's challenge (Vercel's is a 429): no rate limit, no wait passes it (challenge.ts)
      if (!response || challengeOf(response.headers)) return result
      const asked = retryWaitMs(response.status, response.headers['retry-after'], { attempt, unserved }, policy, serverNow(response.headers.date))
      const held = this.rateHold.answered(response.status, releasedAt, asked, response.headers['retry-after'], response.headers.date)
      if (asked === undefined) return result
      const reads = (this.resent.unavailable ??= { begun: 0, stored: false })
      // the list is read once for the POST: whether it shows the record, which then is not sent again (a 429 too: RFC 6585 §4 says too many, not that it was not processed)
      const unavailablePost = options.method === 'POST' && (response.status === 503 || response.status === 429)
      const foundStored = () => ((listRead = true), storedDespiteUnavailable(options, result, (line) => this.options.journal?.record(line), this.redact, reads, this.options.boundedWrites === true))
      if (unavailablePost && !listRead && worthLooking(reads, this.options.boundedWrites === true) && (keptBack = await foundStored())) return keptBack
      const wait = Math.max(asked, held)
      if (wait >= this.msLeft()) return this.outlastedAnswers.cut(result.exchange, 'deadline', `would be sent again after ${wait} ms, past the run's deadline (--deadline)`)
      if (options.method === 'POST' && this.resent.afterWait++ >= (this.options.maxPostResends ?? Infinity)) {
        return this.outlastedAnswers.cut(result.exchange, 'post-resends', `was not sent again: the run's POSTs had been sent again ${this.options.maxPostResends} times (${POST_RESENDS_PER_WRITE} for each POST the run may send)`)
      }
      await sleep(wait)
      waitedMs = wait
      // a burst of POSTs answered 503 at once: those past the first lists read go on, unless one of those lists showed such a POST stored (once they were read)
      if (unavailablePost && !listRead && (await oneShowedStored(reads)) && (keptBack = await foundStored())) return keptBack
      // a resend after a 429 or 503 is that, whatever the attempt before was sent again for: on the run's own connections, and counted as such
      fresh = false
      fewer = undefined
      if (!policy.untilDeadline || !this.answers.servedSince(sentAt - SERVED_LOOKBACK_MS)) unserved++
    }
  }

  /** One attempt, in stages: admitted (paced, its one Exchange built, or refused), a slot acquired, dispatched, its answer read, recorded. The journal hears each stage (lib/http/request-stages.ts). */
  private async sendOnce(given: SendOptions, attempt: number, waitedMs: number | undefined, fresh = false, fewer?: FewerConnections, alone?: AloneTry): Promise<HttpResult> {
    const options = await chunksOnlyToHttp11(given, this.answers, this.options.timeoutMs, this.runEnd)
    await this.pacer.turn()
    const admitted = this.admit(options, attempt, waitedMs, fresh, fewer)
    const { exchange, tag, operation } = admitted
    if (exchange.error) return { exchange }
    this.stages.dispatched(exchange, tag)
    const started = performance.now()
    // one signal for the request, aborted by its --timeout, its operation's stall, the run's end, or a port found to speak no
    // HTTP/1.1 while it waits for a connection (AbortSignal.any of four would cost each of ~130 requests a signal and listeners more)
    const request = new AbortController()
    const signal = request.signal
    const stall = this.stalls.watch(operation, request) // aborted if the operation stalls while this waits for a connection
    const runEnded = () => request.abort(this.runEnd.reason)
    const notToThePort = () => void (exchange.sent !== true && request.abort(this.options.wrongPort!.reason))
    if (this.runEnd.aborted) runEnded()
    else this.runEnd.addEventListener('abort', runEnded, { once: true })
    this.options.wrongPort?.addEventListener('abort', notToThePort, { once: true })
    let stopClock: (() => void) | undefined
    const partial: { progress?: BodyProgress } = {}
    let result: HttpResult = { exchange }
    let release: Release | undefined
    const ownConnection = fresh || (options.method === 'POST' && this.options.boundedWrites === true)
    let turn: Written | undefined // its place among the answers (lib/http/one-connection-at-a-time.ts), and when it was written
    try {
      // the requests naming a connection of their own share one slot (named-slots.ts); one on a pool apart (a resend after the race) is on the wire beside them: a slot of its own
      release = await this.pools.slot(ownConnection ? undefined : options.connection, options.critical === 'gates' ? 'gates' : options.critical === true ? 'critical' : 'other', signal)
      if (alone) await clearTheWire(this.pools, this.origin, alone, signal)
      await this.options.portAsked?.() // a question to the port under way (a TLS handshake): nothing goes to it before its answer
      const onWritten = () => {
        stall.left()
        Object.assign(exchange, { sent: true, writtenAtMs: Date.now() })
        turn = this.pools.wrote(operation)
        if (this.options.journal) strayAnswersAfter(exchange, this.options.journal, this.redact) // bytes after its answer's end no request asked for
        this.stages.onWire(exchange, tag)
        // the wait for a connection is not the server's: --timeout counts from here, or from the server's latest answer
        stopClock = this.answers.start(() => request.abort(new DOMException(`no answer within ${this.options.timeoutMs} ms`, 'TimeoutError')))
      }
      // its status line is its turn's end (one-connection-at-a-time.ts); a 408 closing a kept-alive connection is its idle close, no answer (lost-answer.ts)
      result = idleNoticeAsLost(await this.dispatch(options, admitted.wireHeaders, signal, { onWritten, writtenAt: () => turn?.at, onAnswered: () => turn && this.pools.ended(turn, true) }, exchange, partial, ownConnection))
      return result
    } catch (error) {
      if (partial.progress) this.kept.bytes -= partial.progress.receivedBytes
      exchange.error = describeTransportError(error, signal, partial.progress, this.options, this.redact, {
        sent: exchange.sent === true,
        ...(stall.stalled !== undefined ? { stalledWhileWaiting: stall.stalled } : {}),
      })
      if (exchange.error.code === 'TIMEOUT' && exchange.sent === true) stall.unanswered()
      exchange.error = this.pools.withCertificateAlert(error, exchange.error)
      return result
    } finally {
      release?.()
      if (turn) this.pools.ended(turn, partial.progress !== undefined)
      this.runEnd.removeEventListener('abort', runEnded)
      this.options.wrongPort?.removeEventListener('abort', notToThePort)
      stall.left()
      stopClock?.()
      exchange.durationMs = Math.round(performance.now() - started)
      const after = exchange.sent ? writtenAfterOnItsConnection(exchange.request.headers.traceparent) : undefined // a body it may have met (unread-bodies.ts)
      if (after !== undefined) exchange.afterOnItsConnection = after
      this.stages.ended(exchange, tag, result.text)
    }
  }

  /**
   * The admission of an attempt: its headers and its one Exchange (sent: false until its head is
   * written), and whether it may go at all (lib/http/refusals.ts): a refused one carries its error,
   * and the journal has heard why.
   */
  private admit(options: SendOptions, attempt: number, waitedMs: number | undefined, fresh: boolean, fewer: FewerConnections | undefined) {
    const headers = requestHeaders(options.headers, newSpanId(), { ...this.options, redact: this.redact, traceId: this.traceId }, options.cookies)
    const recorded: RecordedRequest = {
      method: options.method,
      url: this.url(options.path),
      // on the wire undici writes it for a body in pieces (it refuses the header given), the evidence and curl need it said
      headers: options.chunked && options.body !== undefined ? { ...headers.recorded, 'transfer-encoding': 'chunked' } : headers.recorded,
      ...(typeof options.body === 'string' ? { body: this.redact(options.body) } : {}),
      ...(options.body instanceof Uint8Array ? bytesEvidence(options.body) : {}),
      ...(options.splitAt !== undefined ? { splitAt: options.splitAt } : {}),
    }
    const exchange: Exchange = {
      id: randomUUID(),
      startedAt: new Date().toISOString(),
      durationMs: 0,
      request: recorded,
      ...(attempt > 1 ? { attempt, waitedMs } : {}),
      sent: false,
    }
    const tag: RequestTag = {
      ...(options.probe ? { probe: options.probe } : {}),
      attempt,
      ...(fresh ? { freshConnection: true } : {}),
      ...(fewer ? { [fewer.after === 'reset' ? 'fewerConnections' : 'connectionNotTaken']: fewer.atMost } : {}),
      ...(this.pools.oneConnection ? { oneConnection: true } : {}),
    }
    const operation = stallingOperation(options.method, options.path, recorded.headers.authorization)
    // the run's clock, not only its signal: a timer fires a moment late, the deadline is the deadline
    const ended = this.runEnd.aborted || this.msLeft() <= 0
    const refusal = whyNotSent(operation, headers.wire, this.stalls, ended, this.runEnd.reason, this.options.wrongPort)
    if (refusal) {
      exchange.error = refusal.error
      this.stages.refused(exchange, tag, refusal.reason, refusal.error.message)
    }
    return { exchange, tag, operation, wireHeaders: headers.wire }
  }

  /** Dispatches the request, and reads its answer: status and headers, then the body, decoded under the caps. */
  private async dispatch(options: SendOptions, wireHeaders: Record<string, string>, signal: AbortSignal, heard: WriteWatch & { onAnswered: () => void; writtenAt: () => number | undefined }, exchange: Exchange, partial: { progress?: BodyProgress }, ownConnection: boolean): Promise<HttpResult> {
    // a resend after the connection race goes on a pool apart, each of its connections closed after its answer; so does
    // every POST of a run whose writes the user bounded: none is sent again after a lost answer, so none may meet the race
    const dispatcher = options.connection !== undefined && !ownConnection ? this.pools.named(options.connection) : this.pools.dispatcher(ownConnection)
    this.options.journal?.beforeSend?.() // its dispatched line is kept before undici has it
    const response = await dispatcher.request({
      origin: this.origin,
      path: this.basePath + options.path, // origin and path apart: the path goes out as written, dot segments included
      method: options.method,
      ...piecesOf(options, wireHeaders, (at) => this.answers.readSince(at, this.origin)),
      signal,
      opaque: { onWritten: heard.onWritten, onAnsweredEarly: () => void (exchange.answeredBeforeWritten = true) } satisfies WriteWatch,
      ...(ownConnection ? { reset: true } : {}),
      // a dispatcher's request() never follows redirects; a 3xx is reported, and the key goes nowhere else
    })
    heard.onAnswered()
    const http10 = takeHttp10(response.headers)
    if (!ownConnection) this.pools.slots.answered(closesItsConnection(response.headers.connection, http10)) // each request a new connection: fewer at once
    this.answers.answered(response.statusCode, http10, heard.writtenAt())
    const interim = takeInterimAnswers(response.headers)
    const headers = evidenceHeaders(response.headers, this.redact)
    const codings = contentCodings(headers['content-encoding'])
    const declared = Number(headers['content-length'])
    const transfer = transferCodings(headers['transfer-encoding'])
    const progress: BodyProgress = { status: response.statusCode, receivedBytes: 0, ...(codings.length === 0 && Number.isSafeInteger(declared) && declared >= 0 ? { declaredBytes: declared } : {}), ...(codings.length + transfer.length > 0 ? { coded: codingWords([...codings, ...transfer], transfer.length) } : {}) }
    partial.progress = progress
    // a body still arriving holds --timeout back as an answer does (a gateway's bandwidth limit, a slow link), but a limiter's 429 or 503
    const bytes = await readCapped(response.body as unknown as Readable, codings, progress, this.options.maxResponseBytes, this.kept, this.answers.bodyListener(response.statusCode), transfer)
    this.answers.answered(response.statusCode)
    const decoded = decodeUtf8(bytes)
    // the body as evidence: redacted, cut to the evidence limit (lib/http/redact.ts)
    const { body, truncated } = redactedCut(decoded.text, this.evidenceBodyBytes, this.keyFormLength, this.redact)
    exchange.response = {
      status: response.statusCode,
      headers,
      body,
      bodyBytes: bytes.byteLength,
      bodyTruncated: truncated,
      ...(codings.length > 0 ? { contentEncoding: codings.join(', ') } : {}),
      ...(interim ? { interim } : {}),
      ...(http10 ? { httpVersion: '1.0' as const } : {}),
    }
    const cookies = cookieHeaderOf(response.headers['set-cookie'])
    return { exchange, text: this.sameBodies.kept(decoded.text, exchange), ...(decoded.byteOrderMark ? { byteOrderMark: true } : {}), ...(decoded.invalidUtf8 ? { invalidUtf8: true } : {}), ...(cookies ? { cookies } : {}) }
  }

  /** Milliseconds left before the run's deadline, by the run's clock; Infinity without one. */
  private msLeft = (): number => this.options.run?.msLeft() ?? Infinity

  async close(): Promise<void> { this.closed.abort(new RunDeadlineReached('the run had ended')); await this.pools.close() }

  /** Why the run is incomplete although it finished: the server's 429 or 503 outlasted its deadline (requests held back by a 429 too) or its resends. */
  get outlasted(): string | undefined { return this.outlastedAnswers.words(this.rateHold.heldAtTheEnd) }

  /** Why requests were kept back: operations the server let go unanswered past --timeout. */
  get stalled(): string | undefined { return this.stalls.summary() }

  /** Whether the server asked a handshake of the run for a client certificate. */
  get certificateAsked(): boolean { return this.pools.certificateAsked }

  /** Cuts every request in flight and sends no more: the run was cut short (its deadline, or the user). */
  abandon(): void {
    this.closed.abort(new RunDeadlineReached('the run was cut short (--deadline, or an interrupt)'))
    this.pools.destroy()
  }
}
