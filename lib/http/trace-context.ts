/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/): every request of a run carries a
 * `traceparent` with one trace id for the run and a span id of its own, so the service's team can
 * find the run's requests in their logs and traces; reports show both.
 */
import { randomBytes } from 'node:crypto'

/** Random bytes drawn a page at a time: a span id for each of a fleet's thousands of requests, without a call into the system's generator for each. */
let pool = Buffer.alloc(0)
let taken = 0

/** Lowercase hex of `bytes` random bytes, never all zero (the specification forbids it). */
function randomHex(bytes: number): string {
  for (;;) {
    if (taken + bytes > pool.length) {
      pool = randomBytes(4096)
      taken = 0
    }
    const hex = pool.toString('hex', taken, (taken += bytes))
    if (!/^0+$/.test(hex)) return hex
  }
}

/** A trace id: 16 bytes. */
export const newTraceId = () => randomHex(16)

/** A span (parent) id: 8 bytes. */
export const newSpanId = () => randomHex(8)

/** The header value: version 00, the trace id, the span id, and the sampled flag. */
export const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`

/** The User-Agent of the run's requests: the tool, its version and the run id. */
export const userAgent = (version: string, runId: string) => `petstore-conform/${version} (run ${runId})`
