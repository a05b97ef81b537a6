/**
 * A failure names ASP.NET Core's default behind an empty answer from Kestrel and how it is changed
 * (lib/checks/aspnet-answers.ts), as emulated from ASP.NET Core 8's documented defaults (no .NET on
 * this machine): endpoint routing's empty 404, JwtBearer's empty 401, a minimal API's empty 400.
 * Before, the 404 was named as Bun.serve's and the 401 as Spring Security's; the 400 had no words.
 */
import { expect, test } from 'vitest'
import { expectJsonContentType, expectStatus, jsonBodyOf } from '../../lib/checks/response.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const failureOf = (check: () => unknown) => {
  const verdict = verdictOf(check)
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  return verdict
}
const kestrel = (status: number, headers: Record<string, string> = {}) => makeResponse({ status, headers: { server: 'Kestrel', ...headers }, body: '', path: status === 404 ? '/store/orders' : '/categories' })

test("an empty 404 from Kestrel where §5 asks 401: endpoint routing without a fallback policy, not Bun's", () => {
  const message = failureOf(() => expectStatus(kestrel(404), 401)).message
  expect(message).toMatch(/expected 401: an empty 404 from Kestrel is ASP\.NET Core's endpoint routing .*FallbackPolicy/)
  expect(message).not.toMatch(/Bun/)
  expect(failureOf(() => expectStatus(makeResponse({ status: 404, headers: {}, body: '' }), 401)).message).toMatch(/Bun\.serve/)
})

test("an empty 401 from Kestrel: JwtBearer's challenge, by the body check and the media type check alike, not Spring's", () => {
  const result = kestrel(401, { 'www-authenticate': 'Bearer' })
  for (const message of [failureOf(() => jsonBodyOf(result)).message, failureOf(() => expectJsonContentType(result)).message]) {
    expect(message).toMatch(/an empty 401 from Kestrel is ASP\.NET Core's JwtBearer handler .*OnChallenge/)
    expect(message).not.toMatch(/Spring/)
  }
})

test('an empty 400 from Kestrel: a minimal API that could not bind the body; another server\'s empty 400 is not', () => {
  expect(failureOf(() => jsonBodyOf(kestrel(400))).message).toMatch(/^the 400 body is not valid JSON; an empty 400 from Kestrel is an ASP\.NET Core minimal API .*UseStatusCodePages/)
  expect(failureOf(() => jsonBodyOf(makeResponse({ status: 400, headers: {}, body: '' }))).message).not.toMatch(/Kestrel/)
})
