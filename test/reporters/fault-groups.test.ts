/**
 * One fault, one finding (lib/result/fault-groups.ts): failures of several rules that share a cause
 * are one line with its rate and what the re-probes showed, first in every report a person reads.
 */
import { expect, test } from 'vitest'
import { faultGroups, recurrenceWords } from '../../lib/result/fault-groups.ts'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { terminalSummary } from '../../lib/reporters/terminal-summary.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { check, exchange, runResult } from './fixture.ts'
import type { Exchange } from '../../lib/http/exchange.ts'

const fault500 = (name: string) =>
  check(name, 'fail', {
    exchanges: [exchange({}, 500, '{"code":"internal","message":"replica failed","status":500}')],
    failure: { code: 'SERVER_ERROR', message: 'POST answered 500, expected 400', expected: 'status 400', actual: 'status 500' },
    recurrence: { attempts: 2, failures: 1, kind: 'intermittent' },
  })
const SERVER_FAULT_RULES = ['create-rejects-invalid-values', 'create-rejects-invalid-json', 'auth-invalid-key-401', 'list-returns-200']

test('5xx answers across four rules, each answered correctly when probed again: one intermittent finding with its rate, before the rules', () => {
  const result = runResult((id) => (SERVER_FAULT_RULES.includes(id) ? [fault500(`${id} check`)] : [check(`${id} check`, 'pass')]))
  const faults = faultGroups(result)
  expect(faults).toHaveLength(1)
  const requests = result.summary.requests
  expect(faults[0]).toMatchObject({ cause: 'server-error', checks: 4 })
  expect(faults[0].line).toMatch(new RegExp(`^intermittent: 4 of ${requests} requests answered 500 \\(\\d+(\\.\\d)? %\\), across 4 rules; every re-probe was answered correctly$`))
  const terminal = terminalSummary(result, [])
  expect(terminal.indexOf(`✗ ${faults[0].line}`)).toBeGreaterThan(-1)
  expect(terminal.indexOf(`✗ ${faults[0].line}`)).toBeLessThan(terminal.indexOf('list-returns-200'))
  expect(terminal).toContain('recurred: intermittent: failed 1 of 2 probes')
  const markdown = markdownSummary(result)
  expect(markdown.indexOf('### Faults')).toBeLessThan(markdown.indexOf('### Failures'))
  expect(htmlReport(result)).toContain('<section id="faults">')
})

