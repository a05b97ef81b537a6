/**
 * §5 and §1 rule 2: every operation, pets and store included, answers 401 without a valid bearer
 * key. The GETs are here; the POSTs are in suites/areas/categories.ts, beside the list that shows
 * whether a refused create was stored.
 */
import { NotApplicable } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { expectNotRoutedPastTheKeyCheck, expectOperationNotServedWithoutKey } from '../../lib/checks/unauthenticated.ts'
import { check, once, suite } from '../../lib/suite-kit/check.ts'
import { documentedErrorChecks } from '../../lib/suite-kit/documented-error.ts'
import { thisRun } from '../../lib/suite-kit/run-context.ts'
import { CREDENTIAL_CASES, VALID_AUTHORIZATION } from '../cases/credentials.ts'
import { answeredBeforeAuthentication, OPERATIONS } from '../cases/operations.ts'
import { PATH_FORMS } from '../cases/path-forms.ts'

/** What a 2xx to the case-swapped key after the key, on one connection, says of the service. */
const HEADER_VALUES_CACHED =
  'the service read the key in another case as the key, on a connection that had just carried the key (a curl of this request alone, on a new connection, may be refused): ' +
  'Jetty 9.4 looks the header values a client repeats on a keep-alive connection up in a cache of that connection, whatever their case (every HttpCompliance mode but LEGACY; measured on 9.4.57), ' +
  'so a gateway that keeps connections open for many clients hands it another client\'s key; turn the cache off, HttpConfiguration.setHeaderCacheSize(0) ' +
  '(Spring Boot on Jetty: a WebServerFactoryCustomizer<JettyServletWebServerFactory> that sets it on each connector), or compare the key case-sensitively if it is compared ignoring case'

export const authentication = suite('authentication', () => {
  const run = thisRun()
  for (const operation of OPERATIONS) {
    // the POSTs, and whether what they sent was stored, are suites/areas/categories.ts's
    if (operation.method !== 'GET') continue
    // the answer without any key, beside which a 404 to a header that is not the key is read
    let withoutKey: (() => Promise<HttpResult>) | undefined
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
        const refused = credential.refusedBeforeTheService
        const status = result.exchange.response?.status
        if (refused && status !== undefined && refused.refused(status)) throw new NotApplicable(`not verified: answered ${status}: ${refused.why}`)
        // or no answer, the connection closed on it (a server that refuses the byte so: FusionAuth's java-http did)
        if (refused && status === undefined && result.exchange.error?.code === 'CONNECTION_RESET') throw new NotApplicable(`not verified: the connection closed unanswered: ${refused.why}`)
        return result
      })
      if (credential.authorization(run.context.runId) === undefined) withoutKey ??= probe
      const noKey = withoutKey
      // a 404 read beside that answer (which its own checks judge: awaited, not kept as evidence here unless it tells)
      const pastTheKeyCheck = async (result: HttpResult) => {
        if (noKey === probe || result.exchange.response?.status !== 404) return
        const answered = await noKey!().catch(() => undefined)
        if (answered) expectNotRoutedPastTheKeyCheck(result, answered)
      }
      documentedErrorChecks(`${operation.label} with ${credential.label}`, probe, credential.rule, 401, undefined, pastTheKeyCheck)
    }
  }

  // the case-swapped key right after the key, on one connection of their own: a server that reads
  // headers through a cache of the values earlier requests on the connection sent, matched whatever
  // their case, reads it as the key (Jetty 9.4's per-connection field cache, measured on 9.4.57);
  // among the run's other requests it follows the key on one connection only by chance
  const swapped = CREDENTIAL_CASES.find((c) => c.key === 'key-case-swapped') as (typeof CREDENTIAL_CASES)[number]
  let keyBefore: HttpResult | undefined
  const afterTheKey = once(async () => {
    const unusable = swapped.unusableWith?.(run.context.apiKey)
    if (unusable) throw new NotApplicable(`not verified: ${unusable}`, 'key-unusable')
    const connection = 'key-then-case-swapped'
    // the key goes first to the store's orders (§1 names the operation), not the list: the field
    // cache is the connection's, whatever the path, and a list read more at a time of its own is one
    // the checks of the lists after the POSTs could meet (and a list of many categories to fetch)
    // both sent at once: the second waits on the connection and goes right after the first's answer, never after an idle
    // pause the client closes it in (awaited first, it went on a new connection under load, and Jetty's cache passed)
    const first = run.client().send({ method: 'GET', path: '/store/orders', headers: { authorization: VALID_AUTHORIZATION }, connection })
    const second = run.client().send({ method: 'GET', path: '/categories', headers: { authorization: swapped.authorization(run.context.runId) as string }, connection })
    keyBefore = await first
    return second
  })
  documentedErrorChecks(`GET /categories with ${swapped.label}, on a connection that has just carried the key`, afterTheKey, swapped.rule, 401, HEADER_VALUES_CACHED, async (_, t) => {
    if (keyBefore) t.evidence(keyBefore)
  })

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
