/**
 * A Rails 6.1 API service as its scaffold and guides write it (measured on Debian 12's ruby-rails
 * on Puma with sqlite3, a /tmp service apart from the repository): `authenticate_or_request_with_http_token`
 * reads a token under the Token scheme as under Bearer (and takes what precedes a comma for the
 * token), and the scaffold's
 * `params.require(:category).permit(:name, :description)` takes a body with no name of its own
 * when it holds the record under "category". Both passed the suite before it sent either; each is
 * a violation (§5.2, §5.3: the key under another scheme is no bearer key; §4.2 rule 1: the body
 * lacks name), and each failure names the Rails default behind it.
 */
import { describe, expect, test } from 'vitest'
import { conformingBehaviour, startReferenceServer, type Behaviour } from '../../lib/server/reference-server.ts'
import { isPlainObject } from '../../lib/server/server-cases.ts'
import { runsWithKey, type ConformRun } from '../helpers/run-conform.ts'

const KEY = 'rails-defaults-key-0123456789xyz'
const { serve, conform } = runsWithKey(KEY)

/** The Rails service as measured, but for what it does otherwise wrong (its 401 text, its 422s, its null descriptions), so that only these two show. */
const rails: Partial<Behaviour> = {
  // ActionController::HttpAuthentication::Token: TOKEN_REGEX = /^(Token|Bearer)\s+/, then token_and_options
  // takes what precedes , ; or a tab for the token, without token= and its quotes
  authorize(authorization, key, operation, cookie) {
    const match = /^(?:Token|Bearer)\s+(.*)$/.exec(authorization ?? '')
    if (!match) return false
    const token = match[1]!.split(/\s*[,;\t]\s*/)[0]!.replace(/^token=/, '').replace(/^"|"$/g, '')
    return conformingBehaviour.authorize(`Bearer ${token}`, key, operation, cookie)
  },
  // wrap_parameters copies the top-level keys under "category" only when the body has no such key; params.require(:category) reads there
  parseBody(text) {
    const body = JSON.parse(text) as unknown
    return isPlainObject(body) && !('name' in body) && isPlainObject(body.category) ? body.category : body
  },
}

const failuresOf = (run: ConformRun, rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail').map((c) => ({ name: c.name, message: c.failure?.message ?? '' }))

describe('a Rails service as its scaffold and token check come', () => {
  test('the key under the Token scheme, the key before a comma and the record under "category" fail their rules, each naming the Rails default', async () => {
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: rails })))
    expect(run.code, run.stdout).toBe(1)
    expect(failuresOf(run, 'auth-invalid-key-401')).toEqual([
      { name: 'GET /categories with the key followed by a comma and another word → 401', message: expect.stringMatching(/^GET answered 200, expected 401: the token was read as what precedes the comma: Rails' token_and_options/) },
      { name: 'GET /categories with the key under the Token scheme → 401', message: expect.stringMatching(/^GET answered 200, expected 401: the key was taken under the Token scheme: Rails' authenticate_with_http_token/) },
    ])
    expect(failuresOf(run, 'create-rejects-missing-name')).toEqual([
      {
        name: 'POST /categories with a body without name, holding a NewCategory under the key "category" → 400',
        message: expect.stringMatching(/^POST answered 201, expected 400: the service read the record under the key "category", as the Rails scaffold's params\.require\(:category\)/),
      },
    ])
    // nothing else: the two are what this service does wrong
    expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id).sort()).toEqual(['auth-invalid-key-401', 'create-rejects-missing-name'])
  }, 60_000)
})