test('a fault on every probe is deterministic; failures of other causes make no fault group; no recurrence, no words', () => {
  const deterministic = check('c', 'fail', { failure: { code: 'SERVER_ERROR', message: 'm', expected: 'e', actual: 'a' }, recurrence: { attempts: 3, failures: 3, kind: 'deterministic' } })
  expect(faultGroups(runResult((id) => [id === 'create-returns-201' ? deterministic : check(`${id} check`, 'pass')]))[0]?.line).toMatch(/^deterministic: .* across 1 rule \(create-returns-201\); every re-probe failed the same way \(2 of 2 checks' re-runs\)$/)
  const other = check('c', 'fail', { recurrence: { attempts: 3, failures: 3, kind: 'deterministic' } })
  expect(faultGroups(runResult((id) => [id === 'create-returns-201' ? other : check(`${id} check`, 'pass')]))).toEqual([])
  expect(recurrenceWords([check('c', 'fail')])).toBe('')
  expect(recurrenceWords([check('c', 'fail', { recurrence: { attempts: 1, failures: 1, kind: 'unconfirmed' } })])).toBe('unconfirmed')
})

test('failures whose re-probes were all kept back by a stalled operation (--timeout) say so, in the finding and under each failure; mixed causes say each, and a cause unknown keeps the general words', () => {
  const lost = (cause?: 'stalled' | 'deadline' | 'not-needed') =>
    check('c', 'fail', { failure: { code: 'NO_RESPONSE', message: 'm', expected: 'e', actual: 'a' }, recurrence: { attempts: 1, failures: 1, kind: 'unconfirmed', ...(cause ? { cause } : {}) } })
  const stalled = faultGroups(runResult((id) => [id === 'list-returns-200' ? lost('stalled') : check(`${id} check`, 'pass')]))
  expect(stalled[0]?.line).toMatch(/; not probed again: its operation had left a request unanswered past --timeout, so no more of its requests were sent \(a longer --timeout probes it again\)$/)
  expect(recurrenceWords([lost('stalled')])).toBe('unconfirmed: its operation had left a request unanswered past --timeout, so no more of its requests were sent (a longer --timeout probes it again)')
  expect(recurrenceWords([lost('stalled'), lost('deadline')])).toBe('unconfirmed: its operation had left a request unanswered past --timeout, so no more of its requests were sent (a longer --timeout probes it again); or the deadline came first')
  // stalled for some, not needed for others: each said, not "(--confirm 0, the write budget or the deadline)", none of which happened
  const mixed = faultGroups(runResult((id) => (id === 'list-returns-200' ? [lost('stalled'), lost('not-needed')] : [check(`${id} check`, 'pass')])))
  expect(mixed[0]?.line).toMatch(/; not probed again: its operation had left a request unanswered past --timeout, .*; or the run needed no request of it again \(no selected rule judges it, or the first answers made it unnecessary\)$/)
  expect(mixed[0]?.line).not.toContain('--confirm 0')
  expect(recurrenceWords([lost()])).toBe('unconfirmed')
  expect(recurrenceWords([lost('stalled'), lost()])).toBe('unconfirmed')
})

test('a list that failed as the run found the store and passed when read again after its creates: the finding says the store changed in between, not only a replica', () => {
  const listFailure = (name: string) =>
    check(name, 'fail', {
      exchanges: [exchange({ request: { method: 'GET', url: 'https://petstore.example/v1/categories', headers: {} } }, 200, 'null')],
      failure: { code: 'SCHEMA_MISMATCH', message: 'the list is not an array', expected: 'an array', actual: 'null' },
      recurrence: { attempts: 3, failures: 1, kind: 'intermittent' },
    })
  const rules = ['list-returns-category-array', 'ids-unique']
  const checksOf = (id: string) => (rules.includes(id) ? [listFailure(`${id} check`)] : [check(`${id} check`, 'pass')])
  const created = runResult(checksOf, { ledger: [{ id: '7', name: 'cf-abcde-plain', status: 201, exchangeId: 'none' }] })
  expect(faultGroups(created)[0]?.line).toMatch(/^intermittent: 2 checks were answered differently when the list was read again, after the run's creates had changed the store \(a list that breaks on some content, an empty store or a record, or one replica behind a load balancer\?\), across 2 rules; every re-probe was answered correctly$/)
  // no create in between (a read-only run): the same answers differing can only be the service's
  expect(faultGroups(runResult(checksOf))[0]?.line).toMatch(/^intermittent: 2 checks were answered differently on a second probe \(one replica behind a load balancer\?\)/)
})

test("creates answered with one another's records (measured: PHP reading back ORDER BY id DESC LIMIT 1 under php-fpm): the finding names the race between the run's creates, not a replica", () => {
  const raced = (kind: 'intermittent' | 'deterministic') =>
    check('create-echoes-fields check', 'fail', {
      failure: { code: 'FIELD_CHANGED', message: 'the created record changed "name"; the answer is another create\'s record (its "name" holds cf-abcde-plain, which this body did not send): …', expected: 'name', actual: 'name' },
      recurrence: kind === 'intermittent' ? { attempts: 2, failures: 1, kind } : { attempts: 3, failures: 3, kind },
    })
  const line = faultGroups(runResult((id) => (id === 'create-echoes-fields' ? [raced('intermittent'), raced('deterministic')] : [check(`${id} check`, 'pass')])))[0]?.line
  expect(line).toMatch(/^partly intermittent: 1 check was answered differently on a second probe, and 1 more met the same failure on every probe: creates answered with one another's records, which depends on which of the creates sent at once the service stored last, across 1 rule/)
  expect(line).not.toMatch(/load balancer/)
})

test('one replica of four behind a random balancer: a check that met it on every probe, with the failure other checks passed on a re-probe, is the same finding, not a second fault', () => {
  const answered200 = (kind: 'intermittent' | 'deterministic', actual = 'status 200') =>
    check('c', 'fail', {
      failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 200, expected 201', expected: 'status 201', actual },
      recurrence: kind === 'intermittent' ? { attempts: 2, failures: 1, kind } : { attempts: 3, failures: 3, kind },
    })
  const checksOf = (id: string) =>
    id === 'create-returns-201' ? [answered200('intermittent'), answered200('intermittent'), answered200('deterministic')] : id === 'create-returns-category' ? [answered200('deterministic', 'status 500')] : [check(`${id} check`, 'pass')]
  const faults = faultGroups(runResult(checksOf))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'differing-answers', checks: 3, rules: ['create-returns-201'] })
  expect(faults[0].line).toBe('partly intermittent: 2 checks were answered differently on a second probe, and 1 more met the same failure on every probe (one replica behind a load balancer?), across 1 rule (create-returns-201); 2 of 4 checks\' re-runs failed again')
})

test("a deterministic failure of another rule, with the same code and answer as a rule's intermittent one, stays its own fault: never joined to the replica's finding", () => {
  const answered201 = (kind: 'intermittent' | 'deterministic') =>
    check(`c ${kind}`, 'fail', {
      failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 201, expected 400', expected: 'status 400', actual: 'status 201' },
      recurrence: kind === 'intermittent' ? { attempts: 2, failures: 1, kind } : { attempts: 3, failures: 3, kind },
    })
  // one replica took a body without name now and then; every probe of a one-string array was taken (a binder's unwrapping)
  const checksOf = (id: string) =>
    id === 'create-rejects-missing-name' ? [answered201('intermittent')] : id === 'create-rejects-invalid-values' ? [answered201('deterministic')] : [check(`${id} check`, 'pass')]
  const faults = faultGroups(runResult(checksOf))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'differing-answers', checks: 1, rules: ['create-rejects-missing-name'] })
  expect(faults[0].line).toMatch(/^intermittent: 1 check was answered differently on a second probe \(one replica/)
})

test('JSON answers unreadable the same way across rules (a byte order mark in front of every body): one finding; one rule alone, or other unreadable text, makes none', () => {
  const unreadable = (observed: string) =>
    check('c', 'fail', {
      failure: { code: 'NOT_JSON', message: 'the 200 body is not valid JSON', expected: 'a JSON body', actual: 'the body begins with a UTF-8 byte order mark', observed },
      recurrence: { attempts: 3, failures: 3, kind: 'deterministic' },
    })
  const bom = ['list-returns-category-array', 'create-returns-category', 'error-body-is-error-record']
  const faults = faultGroups(runResult((id) => (bom.includes(id) ? [unreadable('a byte order mark'), unreadable('a byte order mark')] : [check(`${id} check`, 'pass')])))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'unreadable-json', checks: 6, rules: bom })
  expect(faults[0].line).toBe('deterministic: 6 checks met JSON answers that began with a UTF-8 byte order mark, which RFC 8259 §8.1 forbids in JSON text, across 3 rules; every re-probe failed the same way (12 of 12 checks\' re-runs)')
  expect(faultGroups(runResult((id) => [id === 'create-returns-category' ? unreadable('a byte order mark') : check(`${id} check`, 'pass')]))).toEqual([])
  expect(faultGroups(runResult((id) => [bom.includes(id) ? unreadable('text that is not JSON') : check(`${id} check`, 'pass')]))).toEqual([])
})

