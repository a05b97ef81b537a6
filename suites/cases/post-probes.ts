/**
 * How the suite sends a POST: only one declared in the case tables of suites/cases/ (ordered by
 * write-order.ts) and within the run's write budget; the HTTP client's journal records it and what
 * it created. Every name carries the run's prefix, so records can be found afterwards.
 */
import type { HttpResult } from '../../lib/http/client.ts'
import type { Run } from '../../lib/suite-kit/run-context.ts'
import { assertWriteAllowed } from '../../lib/suite-kit/write-budget.ts'
import { POST_PROBES } from './write-order.ts'
import { whetherStored, type StoredAs } from './lost-answers.ts'

export { VALID_CREATES } from './valid-creates.ts'

/**
 * Sends one declared POST to /categories, within the write budget; the journal ledgers what it
 * created. Every POST is on the run's critical path: the list after them waits for their answers.
 * `storedAs` finds its record in the list, should the connection race lose its answer
 * (suites/cases/lost-answers.ts): found, it counts as created; not found, it is sent once more.
 * `gates`: other requests wait for its answer before they are sent (the first create of a name
 * sent again): it goes before every other POST, so that they can go in the next round trip.
 * `query`: a query string after the path (an invalid body's, invalid-bodies.ts). `inPieces`: the
 * body goes in chunks (Transfer-Encoding: chunked), as a client that streams it sends it.
 */
export async function postCategory(
  run: Run,
  key: string,
  body: string | Uint8Array,
  authorization: string | undefined,
  storedAs: StoredAs,
  sentAs: Record<string, string> = {},
  gates = false,
  query = '',
  inPieces = false,
): Promise<HttpResult> {
  const path = `/categories${query}`
  assertWriteAllowed(run, key, POST_PROBES, { path, body })
  const headers: Record<string, string> = { 'content-type': 'application/json', ...sentAs }
  if (authorization !== undefined) headers.authorization = authorization
  return run.client().send({ method: 'POST', path, headers, body, probe: key, critical: gates ? 'gates' : true, whetherApplied: whetherStored(run, storedAs), ...(inPieces ? { inPieces } : {}) })
}
