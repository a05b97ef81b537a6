/**
 * How the suite sends a POST: only one declared in the case tables of suites/cases/ (ordered by
 * write-order.ts) and within the run's write budget; the HTTP client's journal records it and what
 * it created. Every name carries the run's prefix, so records can be found afterwards.
 */
import { insideFirstWideCharacter } from '../../lib/http/body-pieces.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import type { Run } from '../../lib/suite-kit/run-context.ts'
import { assertWriteAllowed } from '../../lib/suite-kit/write-budget.ts'
import { POST_PROBES } from './write-order.ts'
import { whetherStored, type StoredAs } from './lost-answers.ts'

export { VALID_CREATES } from './valid-creates.ts'

/** How a POST goes besides its body: headers as other clients send them, a gate, a query string, a body in pieces or in chunks. */
export interface PostManner {
  sentAs?: Record<string, string>
  gates?: boolean
  query?: string
  inPieces?: boolean
  chunked?: boolean
}

/**
 * Sends one declared POST to /categories, within the write budget; the journal ledgers what it
 * created. Every POST is on the run's critical path: the list after them waits for their answers.
 * `storedAs` finds its record in the list, should the connection race lose its answer
 * (suites/cases/lost-answers.ts): found, it counts as created; not found, it is sent once more.
 * `gates`: other requests wait for its answer before they are sent (the first create of a name
 * sent again): it goes before every other POST, so that they can go in the next round trip.
 * `query`: a query string after the path (an invalid body's, invalid-bodies.ts). `inPieces`: the
 * body goes out in two pieces split inside its first character wider than a byte
 * (lib/http/body-pieces.ts), when it has one; `chunked`: in two chunks (Transfer-Encoding: chunked),
 * as a client that streams it sends it.
 */
export async function postCategory(run: Run, key: string, body: string | Uint8Array, authorization: string | undefined, storedAs: StoredAs, manner: PostManner = {}): Promise<HttpResult> {
  const path = `/categories${manner.query ?? ''}`
  assertWriteAllowed(run, key, POST_PROBES, { path, body })
  const headers: Record<string, string> = { 'content-type': 'application/json', ...manner.sentAs }
  if (authorization !== undefined) headers.authorization = authorization
  const splitAt = manner.inPieces && typeof body === 'string' ? insideFirstWideCharacter(body) : undefined
  return run.client().send({ method: 'POST', path, headers, body, probe: key, critical: manner.gates ? 'gates' : true, whetherApplied: whetherStored(run, storedAs), ...(splitAt !== undefined ? { splitAt } : {}), ...(manner.chunked ? { chunked: true } : {}) })
}
