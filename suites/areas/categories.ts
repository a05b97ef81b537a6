/**
 * Every request of the run to /categories: the list as the run finds it, every declared POST
 * (valid bodies of each input class, invalid bodies, malformed JSON, wrong types generated from the
 * schema, bad credentials), and the list that follows them. One suite, because the whole-run checks
 * compare these requests with each other (suites/categories/probes.ts says more).
 */
import { NotApplicable } from '../../lib/checks/failure.ts'
import { createChecks } from '../categories/create-checks.ts'
import { listChecks } from '../categories/list-checks.ts'
import { memberNamesCheck } from '../categories/member-names.ts'
import { stillListedCheck } from '../categories/still-listed.ts'
import { BROWSER_ACCEPT, categoryProbes } from '../categories/probes.ts'
import { refusalChecks } from '../categories/refusal-checks.ts'
import { expectListNotServedWithoutKey } from '../../lib/checks/unauthenticated.ts'
import { check, once, suite } from '../../lib/suite-kit/check.ts'
import { documentedErrorChecks } from '../../lib/suite-kit/documented-error.ts'
import { thisRun } from '../../lib/suite-kit/run-context.ts'
import { PATH_FORMS } from '../cases/path-forms.ts'

export const categories = suite('categories', () => {
  const run = thisRun()
  const probes = categoryProbes(run)

  listChecks(probes)
  createChecks(probes.creates, probes.lastList)
  refusalChecks(probes)
  stillListedCheck(probes)
  memberNamesCheck(probes)

  // §5.3: a request without the key is answered 401, whatever else it carries. A session cookie the
  // service set on its answer to the key (Spring Security's default session policy, a framework's
  // login session) is no key: it is sent back once, alone. Its values never reach the reports.
  // The first list's cookies, else the first create's: a service may sign a client in on a write alone.
  const withCookiesOnly = once(async () => {
    const first = await probes.firstList()
    const cookies = first.cookies ?? (await probes.creates[0]?.probe().catch(() => undefined))?.cookies
    if (!cookies) throw new NotApplicable('not needed: the service set no cookie on its answers to the key (the first list, the first create), so none can stand in for it', 'not-needed')
    const result = await run.client().send({ method: 'GET', path: '/categories', cookies })
    // the service's own cookies made the head larger than it reads: a limit on the size of a head, which §8 does not show (found by hostile6)
    if (result.exchange.response?.status === 431)
      throw new NotApplicable(`not verified: answered 431 (Request Header Fields Too Large) to the ${Buffer.byteLength(cookies)} bytes of cookies the service set on its answer to the key: sizes are not shown (§8)`, 'length-limit')
    return result
  })
  documentedErrorChecks('GET /categories with only the cookies the service set on its answer to the key', withCookiesOnly, 'auth-missing-key-401', 401)

  // §5.3 for a browser: no key, its Accept (HTML first) and Accept-Encoding (gzip, as the first list
  // asked), once the list was answered to the key and the first create too. A service that lets
  // browsers through, or a cache in front keyed by the URL and the coding that answers from the list
  // it kept, serves it the list. Judged on that alone: a browser without a key is sent to sign in
  // (a 302 from oauth2-proxy, an ALB, Spring's form login) or shown an HTML error page by many
  // fronts and frameworks, and the document's clients do not ask for HTML
  const firstCreate = probes.creates[0]
  const asABrowser = once(async () => {
    await Promise.allSettled([probes.firstList(), firstCreate?.probe()])
    return run.client().send({ method: 'GET', path: '/categories', headers: { accept: BROWSER_ACCEPT, 'accept-encoding': 'gzip, deflate, br' } })
  })
  /** The first create's name, if it was taken: the list's data in any shape shows it. */
  const created = async () => (firstCreate && (await firstCreate.probe().catch(() => undefined))?.exchange.response?.status === 201 ? (await firstCreate.sent()).name : undefined)
  check('auth-missing-key-401', "GET /categories with no Authorization header, as a browser asks (its Accept and Accept-Encoding), once the list was answered to the key → not the category list: 401, or a way to sign in", async (t) => {
    expectListNotServedWithoutKey(await t.use(asABrowser), await created())
  })

  // §1 rule 2, §5.1: forms of the list's path a lenient router takes for it, without a key. Sent
  // once the run's first create was answered, so that a list served to anyone has a record to
  // show (an empty store's [] shows none, and is not judged); not after the last list, which would
  // add a round trip to the run's critical path
  for (const form of PATH_FORMS.filter((f) => f.operation === 'listCategories')) {
    const probe = once(async () => {
      await firstCreate?.probe().catch(() => undefined)
      return run.client().send({ method: 'GET', path: form.path })
    })
    check('auth-missing-key-401', `GET ${form.path} (${form.label}) with no Authorization header → not the category list: 401, or a path the service does not serve`, async (t) => {
      expectListNotServedWithoutKey(await t.use(probe), await created())
    })
  }
})