test('a field given back as another type than the string sent, in the answer, its echo and the list (numeric text stored as a number): one finding; a string changed, or one rule alone, makes none', () => {
  const deterministic = { recurrence: { attempts: 3, failures: 3, kind: 'deterministic' as const } }
  const schema = (observed: string) => check('c', 'fail', { failure: { code: 'SCHEMA_MISMATCH', message: 'not a Category record', expected: 'a Category record', actual: 'body.name must be string', observed }, ...deterministic })
  const changed = (actual: string) => check('c', 'fail', { failure: { code: 'FIELD_CHANGED', message: 'the created record changed "name"', expected: 'name: "-0042" (as sent)', actual, observed: '"name" changed' }, ...deterministic })
  const retyped: Record<string, ReturnType<typeof check>> = {
    'create-returns-category': schema('body.name must be string'),
    'create-echoes-fields': changed('name: -42'),
    'list-returns-category-array': schema('body[].name must be string'),
  }
  const faults = faultGroups(runResult((id) => [retyped[id] ?? check(`${id} check`, 'pass')]))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'type-changed', checks: 3, rules: ['list-returns-category-array', 'create-returns-category', 'create-echoes-fields'] })
  expect(faults[0].line).toBe('deterministic: 3 checks met "name" given back as another type than the string sent (numeric text stored as a number?), across 3 rules; every re-probe failed the same way (6 of 6 checks\' re-runs)')
  // a string changed into another string (trimmed) is no change of type; one rule alone is its own finding
  expect(faultGroups(runResult((id) => [id === 'create-echoes-fields' ? changed('name: "-0042 "') : id === 'create-returns-category' ? schema('body.id must be integer') : check(`${id} check`, 'pass')]))).toEqual([])
  expect(faultGroups(runResult((id) => [id === 'create-returns-category' ? schema('body.name must be string') : check(`${id} check`, 'pass')]))).toEqual([])
})

