/** §9: the version in the address, and the deprecated GET /pets/{petId}. */
import { fail, NotApplicable } from '../../lib/checks/failure.ts'
import { deprecationNote } from '../../lib/checks/headers.ts'
import { check, once, suite } from '../../lib/suite-kit/check.ts'
import { thisRun } from '../../lib/suite-kit/run-context.ts'
import { VALID_AUTHORIZATION } from '../cases/credentials.ts'

export const versioning = suite('versioning', () => {
  const run = thisRun()
  check('base-url-ends-v1', 'the base URL → its path ends in /v1', async () => {
    const { pathname } = new URL(run.context.baseUrl)
    if (pathname.replace(/\/+$/, '').endsWith('/v1')) return
    fail({ code: 'BASE_PATH_NOT_V1', message: `the base URL path ${pathname} does not end in /v1`, expected: 'a base URL ending in /v1', actual: run.context.baseUrl })
  })

  const pet = once(() => run.client().send({ method: 'GET', path: '/pets/1', headers: { authorization: VALID_AUTHORIZATION } }))

  check('advisory-deprecation-headers', 'GET /pets/{petId} with a valid key → Deprecation and Sunset headers', async (t) => {
    const result = await t.use(pet)
    if (!result.exchange.response) throw new NotApplicable(`no response to judge: ${result.exchange.error?.message ?? 'transport error'}`)
    const note = deprecationNote(result)
    if (note) t.note(note)
  })
})
