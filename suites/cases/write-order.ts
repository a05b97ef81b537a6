/**
 * The priority order of every POST the suite can send: a small --max-writes keeps the first ones.
 * Each case is declared once, in its table (valid-creates.ts and the poison-values.ts it ends with,
 * malformed-json.ts, wrong-types.ts, invalid-bodies.ts, credentials.ts), with its rule and, if it
 * leads the order, its priority; this file only maps the tables to probes and sorts them. Data only
 * (the wrong-type keys come from the schema, not from the seed), so that the command line can count
 * it without loading the test runtime.
 */
import { CREDENTIAL_CASES, unauthenticatedCreateKey } from './credentials.ts'
import { INVALID_BODIES } from './invalid-bodies.ts'
import { INVALID_JSON_RULE, MALFORMED_BODIES } from './malformed-json.ts'
import { VALID_CREATES } from './valid-creates.ts'
import { INVALID_VALUES_RULE, wrongTypeCases } from './wrong-types.ts'
import type { WritePriority } from './write-priority.ts'

export interface PostProbe extends WritePriority {
  key: string
  /** A valid create: it makes a record on a conforming server (the others only on a faulty one). */
  creates: boolean
  /** The rules whose checks judge this POST's answer or what it stored. */
  serves: readonly string[]
  /** Sent only when the service refused a long value (§8): never to a service without limits. */
  followUp?: true
  /** The create whose refusal this plain-ASCII create of its sizes judges (lib/suite-kit/confirmation-writes.ts). */
  controlOf?: string
}

/** The follow-ups of a create refused for length (valid-creates.ts, shortForm): plain ASCII of the same sizes, then the short form. */
export const sameSizeKey = (key: string) => `${key}-same-size`
export const shortFormKey = (key: string) => `${key}-short`

/** What a valid create is judged by (suites/categories/create-checks.ts). */
const CREATE_RULES = ['create-returns-201', 'create-returns-category', 'create-echoes-fields', 'json-content-type', 'ids-unique', 'created-in-list']
/** What every documented error answer is judged by besides its status rule (lib/suite-kit/documented-error.ts). */
const ERROR_RULES = ['error-body-is-error-record', 'error-status-matches-http', 'json-content-type']
/** A 401 is judged for its WWW-Authenticate header too (suites/areas/categories.ts). */
const UNAUTHENTICATED_RULES = [...ERROR_RULES, 'advisory-www-authenticate']

const valid = (c: { key: string } & WritePriority): PostProbe => ({ key: c.key, creates: true, serves: CREATE_RULES, priority: c.priority })
const refused = (c: { key: string } & WritePriority, rule: string, rules = ERROR_RULES): PostProbe => ({
  key: c.key,
  creates: false,
  serves: [rule, ...rules],
  priority: c.priority,
})

/** In the order the POSTs without a priority are sent: more creates first, then the refusals by kind. */
const declared: readonly PostProbe[] = [
  ...VALID_CREATES.filter((c) => !c.holds).map(valid),
  ...MALFORMED_BODIES.map((c) => refused(c, INVALID_JSON_RULE)),
  ...wrongTypeCases().map((c) => refused(c, INVALID_VALUES_RULE)),
  ...INVALID_BODIES.map((c) => refused(c, c.rule)),
  // near-misses of the key are tried on the GET operations only (credentials.ts)
  ...CREDENTIAL_CASES.filter((c) => !c.readsOnly).map((c) => refused({ key: unauthenticatedCreateKey(c.key), priority: c.priority }, c.rule, UNAUTHENTICATED_RULES)),
  // the values a store may be unable to give back (poison-values.ts): a record each, so after the refusals
  ...VALID_CREATES.filter((c) => c.holds).map(valid),
  // last: a service that limits no length never gets them, and a small --max-writes keeps the rest
  ...VALID_CREATES.filter((c) => c.shortForm).flatMap((c): PostProbe[] => [
    { key: sameSizeKey(c.key), creates: false, serves: ['create-returns-201'], followUp: true, controlOf: c.key },
    { key: shortFormKey(c.key), creates: false, serves: CREATE_RULES, followUp: true },
  ]),
]

const rank = (p: PostProbe) => p.priority ?? Number.POSITIVE_INFINITY

// Array.prototype.sort is stable: POSTs of equal rank keep the order of the tables
export const POST_PROBES: readonly PostProbe[] = [...declared].sort((a, b) => (rank(a) === rank(b) ? 0 : rank(a) - rank(b)))

export const POST_PROBE_ORDER: readonly string[] = POST_PROBES.map((p) => p.key)
