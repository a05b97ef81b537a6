/**
 * What gateways answer themselves is named as theirs (lib/checks/gateway-answers.ts): Envoy's
 * jwt_authn and RBAC texts (Istio's policies), and the 404 a gateway gives a path it routes nowhere
 * (API Gateway's HTTP APIs, Kong, Traefik, Envoy). Measured against emulations in front of the
 * reference server (docs/adoption.md). The code and the verdict stay those of the check.
 */
import { describe, expect, test } from 'vitest'
import { expectErrorRecord } from '../../lib/checks/error-record.ts'
import { expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { awsPolicyCached } from '../../lib/checks/gateway-answers.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}
describe("Envoy's own text answers (jwt_authn, RBAC, Istio's policies)", () => {
  test('"Jwt is missing": whose text it is, and the local_reply_config that writes the Error record', () => {
    const failure = failureOf(() => expectErrorRecord(makeResponse({ status: 401, headers: { 'content-type': 'text/plain', server: 'envoy' }, body: 'Jwt is missing' })))
    expect(failure.code).toBe('NOT_JSON')
    expect(failure.message).toMatch(/"Jwt is missing" is Envoy's own answer, its jwt_authn filter's \(Istio's RequestAuthentication\).*local_reply_config/)
  })

  // measured against emulations: a gateway that routes the categories alone (docs/adoption.md)
  test.each([
    ["AWS API Gateway's HTTP APIs and echo's router", { 'content-type': 'application/json' }, '{"message":"Not Found"}'],
    ['Kong', { 'content-type': 'application/json; charset=utf-8', server: 'kong/3.9.0' }, '{\n  "message":"no Route matched with those values",\n  "request_id":"4e2b0c1f"\n}'],
    ["Traefik, Go's net/http and gin", { 'content-type': 'text/plain; charset=utf-8' }, '404 page not found\n'],
    ['Envoy', { server: 'envoy' }, ''],
  ])("%s's own 404 for GET /store/orders without a key: the gateway's route, not a Node router's", (gateway, headers, body) => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 404, headers, body, path: '/store/orders' }), 401))
    expect(failure.message.startsWith(`GET answered 404, expected 401: it is the 404 that ${gateway} give a path they route nowhere, before any key is looked at`)).toBe(true)
    expect(failure.message).not.toMatch(/NestJS/)
  })

  test('"RBAC: access denied" where §5.3 asks 401: its RBAC filter, not a gateway authorizer', () => {
    const failure = failureOf(() => expectStatus(makeResponse({ status: 403, headers: { 'content-type': 'text/plain', server: 'envoy' }, body: 'RBAC: access denied' }), 401))
    expect(failure.message).toMatch(/^GET answered 403, expected 401: Envoy's RBAC filter answers 403/)
    expect(failure.message).not.toMatch(/AWS API Gateway/)
  })
})

// measured by stackhunt12 against an emulation of a REST API's Lambda authorizer (mutation authorizer-policy-cached-for-the-first-route)
describe("AWS API Gateway's refusal where a Lambda authorizer's policy does not allow the request", () => {
  const denied = (method: 'GET' | 'POST', authorization: string) =>
    makeResponse({ status: 403, method, headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' }, body: '{"Message":"User is not authorized to access this resource with an explicit deny"}', requestHeaders: { authorization } })
  test('a POST with an empty bearer token: API Gateway\'s answer and the authorizer\'s "Unauthorized", not Spring Security\'s CSRF protection', () => {
    const failure = failureOf(() => expectStatus(denied('POST', 'Bearer '), 401))
    expect(failure.code).toBe('UNEXPECTED_STATUS')
    expect(failure.message).toMatch(/^POST answered 403, expected 401: AWS API Gateway answers 403 itself where a Lambda authorizer's policy does not allow the request .*throw new Error\('Unauthorized'\).*UNAUTHORIZED and ACCESS_DENIED/)
    expect(failure.message).not.toMatch(/CSRF/)
    expect(failureOf(() => expectStatus(denied('GET', 'Bearer wrong'), 401)).message).toMatch(/: AWS API Gateway answers 403 itself/)
    expect(failureOf(() => expectStatus(denied('GET', 'Bearer wrong'), 401)).message).toMatch(/allow the request \(an explicit deny: the policy's Effect is Deny\); /)
    const implicit = makeResponse({ status: 403, headers: { 'content-type': 'application/json' }, body: '{"Message":"User is not authorized to access this resource"}' })
    expect(failureOf(() => expectStatus(implicit, 401)).message).toMatch(/allow the request; §5\.3 asks 401/)
  })
  test("a create refused where the key's GETs were served: the policy cached by the token for the first route", () => {
    const implicit = makeResponse({ status: 403, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"Message":"User is not authorized to access this resource"}' })
    expect(awsPolicyCached(implicit.exchange.response!)).toMatch(/^it is AWS API Gateway's refusal .*Resource: event\.methodArn.*cached by the token \(300 s/)
    // review56: an explicit deny is the policy's own Deny, not an Allow cached for another route
    expect(awsPolicyCached(denied('POST', 'Bearer k').exchange.response!)).toBeUndefined()
    // review56: the sentence in an Error record of the service's own (a role check), with no header of API Gateway's, is no API Gateway answer
    const own = makeResponse({ status: 403, method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"code":"forbidden","message":"User is not authorized to access this resource","status":403}' })
    expect(awsPolicyCached(own.exchange.response!)).toBeUndefined()
    expect(failureOf(() => expectStatus(own, 401)).message).not.toMatch(/API Gateway answers 403 itself/)
    // a gateway response template that writes the Error record keeps API Gateway's x-amzn-ErrorType
    const templated = makeResponse({ status: 403, method: 'POST', headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' }, body: own.exchange.response!.body })
    expect(awsPolicyCached(templated.exchange.response!)).toMatch(/^it is AWS API Gateway's refusal/)
    expect(awsPolicyCached(makeResponse({ status: 403, body: '{"code":"forbidden","message":"no write scope","status":403}' }).exchange.response!)).toBeUndefined()
  })
})

// measured by stackhunt12 on an emulation of a gateway response template for UNAUTHORIZED written "message":"$context.error.messageString"
test('a value quoted twice names the gateway response template and $context.error.messageString', () => {
  const failure = failureOf(() => jsonBodyOf(makeResponse({ status: 401, body: '{"code":"unauthorized","message":""Unauthorized"","status":401}' })))
  expect(failure.code).toBe('NOT_JSON')
  expect(failure.message).toMatch(/^the 401 body is not valid JSON.*a value quoted twice .*"\$context\.error\.messageString".*already quoted/)
  // an empty string value is no such thing
  expect(failureOf(() => jsonBodyOf(makeResponse({ status: 401, body: '{"code":"","message":"", status: 401}' }))).message).not.toMatch(/quoted twice/)
  // review56: a page's script may hold :""x (an empty string joined to a name); it is no template's JSON
  const page = '<html><body><script>render({label:""+name, title:""})</script></body></html>'
  expect(failureOf(() => jsonBodyOf(makeResponse({ status: 401, headers: { 'content-type': 'text/html' }, body: page }))).message).not.toMatch(/quoted twice|API Gateway/)
})
