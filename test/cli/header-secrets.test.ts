/**
 * Which --header values are hidden in every output as the key is: those of a name that says it
 * holds a secret, and those that read as a credential whatever their name (a gateway's signed
 * assertion in X-JWT-Assertion, a subscription key in a header named after a product). The
 * values a gateway wants beside them (a tenant, a version) are shown.
 */
import { expect, test } from 'vitest'
import { parseExtraHeaders, secretValues } from '../../lib/config/extra-headers.ts'

const secretsOf = (...lines: string[]) => {
  const headers = parseExtraHeaders(lines, '--header')
  if ('problem' in headers) throw new Error(headers.problem)
  return secretValues(headers)
}

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjb25mb3JtIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk'

test.each([
  // by the name
  ['X-Gateway-Token: acme', 'acme'],
  ['Cookie: sid=1', 'sid=1'],
  ['X-JWT-Assertion: abc', 'abc'],
  ['X-Signature: s1x', 's1x'],
  ['X-Session-Id: s2y', 's2y'],
  // by the value: a JWT, and a long run of letters and digits mixed, whatever the name
  [`X-JWT-Assertion: ${JWT}`, JWT],
  [`X-Forwarded-Client: ${JWT}`, JWT],
  ['X-Apim-Sub: 4f1c9e2ab7d34c0e9a1b2c3d4e5f6a7b', '4f1c9e2ab7d34c0e9a1b2c3d4e5f6a7b'],
  ['X-Consumer: sk_live_51H8xYz2eZvKYlo2C', 'sk_live_51H8xYz2eZvKYlo2C'],
  ['X-Consumer: sk.live.4f1c9e2ab7d34c0e', 'sk.live.4f1c9e2ab7d34c0e'],
])('%s → hidden', (line, value) => {
  expect(secretsOf(line)).toEqual([value])
})

test.each([['X-Tenant: acme'], ['X-Api-Version: 2'], ['Accept-Language: en-GB'], ['X-Region: eu-west-1'], ['X-Feature-Flags: new-list,fast-create'], ['X-Client: conformance-suite-nightly'],
  // an id (a UUID) and a dated version read as no credential: hidden, the curl line sent "[REDACTED]" as the tenant
  ['X-Tenant-Id: 0f8fad5b-d9cb-469f-a165-70867728950e'],
  ['X-Correlation-Id: 0F8FAD5B-D9CB-469F-A165-70867728950E'],
  ['Api-Version: 2024-02-15-preview'],
  ['Stripe-Version: 2023-10-16.acacia'],
  // a host name with a digit in it, as a gateway in front wants it forwarded
  ['X-Forwarded-Host: api.eu1.petstore.example'],
])('%s → shown', (line) => {
  expect(secretsOf(line)).toEqual([])
})

// hidden as the key is, one of one or two characters or of punctuation alone hid the reports' own text (`1` every standing 1): refused as such a key is, the value not quoted
test.each([['X-Signature: s1'], ['X-Api-Key: 1'], ['X-Session-Id: --:'], ['X-Api-Key: 1,2'], ['X-Auth-Token: 200,']])('%s → refused', (line) => {
  const parsed = parseExtraHeaders([line], '--header')
  expect(parsed).toEqual({ problem: expect.stringMatching(/^--header: the value of x-[a-z-]+ is a secret \(by its name\) that (is shorter than three characters|holds no letter or digit|is made of JSON's numbers, literals and punctuation \(, : \[ \] \{ \}\) alone): /) })
  expect((parsed as { problem: string }).problem).not.toContain(line.slice(line.indexOf(':') + 2))
})
