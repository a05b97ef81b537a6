/**
 * Operations (method and path) that let a request go unanswered past --timeout. A server that
 * stalls an operation stalls it for every request: the rest of that operation's requests are not
 * sent (their checks are not verified, saying why) instead of each waiting out a --timeout of its
 * own, 16 connections at a time (a trickling server took 70 s at --timeout 10000; issue 18).
 * A request already on the wire keeps its own --timeout: only those still waiting for a
 * connection are cancelled.
 */
export class StalledOperations {
  private readonly stalled = new Map<string, string>()
  /** Requests still waiting for a connection, by operation. */
  private readonly queued = new Map<string, Set<AbortController>>()

  constructor(private readonly timeoutMs: number) {}

  /** Why a request of `operation` is not sent, or undefined when it may be. */
  why(operation: string): string | undefined {
    return this.stalled.get(operation)
  }

  /** A request of `operation` begins to wait for a connection; the controller is aborted (reason: why) if the operation stalls meanwhile. */
  waiting(operation: string): AbortController {
    const cancel = new AbortController()
    const queued = this.queued.get(operation) ?? new Set<AbortController>()
    this.queued.set(operation, queued.add(cancel))
    return cancel
  }

  /** The request went on the wire (or ended): it no longer waits. */
  written(operation: string, cancel: AbortController): void {
    this.queued.get(operation)?.delete(cancel)
  }

  /** A request of `operation` went unanswered past --timeout: the rest are kept back. */
  stall(operation: string): void {
    if (this.stalled.has(operation)) return
    const why = `an earlier ${operation} got no answer within ${this.timeoutMs} ms (--timeout), so this one was not sent`
    this.stalled.set(operation, why)
    for (const cancel of this.queued.get(operation) ?? []) cancel.abort(why)
  }
}
