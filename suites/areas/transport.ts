/**
 * How answers travel: nothing the document states, so advisory only. The client asks for
 * `Accept-Encoding: identity` and decodes gzip, deflate and br anyway (lib/http/body-reader.ts);
 * a server that compresses regardless gets a note, never a failure.
 */
import { NotApplicable } from '../../lib/checks/failure.ts'
import { check, once, suite } from '../../lib/suite-kit/check.ts'
import { thisRun } from '../../lib/suite-kit/run-context.ts'
import { VALID_AUTHORIZATION } from '../cases/credentials.ts'

export const transport = suite('transport', () => {
  const run = thisRun()
  // not /categories: every request to it lives in suites/areas/categories.ts, where the whole-run checks compare them
  const orders = once(() => run.client().send({ method: 'GET', path: '/store/orders', headers: { authorization: VALID_AUTHORIZATION } }))

  check('advisory-identity-encoding', 'GET /store/orders with Accept-Encoding: identity → a body without a content coding', async (t) => {
    const result = await t.use(orders)
    const response = result.exchange.response
    if (!response) throw new NotApplicable(`no response to judge: ${result.exchange.error?.message ?? 'transport error'}`)
    if (response.contentEncoding) {
      t.note(`the body came with Content-Encoding: ${response.contentEncoding} although the request accepted only identity; the suite decoded it (RFC 9110 §12.5.3)`)
    }
  })
})
