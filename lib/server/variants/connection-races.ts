/**
 * Conforming variants of connection handling: HTTP/1.1 lets a server close a keep-alive connection
 * whenever it likes, without saying so beforehand (RFC 9112 §9.3.1), and real ones do (an idle
 * timeout shorter than the client's, a proxy that closes after every answer). A request written on
 * a connection as the server closes it gets no answer: that is the transport's race, never a
 * verdict on the service. The suite must pass these, and never make two records of one create.
 */
import type { Variant } from '../server-cases.ts'

/** Shorter than any client's idle timeout, and long enough that the suite's bursts reuse connections. */
const IDLE_CLOSE_MS = 25
const CLOSE_AFTER_ANSWER_MS = 1
/** Below the client's idle close (1 s), and above the gaps of a burst: the suite's pauses meet it. */
const PAUSE_CLOSE_MS = 300
/** Under the suite's --concurrency (48), and under half of it: the first burst meets the limit, and so does the first halving. */
const CONNECTION_LIMITS = [40, 10]

export const CONNECTION_RACE_VARIANTS: readonly Variant[] = [
  {
    name: 'idle-close-after-25ms',
    description: `closes a keep-alive connection idle for ${IDLE_CLOSE_MS} ms, without a Keep-Alive header to say so: requests written as it closes meet the close (the keep-alive race)`,
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, idleCloseMs: IDLE_CLOSE_MS } },
  },
  {
    name: 'idle-close-after-25ms-with-408',
    description:
      `closes a keep-alive connection idle for ${IDLE_CLOSE_MS} ms with a 408 Request Timeout and Connection: close written first, as some servers and proxies do: ` +
      'a request written as it closes reads the 408, which answers no request (RFC 9110 §15.5.9: the client may send it again; browsers do, on a fresh connection)',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, idleCloseMs: IDLE_CLOSE_MS, idleCloseWith408: true } },
  },
  {
    name: `idle-close-after-${PAUSE_CLOSE_MS}ms`,
    description:
      `closes a keep-alive connection idle for ${PAUSE_CLOSE_MS} ms, without a Keep-Alive header to say so (Go's http.Server IdleTimeout, nginx's keepalive_timeout, set below a second): ` +
      "the requests written after the suite's pauses (the first list's answer, a list read again) meet the close",
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, idleCloseMs: PAUSE_CLOSE_MS } },
  },
  {
    name: 'close-after-every-answer',
    description: `closes every connection ${CLOSE_AFTER_ANSWER_MS} ms after each answer, without Connection: close: a request written on it in that moment gets no answer, or is stored and its answer lost`,
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, closeAfterAnswerMs: CLOSE_AFTER_ANSWER_MS } },
  },
  // a limit on the connections open at once (Node's server.maxConnections, a proxy's limit per
  // client): one past it is closed as soon as it is accepted. Nothing the document shows; the
  // suite sends fewer at once and the run passes, with no request lost and no create made twice
  // one connection at most, and a run of two at once: the second is closed as soon as it is accepted, the run comes down to
  // one request at a time, and the POSTs it lost go alone (every connection of the run closed first, lib/http/unanswered-alone.ts),
  // which such a server answers: a drop past a limit is no fault, and alone it does not happen
  {
    name: 'at-most-1-connection',
    description:
      "keeps at most 1 connection open at once (Node's server.maxConnections = 1): a run of two at once (--concurrency 2) has its second closed as soon as it is accepted, " +
      'before any answer, and its POSTs lost so go alone once it is down to one at a time, each then answered',
    behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, maxConnections: 1 } },
    args: ['--concurrency', '2'],
  },
  ...CONNECTION_LIMITS.map(
    (limit): Variant => ({
      name: `at-most-${limit}-connections`,
      description: `keeps at most ${limit} connections open at once (Node's server.maxConnections, a proxy's limit per client): a connection past them is closed as soon as it is accepted, before any answer`,
      behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, maxConnections: limit } },
    }),
  ),
]
