/**
 * The priority order of every POST the suite can send: a small --max-writes keeps the first ones,
 * so the most telling come first (two valid creates, one of each refusal, then the rest). Each
 * probe names the rules whose checks judge it. Data only (the wrong-type keys come from the schema,
 * not from the seed), so that the command line can count it without loading the test runtime.
 */
import { MALFORMED_BODIES } from './malformed-json.ts'
import { VALID_CREATES } from './valid-creates.ts'
import { wrongTypeCases } from './wrong-types.ts'

/** POSTs of a valid body with credentials that must be refused (suites/areas/categories.ts). */
export const unauthenticatedCreateKey = (credential: string) => `create-auth-${credential}`

export interface PostProbe {
  key: string
  /** A valid create: it makes a record on a conforming server (the others only on a faulty one). */
  creates: boolean
  /** The rules whose checks judge this POST's answer or what it stored. */
  serves: readonly string[]
}

/** What a valid create is judged by (suites/categories/create-checks.ts). */
const CREATE_RULES = ['create-returns-201', 'create-returns-category', 'create-echoes-fields', 'json-content-type', 'ids-unique', 'created-in-list']
/** What every documented error answer is judged by besides its status rule (lib/suite-kit/documented-error.ts). */
const ERROR_RULES = ['error-body-is-error-record', 'error-status-matches-http', 'json-content-type']

const valid = (key: string): PostProbe => ({ key, creates: true, serves: CREATE_RULES })
const invalid = (key: string, rule: string): PostProbe => ({ key, creates: false, serves: [rule, ...ERROR_RULES] })
const unauthenticated = (credential: string, rule: string): PostProbe => ({
  key: unauthenticatedCreateKey(credential),
  creates: false,
  serves: [rule, ...ERROR_RULES, 'advisory-www-authenticate'],
})

const FIRST_VALID = ['create-described', 'create-json-escapes']
const FIRST_MALFORMED = 'malformed-trailing-comma'
const FIRST_WRONG_TYPE = 'wrong-type-name-integer'

const wrongTypes = wrongTypeCases().map((c) => c.key)
if (!wrongTypes.includes(FIRST_WRONG_TYPE)) throw new Error(`the NewCategory schema no longer gives ${FIRST_WRONG_TYPE}: update suites/cases/write-order.ts`)

export const POST_PROBES: readonly PostProbe[] = [
  ...FIRST_VALID.map(valid),
  invalid('missing-name', 'create-rejects-missing-name'),
  invalid(FIRST_WRONG_TYPE, 'create-rejects-invalid-values'),
  invalid(FIRST_MALFORMED, 'create-rejects-invalid-json'),
  invalid('empty-body', 'create-rejects-missing-body'),
  unauthenticated('no-header', 'auth-missing-key-401'),
  unauthenticated('wrong-key', 'auth-invalid-key-401'),
  ...VALID_CREATES.map((c) => c.key).filter((k) => !FIRST_VALID.includes(k)).map(valid),
  ...MALFORMED_BODIES.map((c) => c.key).filter((k) => k !== FIRST_MALFORMED).map((k) => invalid(k, 'create-rejects-invalid-json')),
  ...wrongTypes.filter((k) => k !== FIRST_WRONG_TYPE).map((k) => invalid(k, 'create-rejects-invalid-values')),
  invalid('empty-object', 'create-rejects-missing-name'),
  invalid('name-key-capitalised', 'create-rejects-missing-name'),
  unauthenticated('empty-token', 'auth-missing-key-401'),
  unauthenticated('basic-scheme', 'auth-invalid-key-401'),
  unauthenticated('no-scheme', 'auth-invalid-key-401'),
]

export const POST_PROBE_ORDER: readonly string[] = POST_PROBES.map((p) => p.key)
