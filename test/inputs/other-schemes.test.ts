/**
 * §5.1 and §5.2: the key goes under the Bearer scheme. Two schemes real services take it under
 * besides, which no request sent, so such services passed under every seed; the list is now asked
 * for with each (reads, no write):
 * - Token <key>: Django REST framework's TokenAuthentication (its keyword, Token), left in beside
 *   the bearer authentication, and Rails' authenticate_with_http_token (mutation token-scheme-accepted).
 * - Basic base64(<key>:<key>): HTTP Basic with the key as the user name, as Stripe's API takes it
 *   (curl -u KEY:), or as the password, whatever the user, as Heroku's and Mailgun's APIs take theirs
 *   (curl -u :KEY, api:KEY): the key as both catches either (mutations basic-credentials-with-key-accepted,
 *   basic-password-key-accepted). The key under Basic as it is (basic-scheme) is no such credential.
 */
import { describe, expect, test } from 'vitest'
import { KEY_AS_BASIC_USER_AND_PASSWORD } from '../../lib/http/redact.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'other-schemes-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)
const BASIC_CHECK = 'GET /categories with the key as the user name and the password of HTTP Basic credentials (curl -u KEY:KEY) → 401'

describe('the key under another scheme', () => {
  test.each([
    ['token-scheme-accepted', 'GET /categories with the key under the Token scheme → 401', 'Token $CONFORM_API_KEY'],
    ['basic-credentials-with-key-accepted', BASIC_CHECK, `Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}`],
    ['basic-password-key-accepted', BASIC_CHECK, `Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}`],
  ])('%s: auth-invalid-key-401 fails on the list asked for with it, and only there', async (name, check, recorded) => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === name)!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.find((r) => r.id === 'auth-invalid-key-401')!.checks.filter((c) => c.status === 'fail')
    expect(failed.map((c) => `${c.name}: ${c.failure?.code}`)).toEqual([`${check}: UNEXPECTED_STATUS`])
    // the key itself never shows: the evidence has its stand-in
    expect(failed[0]!.exchanges.at(-1)?.request.headers.authorization).toBe(recorded)
  }, 60_000)
})
