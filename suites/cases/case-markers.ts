/**
 * The markers of the POSTs that must be refused: what a record stored from one would hold, which
 * the list after the run's POSTs is searched for (suites/categories/refusal-checks.ts). One is the
 * run's prefix, a letter for its table and the case's place in it (`cf-ab12c-j07`): twelve
 * characters, so that the name that carries it fits the shortest name column the suite verifies
 * every class against (NAME_FLOOR, 16; lengths are not shown, §8). A longer name is refused by such
 * a column before anything else is judged: a service that reads the body before the key (auth in
 * Fastify's preHandler, as @fastify/auth shows it) answers it 400 where §5.3 asks 401, and one that
 * takes a description of the wrong type (Fastify's coerceTypes) refuses the body for its name's
 * length, which hides that.
 */

/** j: malformed JSON (malformed-json.ts); t: values of the wrong type (wrong-types.ts); k: credentials (credentials.ts). */
export type MarkerTable = 'j' | 't' | 'k'

export function caseMarker(prefix: string, table: MarkerTable, index: number): string {
  if (!Number.isInteger(index) || index < 0 || index > 98) throw new Error(`no marker for case ${index} of table ${table}`)
  return `${prefix}-${table}${String(index + 1).padStart(2, '0')}`
}
