/**
 * §5 and §1 rule 2: every operation, pets and store included, answers 401 without a valid bearer
 * key. The GETs are here; the POSTs are in suites/areas/categories.ts, beside the list that shows
 * whether a refused create was stored.
 */
import { NotApplicable } from '../../lib/checks/failure.ts'
import { expectListNotServedWithoutKey } from '../../lib/checks/unauthenticated.ts'
import { check, once } from '../../lib/suite-kit/check.ts'
import { documentedErrorChecks } from '../../lib/suite-kit/documented-error.ts'
import { httpClient, runContext } from '../../lib/suite-kit/run-context.ts'
import { CREDENTIAL_CASES } from '../cases/credentials.ts'
import { answeredBeforeAuthentication, OPERATIONS } from '../cases/operations.ts'

for (const operation of OPERATIONS) {
  // the POSTs, and whether what they sent was stored, are suites/areas/categories.ts's
  if (operation.method !== 'GET') continue
  for (const credential of CREDENTIAL_CASES) {
    const probe = once(async () => {
      const unusable = credential.unusableWith?.(runContext().apiKey)
      if (unusable) throw new NotApplicable(`not verified: ${unusable}`)
      const authorization = credential.authorization(runContext().runId)
      const result = await httpClient().send({ method: 'GET', path: operation.path, headers: authorization === undefined ? {} : { authorization } })
      const unjudgeable = answeredBeforeAuthentication(operation, result.exchange.response?.status)
      if (unjudgeable) throw new NotApplicable(`not verified: ${unjudgeable}`)
      return result
    })
    documentedErrorChecks(`${operation.label} with ${credential.label}`, probe, credential.rule, 401)
  }
}

// a router that also takes /categories/ for the list, behind a filter that guards only the exact
// path, serves the list to anyone there (Spring's trailing-slash match): the operation ran unauthenticated
const trailingSlash = once(() => httpClient().send({ method: 'GET', path: '/categories/' }))
check('auth-missing-key-401', 'GET /categories/ (a trailing slash) with no Authorization header → not the category list: 401, or a path the service does not serve', async (t) => {
  expectListNotServedWithoutKey(await t.use(trailingSlash))
})

// the document's clients need not send Accept: curl sends */*, for which a server that negotiates
// its errors may pick HTML (Rails renders its first format); §4 says every payload is JSON
const anyMediaType = once(() => httpClient().send({ method: 'GET', path: '/categories', headers: { accept: '*/*' } }))
documentedErrorChecks("GET /categories with no Authorization header and curl's Accept: */*", anyMediaType, 'auth-missing-key-401', 401)
