/**
 * A front that answers each request on a kept-alive connection with the answer of the request
 * before it there (a response desync: hostile11), the first on each connection with its own. Its
 * failures were told as "answered differently on a second probe (one replica behind a load
 * balancer?)", "creates answered with one another's records, which depends on which of the creates
 * sent at once the service stored last" and "requests without a valid key were served": now one
 * finding says answers were written for other requests, with the GET answered 201 with a create's
 * record as its example, and the differing ones point to it (lib/result/other-answers.ts).
 */
import { randomBytes } from 'node:crypto'
import type { Socket } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import { answerOfAnother, sentNames } from '../../lib/result/other-answers.ts'
import { faultGroups } from '../../lib/result/fault-groups.ts'
import { check, exchange as built, runResult } from '../reporters/fixture.ts'
import { plain, runBehindFront, type Shape } from './wire-fronts.ts'

const KEY = `desync-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

const previous = new WeakMap<Socket, Buffer>()
/** Each request answered with the answer of the one before it on its connection. */
const oneBehind: Shape = (answer, socket) => {
  const own = plain(answer)
  const before = previous.get(socket)
  previous.set(socket, own)
  return { bytes: before ?? own }
}

describe('answers one behind their requests on each connection', () => {
  test('fails, and the finding says answers were written for other requests, not a replica nor a race', async () => {
    const { run } = await runBehindFront(KEY, oneBehind, closers, ['--deadline', '60000'])
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).toMatch(/^✗ [\w ]+: \d+ checks? met answers written for other requests: GET \/v1\/categories was answered 201 with one record, the one a create of this run sent/m)
    expect(run.stdout).not.toMatch(/one replica behind a load balancer\?|which depends on which of the creates sent at once/)
    expect(run.stdout).not.toMatch(/requests without a valid key \(none, or one not issued\) were served/)
  }, 120_000)
})

const exchange = (method: 'GET' | 'POST', status: number, body: unknown, sent?: unknown): Exchange =>
  ({ id: 'x', startedAt: '', durationMs: 1, request: { method, url: 'http://h/v1/categories', headers: {}, ...(sent !== undefined ? { body: JSON.stringify(sent) } : {}) }, response: { status, headers: {}, body: JSON.stringify(body), bodyBytes: 1, bodyTruncated: false } }) as unknown as Exchange

describe('an answer written for another request, from the run\'s own evidence', () => {
  const a = { id: 7, name: 'cf-abcde-first' }
  const b = { id: 8, name: 'cf-abcde-second' }
  const names = sentNames([exchange('POST', 201, a, { name: a.name }), exchange('POST', 201, b, { name: b.name })])
  test('a GET answered 201 with a create\'s record, a POST answered with a list without its own record', () => {
    expect(answerOfAnother(exchange('GET', 201, a), names)).toMatch(/^GET \/v1\/categories was answered 201 with one record, the one a create of this run sent \("cf-abcde-first"\)/)
    expect(answerOfAnother(exchange('POST', 200, [a], { name: b.name }), names)).toMatch(/^POST \/v1\/categories was answered 200 with a list of this run's records/)
  })
  test('not an answer that may be its own', () => {
    expect(answerOfAnother(exchange('GET', 200, a), names)).toBeUndefined() // a list route that answers its newest record: its own fault
    expect(answerOfAnother(exchange('POST', 200, [a, b], { name: b.name }), names)).toBeUndefined() // a create answered with the whole list
    // review26: its own name short ('0' and '' are valid creates) or kept trimmed: still its own list, not another request's answer
    expect(answerOfAnother(exchange('POST', 201, [a, { id: 9, name: '0' }], { name: '0' }), names)).toBeUndefined()
    expect(answerOfAnother(exchange('POST', 201, [a, { id: 9, name: 'cf-abcde-padded' }], { name: '  cf-abcde-padded\r\n\t ' }), names)).toBeUndefined()
    expect(answerOfAnother(exchange('GET', 201, { id: 1, name: 'dog' }), names)).toBeUndefined() // no name of the run's
    expect(answerOfAnother(exchange('GET', 200, [a, b]), names)).toBeUndefined()
  })
})

// hostile12: a keyless GET handed a keyed GET's list (the desync's answer of the request before it) read as "requests without a
// valid key were served" beside the finding; in a run whose answers are shown out of step it is one of those answers
describe('a request without the key served, in a run whose answers are out of step', () => {
  const list = '[{"id":1,"name":"conform-20260101-0000-abcd-plain"}]'
  const keyless = (rule: string) =>
    check(`${rule}: GET /categories with no Authorization header`, 'fail', {
      exchanges: [built({ request: { method: 'GET', url: 'https://petstore.example/v1/categories', headers: {} } }, 200, list)],
      failure: { code: 'UNEXPECTED_STATUS', message: 'GET answered 200, expected 401', expected: 'status 401', actual: 'status 200', observed: 'status 200' },
      recurrence: { attempts: 2, failures: 2, kind: 'deterministic' },
    })
  // a GET with the key answered 201 with the record the run's create sent: an answer written for another request
  const shown = check('GET /categories after the creates', 'fail', {
    exchanges: [built({ request: { method: 'GET', url: 'https://petstore.example/v1/categories', headers: { authorization: 'Bearer $CONFORM_API_KEY' } } }, 201, '{"id":1,"name":"conform-20260101-0000-abcd-plain"}')],
    failure: { code: 'UNEXPECTED_STATUS', message: 'GET answered 201, expected 200', expected: 'status 200', actual: 'status 201', observed: 'status 201' },
    recurrence: { attempts: 2, failures: 2, kind: 'deterministic' },
  })
  const create = check('POST /categories', 'pass')
  const refused = check('POST /categories with the key', 'fail', {
    exchanges: [built({}, 401, '{"code":"unauthorized","message":"no","status":401}')],
    failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 401, expected 201', expected: 'status 201', actual: 'status 401', observed: 'status 401' },
    recurrence: { attempts: 2, failures: 2, kind: 'deterministic' },
  })
  const run = (keyRefused: boolean) =>
    runResult((id) =>
      id === 'auth-missing-key-401' || id === 'auth-invalid-key-401'
        ? [keyless(id)]
        : id === 'list-returns-200'
          ? [shown]
          : id === 'create-returns-201'
            ? [create, ...(keyRefused ? [refused] : [])]
            : [check(`${id} check`, 'pass')],
    )
  test('one finding: answers written for other requests, the keyless GETs served among its checks', () => {
    const groups = faultGroups(run(true))
    expect(groups.map((g) => g.cause)).not.toContain('key-not-checked')
    const other = groups.find((g) => g.cause === 'other-answers')
    expect(other?.rules).toEqual(expect.arrayContaining(['auth-missing-key-401', 'auth-invalid-key-401', 'list-returns-200']))
    expect(other?.what).toMatch(/^3 checks met answers written for other requests: GET \/v1\/categories was answered 201 with one record/)
  })
  test('no request with the key refused (a service that checks no key refuses nothing): a key not checked still', () => {
    expect(faultGroups(run(false)).map((g) => g.cause)).toEqual(expect.arrayContaining(['other-answers', 'key-not-checked']))
  })
  // review35: a service that checks no key, with another fault that refused the key once (a 401 on a create) and an answer
  // shown written for another request (a cache keyed without the method): its keyless GETs, served again and again, were
  // all told as answers out of step, and the key not checked was no finding
  test('one request with the key refused, many without it served: a key not checked still', () => {
    const served = (rule: string) => {
      const keyless = built({ request: { method: 'GET', url: 'https://petstore.example/v1/categories', headers: {} } }, 200, list)
      return check(`${rule}: GET /categories with no Authorization header`, 'fail', {
        exchanges: [keyless, { ...keyless, id: `${keyless.id}-again` }, { ...keyless, id: `${keyless.id}-third` }],
        failure: { code: 'UNEXPECTED_STATUS', message: 'GET answered 200, expected 401', expected: 'status 401', actual: 'status 200', observed: 'status 200' },
        recurrence: { attempts: 3, failures: 3, kind: 'deterministic' },
      })
    }
    const result = runResult((id) =>
      id === 'auth-missing-key-401' || id === 'auth-invalid-key-401' ? [served(id)] : id === 'list-returns-200' ? [shown] : id === 'create-returns-201' ? [create, refused] : [check(`${id} check`, 'pass')],
    )
    expect(faultGroups(result).map((g) => g.cause)).toEqual(expect.arrayContaining(['other-answers', 'key-not-checked']))
  })
})
