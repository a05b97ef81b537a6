/** §5 and §1 rule 2: every operation, pets and store included, answers 401 without a valid bearer key. */
import type { CategoryRecord } from '../lib/checks/category.ts'
import { fail, NotApplicable } from '../lib/checks/failure.ts'
import { requireStatus } from '../lib/checks/response.ts'
import { conformingBody } from '../lib/checks/schema.ts'
import type { HttpResult } from '../lib/http/client.ts'
import { check, once } from '../lib/suite-kit/check.ts'
import { documentedErrorChecks } from '../lib/suite-kit/documented-error.ts'
import { httpClient, recordPrefix, runContext } from '../lib/suite-kit/run-context.ts'
import { CREDENTIAL_CASES, VALID_AUTHORIZATION } from './cases/credentials.ts'
import { OPERATIONS } from './cases/operations.ts'
import { postCategory, unauthenticatedCreateKey } from './cases/post-probes.ts'

const unauthenticatedName = (credential: string) => `${recordPrefix()}-unauthenticated-${credential}`
/** The unauthenticated POST of each credential case, by case key. */
const unauthenticatedCreates = new Map<string, () => Promise<HttpResult>>()

for (const operation of OPERATIONS) {
  for (const credential of CREDENTIAL_CASES) {
    if (credential.readsOnly && operation.method !== 'GET') continue
    const probe = once(async () => {
      const unusable = credential.unusableWith?.(runContext().apiKey)
      if (unusable) throw new NotApplicable(`not verified: ${unusable}`)
      const authorization = credential.authorization(runContext().runId)
      if (operation.method === 'POST') {
        const body = JSON.stringify({ name: unauthenticatedName(credential.key) })
        return postCategory(unauthenticatedCreateKey(credential.key), body, authorization)
      }
      return httpClient().send({ method: 'GET', path: operation.path, headers: authorization === undefined ? {} : { authorization } })
    })
    documentedErrorChecks(`${operation.label} with ${credential.label}`, probe, credential.rule, 401)
    if (operation.method === 'POST') unauthenticatedCreates.set(credential.key, probe)
  }
}

/** A list read after every unauthenticated create was answered (a read: no write budget). */
const listAfterUnauthenticatedCreates = once(async () => {
  const settled = await Promise.allSettled([...unauthenticatedCreates.values()].map((probe) => probe()))
  if (settled.every((s) => s.status === 'rejected')) throw new NotApplicable('no unauthenticated create was sent in this run')
  return httpClient().send({ method: 'GET', path: '/categories', headers: { authorization: VALID_AUTHORIZATION } })
})

// §1 rule 2, every operation requires authentication: a refused create must not take effect either
for (const credential of CREDENTIAL_CASES) {
  const create = unauthenticatedCreates.get(credential.key)
  if (!create) continue
  check(credential.rule, `POST /categories with ${credential.label} → no category is created`, async (t) => {
    const created = await t.use(create)
    const list = await listAfterUnauthenticatedCreates()
    t.evidence(list)
    requireStatus(list, [200], 'list-returns-200 reports the status')
    const listed = conformingBody(list, 'CategoryList', 'list-returns-category-array') as CategoryRecord[]
    const name = unauthenticatedName(credential.key)
    const stored = listed.find((record) => record.name === name)
    if (stored) {
      fail(
        {
          code: 'REFUSED_CREATE_STORED',
          message: `the create sent with ${credential.label} was stored: the list shows ${JSON.stringify(name)}`,
          expected: 'no category created without a valid key',
          actual: `a listed category named ${JSON.stringify(name)}`,
        },
        created.exchange,
        list.exchange,
      )
    }
  })
}
