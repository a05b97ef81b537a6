/** §4.1 listCategories: 200 and an array of Category records, ids unique. */
import { expectDistinctIds, type CategoryRecord } from '../lib/checks/category.ts'
import { expectJsonContentType, expectStatus, requireStatus } from '../lib/checks/response.ts'
import { conformingBody, expectSchema } from '../lib/checks/schema.ts'
import { check, once } from '../lib/suite-kit/check.ts'
import { httpClient } from '../lib/suite-kit/run-context.ts'
import { VALID_AUTHORIZATION } from './cases/credentials.ts'

const list = once(() => httpClient().send({ method: 'GET', path: '/categories', headers: { authorization: VALID_AUTHORIZATION } }))
const label = 'GET /categories with a valid key'
const STATUS_REPORTED = 'list-returns-200 reports the status'

check('list-returns-200', `${label} → 200`, async (t) => {
  expectStatus(await t.use(list), 200)
})

check('list-returns-category-array', `${label} → an array of Category records`, async (t) => {
  const result = await t.use(list)
  requireStatus(result, [200], STATUS_REPORTED)
  expectSchema(result, 'CategoryList', 'an array of Category records')
})

check('json-content-type', `${label} → the list is application/json`, async (t) => {
  const result = await t.use(list)
  requireStatus(result, [200], STATUS_REPORTED)
  expectJsonContentType(result)
})

check('ids-unique', `${label} → no two listed categories share an id`, async (t) => {
  const result = await t.use(list)
  requireStatus(result, [200], STATUS_REPORTED)
  const records = conformingBody(result, 'CategoryList', 'list-returns-category-array') as CategoryRecord[]
  expectDistinctIds(records, 'the list', result)
})