test('bodies that must be refused with 400 answered 422 across the refusal rules (a framework validation status): one finding; one rule alone, or 422 to a valid create, makes none', () => {
  const answered422 = check('c', 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 422, expected 400', expected: 'status 400', actual: 'status 422', observed: 'status 422' }, recurrence: { attempts: 3, failures: 3, kind: 'deterministic' } })
  const both = ['create-rejects-missing-name', 'create-rejects-invalid-values']
  const faults = faultGroups(runResult((id) => [both.includes(id) ? answered422 : check(`${id} check`, 'pass')]))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'validation-status', checks: 2, rules: both })
  expect(faults[0].line).toMatch(/^deterministic: 2 bodies that must be refused with 400 were answered 422 \(a framework's validation status: FastAPI, Laravel, LoopBack\), across 2 rules; /)
  expect(faultGroups(runResult((id) => [id === 'create-rejects-missing-name' ? answered422 : check(`${id} check`, 'pass')]))).toEqual([])
  expect(faultGroups(runResult((id) => [id === 'create-returns-201' || id === 'create-rejects-missing-name' ? answered422 : check(`${id} check`, 'pass')]))).toEqual([])
})

test("the 422s' bodies not the Error record (FastAPI's {\"detail\": […]}, judged under §7 since verdicts13): the same handler as their status, one finding that says both; a 422 to a valid create stays apart", () => {
  const refusals = [exchange({}, 422, '{"detail":[{"loc":["body","name"],"msg":"field required"}]}'), exchange({}, 422, '{"detail":[{"loc":["body","name"],"msg":"str type expected"}]}')]
  const confirmed = { attempts: 3, failures: 3, kind: 'deterministic' as const }
  const status422 = (e: Exchange) => check('c', 'fail', { exchanges: [e], failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 422, expected 400', expected: 'status 400', actual: 'status 422', observed: 'status 422' }, recurrence: confirmed })
  const body = (e: Exchange) => check('b', 'fail', { exchanges: [e], failure: { code: 'SCHEMA_MISMATCH', message: 'the body is not an Error record', expected: 'an Error record', actual: 'lacks code' }, recurrence: confirmed })
  const ofCreate = exchange({}, 422, '{"detail":"Category already exists"}')
  const checksOf = (id: string) =>
    id === 'create-rejects-missing-name' ? [status422(refusals[0]!)] : id === 'create-rejects-invalid-values' ? [status422(refusals[1]!)] : id === 'error-body-is-error-record' ? [...refusals.map(body), body(ofCreate)] : [check(`${id} check`, 'pass')]
  const faults = faultGroups(runResult(checksOf))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'validation-status', checks: 4, rules: ['create-rejects-missing-name', 'create-rejects-invalid-values', 'error-body-is-error-record'] })
  expect(faults[0].line).toMatch(/^deterministic: 2 bodies that must be refused with 400 were answered 422 \(a framework's validation status: FastAPI, Laravel, LoopBack\), and not with the Error record \(§7\), across 3 rules; /)
})

test('requests without a valid key served, both without a key and with one not issued (authentication not mounted): one finding; one rule alone, or a 403, makes none', () => {
  const deterministic = { recurrence: { attempts: 3, failures: 3, kind: 'deterministic' as const } }
  const noHeader = (status: number) => {
    const sent = exchange({}, status)
    return [{ ...sent, request: { ...sent.request, headers: { 'content-type': 'application/json' } } }]
  }
  const answered = (status: number) => check('c', 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: `POST answered ${status}, expected 401`, expected: 'status 401', actual: `status ${status}`, observed: `status ${status}` }, exchanges: noHeader(status), ...deterministic })
  const served = check('c', 'fail', { failure: { code: 'SERVED_WITHOUT_KEY', message: 'GET /v1/categories answered 200 with the category list', expected: 'status 401, or any answer that does not serve the list', actual: 'status 200 and an array of 3 Category records' }, ...deterministic })
  const both = ['auth-missing-key-401', 'auth-invalid-key-401']
  const faults = faultGroups(runResult((id) => (id === 'auth-missing-key-401' ? [answered(201), served] : id === 'auth-invalid-key-401' ? [answered(200)] : [check(`${id} check`, 'pass')])))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'key-not-checked', checks: 3, rules: both })
  expect(faults[0].line).toMatch(/^deterministic: 3 requests without a valid key \(none, or one not issued\) were served \(is authentication mounted on every route\? .*\), across 2 rules; every re-probe failed the same way \(6 of 6 checks' re-runs\)$/)
  expect(faultGroups(runResult((id) => [id === 'auth-invalid-key-401' ? answered(200) : check(`${id} check`, 'pass')]))).toEqual([])
  expect(faultGroups(runResult((id) => [both.includes(id) ? answered(403) : check(`${id} check`, 'pass')]))).toEqual([])
  // only requests carrying a key not issued (an empty token, a part of the key) served: authentication ran, and compared loosely
  const withHeader = (status: number) => check('c', 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: `POST answered ${status}, expected 401`, expected: 'status 401', actual: `status ${status}`, observed: `status ${status}` }, exchanges: [exchange({}, status)], ...deterministic })
  const loose = faultGroups(runResult((id) => (both.includes(id) ? [withHeader(201)] : [check(`${id} check`, 'pass')])))
  expect(loose[0]?.line).toMatch(/ were served \(requests with no Authorization header were refused: is the key compared whole\? an empty token, or a part of the key, taken for it\), across 2 rules;/)
})

