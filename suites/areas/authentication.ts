/**
 * §5 and §1 rule 2: every operation, pets and store included, answers 401 without a valid bearer
 * key. The GETs are here; the POSTs are in suites/areas/categories.ts, beside the list that shows
 * whether a refused create was stored.
 */
import { NotApplicable } from '../../lib/checks/failure.ts'
import { expectOperationNotServedWithoutKey } from '../../lib/checks/unauthenticated.ts'
import { check, once, suite } from '../../lib/suite-kit/check.ts'
import { documentedErrorChecks } from '../../lib/suite-kit/documented-error.ts'
import { thisRun } from '../../lib/suite-kit/run-context.ts'
import { CREDENTIAL_CASES } from '../cases/credentials.ts'
import { answeredBeforeAuthentication, OPERATIONS } from '../cases/operations.ts'
import { PATH_FORMS } from '../cases/path-forms.ts'

export const authentication = suite('authentication', () => {
  const run = thisRun()
  for (const operation of OPERATIONS) {
    // the POSTs, and whether what they sent was stored, are suites/areas/categories.ts's
    if (operation.method !== 'GET') continue
    for (const credential of CREDENTIAL_CASES) {
      if (credential.listOnly && operation.operationId !== 'listCategories') continue
      const probe = once(async () => {
        const unusable = credential.unusableWith?.(run.context.apiKey)
        if (unusable) throw new NotApplicable(`not verified: ${unusable}`, 'key-unusable')
        const authorization = credential.authorization(run.context.runId)
        const headers = { ...credential.headers, ...(authorization === undefined ? {} : { authorization }) }
      const result = await run.client().send({ method: 'GET', path: operation.path, headers })
        const unjudgeable = answeredBeforeAuthentication(operation, result.exchange.response?.status)
        if (unjudgeable) throw new NotApplicable(`not verified: ${unjudgeable}`)
        return result
      })
      documentedErrorChecks(`${operation.label} with ${credential.label}`, probe, credential.rule, 401)
    }
  }


  // every form of the pets and store paths that a lenient router takes for them, without a key
  // (reads only; the list's forms go after the run's creates, suites/areas/categories.ts)
  for (const form of PATH_FORMS.filter((f) => f.operation !== 'listCategories')) {
    const probe = once(() => run.client().send({ method: 'GET', path: form.path }))
    const operation = OPERATIONS.find((o) => o.operationId === form.operation) as (typeof OPERATIONS)[number]
    check('auth-missing-key-401', `GET ${form.path} (${form.label}) with no Authorization header → not the answer of ${operation.label}: 401, or a path the service does not serve`, async (t) => {
      expectOperationNotServedWithoutKey(await t.use(probe), operation.label)
    })
  }

  // the document's clients need not send Accept: curl sends */*, for which a server that negotiates
  // its errors may pick HTML (Rails renders its first format); §4 says every payload is JSON
  const anyMediaType = once(() => run.client().send({ method: 'GET', path: '/categories', headers: { accept: '*/*' } }))
  documentedErrorChecks("GET /categories with no Authorization header and curl's Accept: */*", anyMediaType, 'auth-missing-key-401', 401)
})
