/**
 * The priority order of every POST the suite can send (keys of suites/cases/post-probes.ts and
 * authentication.test.ts): a small --max-writes keeps the first ones. Plain data, so that the
 * command line can count it without loading the test runtime.
 */

/** POSTs of a valid body with credentials that must be refused (authentication.test.ts). */
export const unauthenticatedCreateKey = (credential: string) => `create-auth-${credential}`

export const POST_PROBE_ORDER: readonly string[] = [
  'create-described',
  'create-name-only',
  'missing-name',
  'name-number',
  'malformed-json',
  'empty-body',
  unauthenticatedCreateKey('no-header'),
  unauthenticatedCreateKey('wrong-key'),
  'create-non-ascii',
  'create-padded-name',
  'empty-object',
  'name-boolean',
  'name-null',
  'name-array',
  'name-object',
  'description-number',
  'description-null',
  'body-array',
  'body-string',
  'body-null',
  unauthenticatedCreateKey('empty-token'),
  unauthenticatedCreateKey('basic-scheme'),
  unauthenticatedCreateKey('no-scheme'),
]