test('"Name" taken for name, alone (201 without name) and after "name" (the record holds the later one): one finding of keys bound in any case; one rule alone, or a name changed otherwise, makes none', () => {
  const deterministic = { recurrence: { attempts: 3, failures: 3, kind: 'deterministic' as const } }
  const sent = (body: string, answer: string) => {
    const e = exchange({}, 201, answer)
    return [{ ...e, request: { ...e.request, body } }]
  }
  const aloneTaken = check('c', 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 201, expected 400', expected: 'status 400', actual: 'status 201', observed: 'status 201' }, exchanges: sent('{"Name":"cf-x-namekey"}', '{"id":1,"name":"cf-x-namekey"}'), ...deterministic })
  const changed = (answer: string) =>
    check('c', 'fail', { failure: { code: 'FIELD_CHANGED', message: 'the created record changed "name"', expected: 'name: "cf-x-sent-id" (as sent)', actual: 'name: "…"', observed: '"name" changed' }, exchanges: sent('{"id":7,"name":"cf-x-sent-id","Name":"cf-x-Name-2nd"}', answer), ...deterministic })
  const faults = faultGroups(runResult((id) => [id === 'create-rejects-missing-name' ? aloneTaken : id === 'create-echoes-fields' ? changed('{"id":2,"name":"cf-x-Name-2nd"}') : check(`${id} check`, 'pass')]))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'key-case-ignored', checks: 2, rules: ['create-echoes-fields', 'create-rejects-missing-name'] })
  expect(faults[0].line).toMatch(/^deterministic: 2 creates were taken whose body held "Name", which is not name .*Go's encoding\/json.*, across 2 rules; /)
  // the echo alone (name checked under its key, the body bound after it) is its rule's finding; a name trimmed is another fault
  expect(faultGroups(runResult((id) => [id === 'create-echoes-fields' ? changed('{"id":2,"name":"cf-x-Name-2nd"}') : check(`${id} check`, 'pass')]))).toEqual([])
  expect(faultGroups(runResult((id) => [id === 'create-rejects-missing-name' ? aloneTaken : id === 'create-echoes-fields' ? changed('{"id":2,"name":"cf-x-sent"}') : check(`${id} check`, 'pass')]))).toEqual([])
})

