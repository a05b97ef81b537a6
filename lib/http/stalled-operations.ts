/**
 * Operations (method and path) that let a request go unanswered past --timeout. A server that
 * stalls an operation stalls it for every request: the rest of that operation's requests are not
 * sent (their checks are not verified, saying why) instead of each waiting out a --timeout of its
 * own, 16 connections at a time (a trickling server took 70 s at --timeout 10000; issue 18).
 * A request already on the wire keeps its own --timeout: only those still waiting for a
 * connection are cancelled.
 */
import type { AnswerClock } from './answer-clock.ts'
import { KEY_AUTHORIZATION } from './redact.ts'

/**
 * The operation a request belongs to, as a server stalls it: the method and the first segment of
 * its path, read as a lenient router reads it (case, escapes, dot segments, doubled slashes, a
 * ';' parameter, whitespace around a segment or '.json'), so that the forms of one path (suites/cases/path-forms.ts) stall together.
 */
function operationOf(method: string, path: string): string {
  const decoded = decodedOrAsIs(path)
  // each ';' parameter dropped before dot segments are resolved, as a servlet container does (/x/..;/categories)
  const resolved = new URL(`http://operation${decoded.startsWith('/') ? '' : '/'}${decoded.replace(/;[^/]*/g, '')}`).pathname.toLowerCase()
  const first = resolved.split('/').find((segment) => segment !== '') ?? ''
  // and whitespace around the segment trimmed (/categories%20), as Spring's trimTokens did
  return `${method} /${decodedOrAsIs(first).trim().replace(/\.json$/, '')}`
}

/** The text with its percent-escapes decoded; as it is when one is malformed. */
function decodedOrAsIs(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/**
 * The operation a request stalls with: its method and first path segment (operationOf), apart
 * for a request without the run's key, as a server may hang those (a tarpit) and serve the key's.
 * `authorization`: the request's header as recorded (the key as its placeholder).
 */
export function stallingOperation(method: string, path: string, authorization: string | undefined): string {
  return operationOf(method, path) + (authorization === KEY_AUTHORIZATION ? '' : ' without the key')
}

export class StalledOperations {
  private readonly stalled = new Map<string, string>()
  /** Stalled operations let send again (release): a request of one that stalls again stalls it again. */
  private readonly released = new Set<string>()
  private everything: string | undefined
  /** Requests still waiting for a connection, by operation. */
  private readonly queued = new Map<string, Map<AbortController, { stalled?: string }>>()

  /** `answers`: the server's answers so far; a server that gave none before a stall stalls everything. */
  constructor(
    private readonly timeoutMs: number,
    private readonly answers: AnswerClock,
  ) {}

  /**
   * What the stalls kept back, for the run's problems: requests not sent are checks not verified,
   * so a run with a stall and no failure is incomplete, not passed (a server that hangs the
   * probes no check judges must not hide the rest behind them).
   */
  summary(): string | undefined {
    if (this.stalled.size === 0) return undefined
    const operations = [...this.stalled.keys()].join(', ')
    return `the server let ${operations} go unanswered past --timeout (${this.timeoutMs} ms), so the rest of ${this.stalled.size === 1 ? 'that operation was' : 'those operations were'} not sent and their checks are not verified`
  }

  /** Why a request of `operation` is not sent, or undefined when it may be. */
  why(operation: string): string | undefined {
    return this.everything ?? (this.released.has(operation) ? undefined : this.stalled.get(operation))
  }

  /**
   * The stalled operations may send again: the confirmation of their failures (lib/runner/confirmation.ts).
   * One request past --timeout on a server that answered the rest in time (a pause of its collector, a
   * replica slow for a moment) failed its checks "unconfirmed: its operation had left a request
   * unanswered" (exit 1, measured: 6 runs of 10 with 2 % of answers 500 ms past --timeout): its second
   * probe tells a hang from a pause. A request of one that goes unanswered past --timeout again stalls
   * it again; the reports still say what the stall kept back before.
   */
  release(): void {
    for (const operation of this.stalled.keys()) this.released.add(operation)
  }

  /**
   * A request of `operation` begins to wait for a connection: `cancel` (the request's own) is
   * aborted (reason: why) if the operation stalls meanwhile, and `stalled` then says why; `left()`
   * when it went on the wire or ended (it no longer waits; again is harmless); `unanswered()`
   * when, on the wire, it got no answer within --timeout (the rest of its operation is kept back).
   */
  watch(operation: string, cancel: AbortController): { readonly stalled: string | undefined; left(): void; unanswered(): void } {
    const queued = this.queued.get(operation) ?? new Map<AbortController, { stalled?: string }>()
    const watch: { stalled?: string } = {}
    this.queued.set(operation, queued.set(cancel, watch))
    return {
      get stalled() {
        return watch.stalled
      },
      left: () => void queued.delete(cancel),
      unanswered: () => this.stall(operation),
    }
  }

  /** A request of `operation` went unanswered past --timeout: the rest are kept back. */
  private stall(operation: string): void {
    if ((this.stalled.has(operation) && !this.released.delete(operation)) || this.everything !== undefined) return
    const why = `an earlier ${operation} got no answer within ${this.timeoutMs} ms (--timeout), so this one was not sent`
    this.stalled.set(operation, why)
    // a server that has answered nothing yet is stalled as a whole, not one operation at a time:
    // otherwise each operation would wait out a --timeout of its own, 16 connections at a time
    if (!this.answers.answeredAny) {
      this.everything = `the server had answered no request when ${operation} got no answer within ${this.timeoutMs} ms (--timeout), so this one was not sent`
      for (const queued of this.queued.values()) for (const [cancel, watch] of queued) this.cancel(cancel, watch, this.everything)
      return
    }
    for (const [cancel, watch] of this.queued.get(operation) ?? []) this.cancel(cancel, watch, why)
  }

  private cancel(cancel: AbortController, watch: { stalled?: string }, why: string): void {
    if (cancel.signal.aborted) return
    watch.stalled = why
    cancel.abort(why)
  }
}
