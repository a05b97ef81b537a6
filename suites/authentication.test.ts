/** §5 and §1 rule 2: every operation, pets and store included, answers 401 without a valid bearer key. */
import { NotApplicable } from '../lib/checks/failure.ts'
import { documentedErrorChecks } from '../lib/suite-kit/documented-error.ts'
import { once } from '../lib/suite-kit/check.ts'
import { httpClient, recordPrefix, runContext } from '../lib/suite-kit/run-context.ts'
import { CREDENTIAL_CASES } from './cases/credentials.ts'
import { OPERATIONS } from './cases/operations.ts'
import { postCategory, unauthenticatedCreateKey } from './cases/post-probes.ts'

for (const operation of OPERATIONS) {
  for (const credential of CREDENTIAL_CASES) {
    if (credential.readsOnly && operation.method !== 'GET') continue
    const probe = once(async () => {
      const unusable = credential.unusableWith?.(runContext().apiKey)
      if (unusable) throw new NotApplicable(`not verified: ${unusable}`)
      const authorization = credential.authorization(runContext().runId)
      if (operation.method === 'POST') {
        const body = JSON.stringify({ name: `${recordPrefix()}-unauthenticated-${credential.key}` })
        return postCategory(unauthenticatedCreateKey(credential.key), body, authorization)
      }
      return httpClient().send({ method: 'GET', path: operation.path, headers: authorization === undefined ? {} : { authorization } })
    })
    documentedErrorChecks(`${operation.label} with ${credential.label}`, probe, credential.rule, 401)
  }
}
