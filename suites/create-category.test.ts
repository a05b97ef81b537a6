/**
 * §4.2 createCategory with valid bodies: 201, a Category record carrying every field sent plus an
 * int64 id; ids unique (§2); and every created record in the list that follows (§4.1). The list
 * runs after the creations, which is why this file holds both (Dredd orders create before read).
 */
import { expectDistinctIds, expectEchoedFields, expectListed, type CategoryRecord, type Creation } from '../lib/checks/category.ts'
import { NotApplicable } from '../lib/checks/failure.ts'
import { expectJsonContentType, expectStatus, requireStatus } from '../lib/checks/response.ts'
import { conformingBody, expectSchema } from '../lib/checks/schema.ts'
import type { HttpResult } from '../lib/http/client.ts'
import { check, once } from '../lib/suite-kit/check.ts'
import { httpClient, recordPrefix } from '../lib/suite-kit/run-context.ts'
import { VALID_AUTHORIZATION } from './cases/credentials.ts'
import { postCategory, VALID_CREATES } from './cases/post-probes.ts'

const STATUS_REPORTED = 'create-returns-201 reports the status'

const creations = VALID_CREATES.map((c) => {
  const sent = once(async () => c.body(recordPrefix()))
  const probe = once(async () => postCategory(c.key, JSON.stringify(await sent()), VALID_AUTHORIZATION))
  return { ...c, sent, probe, label: `POST /categories with ${c.label}` }
})

for (const c of creations) {
  check('create-returns-201', `${c.label} → 201`, async (t) => {
    expectStatus(await t.use(c.probe), 201)
  })
  check('create-returns-category', `${c.label} → a Category record with an int64 id`, async (t) => {
    const result = await t.use(c.probe)
    requireStatus(result, [201], STATUS_REPORTED)
    expectSchema(result, 'Category')
  })
  check('create-echoes-fields', `${c.label} → every field sent comes back unchanged`, async (t) => {
    const result = await t.use(c.probe)
    requireStatus(result, [201], STATUS_REPORTED)
    expectEchoedFields(await c.sent(), result)
  })
  check('json-content-type', `${c.label} → the record is application/json`, async (t) => {
    const result = await t.use(c.probe)
    requireStatus(result, [201], STATUS_REPORTED)
    expectJsonContentType(result)
  })
}

/** The records that were created and came back as Category records; the rest is other rules' business. */
async function createdRecords(): Promise<{ records: CategoryRecord[]; creations: Creation[]; results: HttpResult[] }> {
  const settled = await Promise.allSettled(creations.map(async (c) => ({ sent: await c.sent(), result: await c.probe() })))
  const done = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
  const created: Creation[] = []
  for (const { sent, result } of done) {
    if (result.exchange.response?.status !== 201) continue
    try {
      created.push({ sent, record: conformingBody(result, 'Category', 'create-returns-category') as CategoryRecord })
    } catch {
      // not a Category: create-returns-category reports it
    }
  }
  return { records: created.map((c) => c.record), creations: created, results: done.map((d) => d.result) }
}

check('ids-unique', 'POST /categories twice or more → each creation gets its own id', async (t) => {
  const { records, results } = await createdRecords()
  t.evidence(...results)
  if (records.length < 2) throw new NotApplicable(`needs two created records, got ${records.length}`)
  expectDistinctIds(records, 'the created records', ...results)
})

const listAfterCreations = once(async () => {
  const created = await createdRecords()
  if (created.results.length === 0) throw new NotApplicable('no creation was sent in this run')
  const list = await httpClient().send({ method: 'GET', path: '/categories', headers: { authorization: VALID_AUTHORIZATION } })
  return { ...created, list }
})
const afterLabel = 'GET /categories after the creations'

check('list-returns-200', `${afterLabel} → 200`, async (t) => {
  const { list } = await listAfterCreations()
  t.evidence(list)
  expectStatus(list, 200)
})

check('list-returns-category-array', `${afterLabel} → an array of Category records`, async (t) => {
  const { list } = await listAfterCreations()
  t.evidence(list)
  requireStatus(list, [200], 'list-returns-200 reports the status')
  expectSchema(list, 'CategoryList', 'an array of Category records')
})

check('created-in-list', `${afterLabel} → every created category is listed once, with the fields sent`, async (t) => {
  const { creations: created, results, list } = await listAfterCreations()
  t.evidence(...results, list)
  if (created.length === 0) throw new NotApplicable('no category was created (create-returns-201 reports why)')
  requireStatus(list, [200], 'list-returns-200 reports the status')
  const listed = conformingBody(list, 'CategoryList', 'list-returns-category-array') as CategoryRecord[]
  expectListed(created, listed, ...results, list)
})

// the list before the creations may run first; this one sees the new ids beside the old ones
check('ids-unique', `${afterLabel} → no two listed categories share an id`, async (t) => {
  const { list } = await listAfterCreations()
  t.evidence(list)
  requireStatus(list, [200], 'list-returns-200 reports the status')
  const listed = conformingBody(list, 'CategoryList', 'list-returns-category-array') as CategoryRecord[]
  expectDistinctIds(listed, 'the list after the creations', list)
})
