/**
 * A run whose key the server refused: every request sent with the key was answered 401 (or 403).
 * The document gives the issued key access to every operation (§5), so the failures that follow
 * say first that the key is wrong, expired or another environment's (a CI secret rotated, the
 * staging key against production), or that the service refuses valid keys; either way the run
 * verified nothing, and says so instead of reading as a service that broke its contract.
 */
import type { Exchange } from '../http/exchange.ts'
import { KEY_AUTHORIZATION } from '../http/redact.ts'
import type { RunProblem } from './run-problems.ts'

/** Fewer answers than this say too little to blame the key (a --rule run of one check). */
const ENOUGH = 3

/** Why the key looks refused (a problem of kind key-refused), or undefined. */
export function keyRefused(exchanges: readonly Exchange[]): RunProblem | undefined {
  const answers = new Map<string, number>()
  for (const e of exchanges) {
    if (e.request.headers.authorization === KEY_AUTHORIZATION && e.response) answers.set(e.id, e.response.status)
  }
  const statuses = [...answers.values()]
  if (statuses.length < ENOUGH || !statuses.every((s) => s === 401 || s === 403)) return undefined
  const which = [...new Set(statuses)].join(' or ')
  return { kind: 'key-refused', message: `the server refused the key: all ${statuses.length} requests sent with it were answered ${which}; check CONFORM_API_KEY (wrong, expired, another environment's?)` }
}
