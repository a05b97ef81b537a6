/**
 * Why the client does not send a request it was asked to: a header no HTTP request can carry
 * (undici refuses it deep in its pool, where the requests queued behind it then wait for ever),
 * an operation that stalled, the run's deadline, or a port whose first answers were no HTTP/1.1.
 */
import { unsendableHeader, type Exchange } from './exchange.ts'
import type { RefusalReason } from './journal.ts'
import type { StalledOperations } from './stalled-operations.ts'
import { notSentToThePort, RunDeadlineReached } from './transport-errors.ts'

export function whyNotSent(
  operation: string,
  headers: Record<string, string>,
  stalls: StalledOperations,
  ended: boolean,
  endedBy?: unknown,
  wrongPort?: AbortSignal,
): { reason: RefusalReason; error: NonNullable<Exchange['error']> } | undefined {
  const unsendable = unsendableHeader(headers)
  if (unsendable !== undefined) {
    return { reason: 'unsendable', error: { code: 'UNSENDABLE', message: `the ${unsendable} header would hold a character no HTTP header can carry (RFC 9110 §5.5), so this request was not sent` } }
  }
  const stall = stalls.why(operation)
  if (stall !== undefined) return { reason: 'stalled', error: { code: 'STALLED', message: stall } }
  if (ended) {
    const interruptedBy = endedBy instanceof RunDeadlineReached ? endedBy.interruptedBy : undefined
    const why = interruptedBy !== undefined ? `the run had been interrupted (${interruptedBy})` : "the run's deadline (--deadline) had passed"
    return { reason: 'deadline', error: { code: 'DEADLINE', message: `${why}, so this request was not sent` } }
  }
  if (wrongPort?.aborted) return { reason: 'misdirected', error: notSentToThePort((wrongPort.reason as Error).message) }
  return undefined
}

/** Waits for `held` (the run's first list answered: ClientOptions.heldFirst; undefined: nothing to wait for), or for `end` (the run's end: the request is then refused as the run ended). */
export function heldUntil(held: Promise<void> | undefined, end: AbortSignal): Promise<void> | void {
  if (held === undefined || end.aborted) return
  return new Promise<void>((resolve) => {
    const done = () => (end.removeEventListener('abort', done), resolve())
    end.addEventListener('abort', done, { once: true })
    void held.then(done)
  })
}