test('requests redirected across rules (a router serving the collection at another path): one finding naming where they were sent; one rule alone makes none', () => {
  const moved = () => {
    const e = exchange({}, 301, '')
    return check('c', 'fail', {
      failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 301', expected: 'status 400', actual: 'status 301 redirecting to /v1/categories/', observed: 'status 301' },
      exchanges: [{ ...e, response: { ...e.response!, headers: { location: '/v1/categories/' } } }],
      recurrence: { attempts: 3, failures: 3, kind: 'deterministic' },
    })
  }
  const rules = ['list-returns-200', 'create-returns-201', 'create-rejects-invalid-json']
  const faults = faultGroups(runResult((id) => [rules.includes(id) ? moved() : check(`${id} check`, 'pass')]))
  expect(faults).toHaveLength(1)
  expect(faults[0]).toMatchObject({ cause: 'redirected', checks: 3, rules })
  expect(faults[0].line).toBe('deterministic: 3 checks met requests redirected (301 to /v1/categories/) instead of answered, which a client does not follow with its body (the collection routed at another path?), across 3 rules; every re-probe failed the same way (6 of 6 checks\' re-runs)')
  expect(faultGroups(runResult((id) => [id === 'list-returns-200' ? moved() : check(`${id} check`, 'pass')]))).toEqual([])
  // a redirect elsewhere (a login page) is not said to be the collection's
  const toLogin = () => {
    const c = moved()
    return { ...c, exchanges: c.exchanges.map((e) => ({ ...e, response: { ...e.response!, status: 302, headers: { location: '/login' } } })) }
  }
  const [login] = faultGroups(runResult((id) => [rules.includes(id) ? toLogin() : check(`${id} check`, 'pass')]))
  expect(login.line).toMatch(/redirected \(302 to \/login\) instead of answered, which a client does not follow with its body, across 3 rules/)
})

test('a server that redirected every request is not probed again, and the finding says why, not "--confirm 0, the write budget or the deadline" (none of which happened)', () => {
  // a redirect loop (each URL to itself) or every request sent to another origin's login page: confirmation.ts probes none again
  const away = () => {
    const e = exchange({}, 307, '')
    return check('c', 'fail', {
      failure: { code: 'UNEXPECTED_STATUS', message: 'GET answered 307', expected: 'status 200', actual: 'status 307 redirecting to /v1/categories', observed: 'status 307' },
      exchanges: [{ ...e, response: { ...e.response!, headers: { location: '/v1/categories' } } }],
      recurrence: { attempts: 1, failures: 1, kind: 'unconfirmed' },
    })
  }
  const confirmed = (result: ReturnType<typeof runResult>) => ({ ...result, options: { ...result.options, confirm: 2 } })
  const [fault] = faultGroups(confirmed(runResult(() => [away()])))
  expect(fault?.line).toMatch(/^unconfirmed: \d+ checks met requests redirected \(307 to \/v1\/categories\) instead of answered, .*; not probed again: the server redirected every request of the run, and a second probe would only meet the same redirects$/)
  // one request answered otherwise: the run's failures were probed again, or not for the general reasons
  expect(faultGroups(confirmed(runResult((id) => [id === 'base-url-ends-v1' ? check('p', 'pass', { exchanges: [exchange({}, 200, '[]')] }) : away()])))[0]?.line).toMatch(/; not probed again \(--confirm 0, the write budget or the deadline\)$/)
})

test('a field with no value written as null across rules (System.Text.Json, Jackson): one finding that says so, not "numeric text stored as a number?"', () => {
  const deterministic = { recurrence: { attempts: 3, failures: 3, kind: 'deterministic' as const } }
  const schema = (observed: string, body: string) =>
    check('c', 'fail', { exchanges: [exchange({}, 200, body)], failure: { code: 'SCHEMA_MISMATCH', message: 'not a Category record', expected: 'a Category record', actual: observed, observed }, ...deterministic })
  const written = (nulls: boolean) => (id: string) =>
    id === 'create-returns-category' ? [schema('body.description must be string', `{"id":2,"name":"cf-x-plain","description":${nulls ? 'null' : '42'}}`)]
      : id === 'list-returns-category-array' ? [schema('body[].description must be string', `[{"id":1,"name":"a","description":"b"},{"id":2,"name":"cf-x-plain","description":${nulls ? 'null' : '42'}}]`)]
      : [check(`${id} check`, 'pass')]
  const [nulls] = faultGroups(runResult(written(true)))
  expect(nulls).toMatchObject({ cause: 'type-changed', checks: 2 })
  expect(nulls.line).toMatch(/^deterministic: 2 checks met "description" written as null \(a serialiser that writes a field with no value: .*System\.Text\.Json's.*\), across 2 rules;/)
  expect(faultGroups(runResult(written(false)))[0].line).toMatch(/given back as another type than the string sent \(numeric text stored as a number\?\)/)
})

test('checks failed on connections refused (a server that did not listen for a while): the finding counts the refused attempts, never "0 of N requests got no answer" alone', () => {
  const refused = check('c', 'fail', {
    exchanges: [{ ...exchange({}, 200, ''), response: undefined, error: { code: 'CONNECTION_REFUSED', message: 'connection refused' } }],
    failure: { code: 'NO_RESPONSE', message: 'no complete response: connection refused', expected: 'an HTTP response', actual: 'CONNECTION_REFUSED' },
    recurrence: { attempts: 2, failures: 1, kind: 'intermittent' },
  })
  const result = runResult((id) => [id === 'list-returns-200' ? refused : check(`${id} check`, 'pass')])
  const id = refused.exchanges[0]!.id
  result.journal = (result.journal ?? []).map((e) => (e.id === id ? { ...e, onWire: false, outcome: 'failed' as const, error: 'CONNECTION_REFUSED' as const, status: undefined } : e))
  expect(faultGroups(result)[0]?.line).toMatch(/^intermittent: 1 attempt was refused a connection \(nothing listened on the port then\), across 1 rule \(list-returns-200\)/)
})

test('checks failed on bodies the client could not decode (a front labelling them with a coding it cannot undo): the finding says they were answered, not that they "got no answer"', () => {
  const undecodable = check('c', 'fail', {
    exchanges: [{ ...exchange({}, 200, ''), error: { code: 'UNDECODABLE_BODY', message: "the 200 response's body could not be decoded from its Content-Encoding (incorrect header check)" } }],
    failure: { code: 'NO_RESPONSE', message: 'no complete response', expected: 'an HTTP response', actual: 'UNDECODABLE_BODY' },
    recurrence: { attempts: 1, failures: 1, kind: 'unconfirmed', cause: 'not-needed' },
  })
  const result = runResult((id) => [id === 'list-returns-200' ? undecodable : check(`${id} check`, 'pass')])
  const id = undecodable.exchanges[0]!.id
  result.journal = (result.journal ?? []).map((e) => (e.id === id ? { ...e, outcome: 'failed' as const, error: 'UNDECODABLE_BODY' as const } : e))
  const line = faultGroups(result)[0]?.line
  expect(line).toMatch(/: 1 of \d+ requests were answered with a body the client could not decode from its Content-Encoding \(UNDECODABLE_BODY\)/)
  expect(line).not.toContain('got no answer')
})

test('a run that failed no check has no fault group, and its POSTs are not read for one: each report asked, and a run judged 88 bodies (65 KB among them) for names each time', () => {
  let bodiesRead = 0
  const post = exchange({}, 201, '{"name":"cf-abcde-record"}')
  // a POST whose body counts its readers: sentNames parses every POST's body when asked for the groups
  Object.defineProperty(post.request, 'body', { get: () => (bodiesRead++, '{"name":"cf-abcde-record"}'), enumerable: true })
  const result = runResult((id) => [check(`${id} check`, 'pass', { exchanges: [post] })])
  expect(faultGroups(result)).toEqual([])
  markdownSummary(result)
  htmlReport(result)
  expect(bodiesRead).toBe(0)
})

test('failures confirmed on every re-probe beside ones whose operation stalled (an Express 4 handler that never answers an invalid create): deterministic, not "partly intermittent"', () => {
  const timeout = { code: 'NO_RESPONSE', message: 'no response within 10000 ms', expected: 'status 400', actual: 'TIMEOUT: no response within 10000 ms' } as const
  const confirmed = (name: string) => check(name, 'fail', { failure: timeout, recurrence: { attempts: 3, failures: 3, kind: 'deterministic' } })
  const stalled = (name: string) => check(name, 'fail', { failure: timeout, recurrence: { attempts: 1, failures: 1, kind: 'unconfirmed', cause: 'stalled' } })
  const rules = ['create-rejects-invalid-values', 'error-body-is-error-record', 'error-status-matches-http']
  const result = runResult((id) => (rules.includes(id) ? [confirmed(`${id} a`), stalled(`${id} b`)] : [check(`${id} check`, 'pass')]))
  const line = faultGroups(result)[0]?.line
  expect(line).toMatch(/^deterministic: .*, across 3 rules; every re-probe failed the same way \(6 of 6 checks' re-runs\); 3 other checks not probed again: its operation had left a request unanswered past --timeout/)
})
