/**
 * junit.xml is well-formed XML whatever the server said, and has the shape GitHub (test-reporter
 * actions), GitLab (artifacts:reports:junit) and Jenkins (junit step) read: <testsuites> around one
 * <testsuite> per rule, one <testcase> per check with classname and name, <failure message> with
 * expected/actual in its text, <skipped message>, and counts that agree with the children.
 */
import { describe, expect, test } from 'vitest'
import type { RunProblem } from '../../lib/result/run-problems.ts'
import { attr, junitReport, xml } from '../../lib/reporters/junit-report.ts'
import { applyBaseline } from '../../lib/result/baseline.ts'
import { check, everythingFails, HOSTILE, runResult } from './fixture.ts'
import { elements, parseXml, XmlError } from './xml.ts'

describe('the strict XML reader the tests rely on', () => {
  test.each([
    ['<a>', 'never closed'],
    ['<a></b>', 'closes'],
    ['<a>&nbsp;</a>', 'undefined entity'],
    ['<a>x & y</a>', 'unterminated reference'],
    ['<a b="1" b="2"/>', 'duplicate attribute'],
    ['<a>]]></a>', ']]>'],
    ['<a>\u0001</a>', 'not allowed'],
    ['<a>&#1;</a>', 'cannot carry'],
    ['<a/><b/>', 'after the root'],
    ['<a b=1/>', 'not quoted'],
  ])('refuses %j', (source, why) => {
    expect(() => parseXml(source)).toThrow(XmlError)
    expect(() => parseXml(source)).toThrow(why)
  })
})

describe('junit.xml', () => {
  test('is well-formed even when every check fails with hostile server text', () => {
    expect(() => parseXml(junitReport(everythingFails()))).not.toThrow()
  })

  test('has one testsuite per rule and one testcase per check, with counts that match the children', () => {
    const result = runResult((id) => [check('a', 'pass'), check('b', id === 'ids-unique' ? 'fail' : 'skip'), check('c', 'pass')])
    const root = parseXml(junitReport(result))
    expect(root.name).toBe('testsuites')
    const suites = root.children.filter((c) => c.name === 'testsuite')
    expect(suites.map((s) => s.attributes.name.split(':')[0])).toEqual(result.rules.map((r) => r.id))
    for (const suite of suites) {
      const cases = suite.children.filter((c) => c.name === 'testcase')
      expect(Number(suite.attributes.tests)).toBe(cases.length)
      expect(Number(suite.attributes.failures)).toBe(cases.filter((c) => c.children.some((x) => x.name === 'failure')).length)
      expect(Number(suite.attributes.skipped)).toBe(cases.filter((c) => c.children.some((x) => x.name === 'skipped')).length)
      for (const testcase of cases) {
        expect(testcase.attributes.classname).toBe(suite.attributes.name.split(':')[0])
        expect(testcase.attributes.time).toMatch(/^\d+\.\d{3}$/)
      }
    }
    expect(Number(root.attributes.tests)).toBe(elements(root, 'testcase').length)
    expect(Number(root.attributes.failures)).toBe(elements(root, 'failure').length)
    // junit-10.xsd has no skipped on <testsuites> (junit-schemas.test.ts): the testsuites' add up
    expect(root.attributes.skipped).toBeUndefined()
    expect(suites.reduce((sum, s) => sum + Number(s.attributes.skipped), 0)).toBe(elements(root, 'skipped').length)
  })

  test("a run's problems are test cases too: the totals are those of the children, as the fleet's junit.xml counts that deployment", () => {
    const result = runResult(undefined, { problems: [{ kind: 'key-revoked', message: 'the server stopped accepting the key' }] })
    const root = parseXml(junitReport(result))
    expect(Number(root.attributes.tests)).toBe(elements(root, 'testcase').length)
    expect(Number(root.attributes.errors)).toBe(elements(root, 'error').length)
    expect(Number(root.attributes.tests)).toBe(root.children.filter((c) => c.name === 'testsuite').reduce((sum, s) => sum + Number(s.attributes.tests), 0))
  })

  test('a failure carries its one-line message, and expected, actual, the exchange and a curl line in its text', () => {
    const result = runResult((id) =>
      id === 'create-returns-201'
        ? [check('POST /categories with name only → 201', 'fail', { failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 400, expected 201', expected: 'status 201', actual: 'status 400' } })]
        : [check('x', 'pass')],
    )
    const failure = elements(parseXml(junitReport(result)), 'failure')[0]
    expect(failure.attributes.message).toBe('POST answered 400, expected 201')
    expect(failure.attributes.type).toBe('UNEXPECTED_STATUS')
    expect(failure.text).toContain('rule: create-returns-201 (must, §4.2)\ncode: UNEXPECTED_STATUS\n')
    expect(failure.text).toContain('expected: status 201\nactual:   status 400')
    expect(failure.text).toContain('exchange: POST https://petstore.example/v1/categories → 201')
    expect(failure.text).toContain('reproduce: curl -i -X POST')
    expect(failure.text).toContain('$CONFORM_API_KEY')
  })

  test('a failure says whether it recurred: deterministic or intermittent, so the test tab tells a fault from a flaky network', () => {
    const failure = { code: 'SERVER_ERROR' as const, message: 'POST answered 502, expected 201', expected: 'status 201', actual: 'status 502' }
    const result = runResult((id) =>
      id === 'create-returns-201'
        ? [
            check('flaky', 'fail', { failure, recurrence: { attempts: 2, failures: 1, kind: 'intermittent' } }),
            check('every time', 'fail', { failure, recurrence: { attempts: 3, failures: 3, kind: 'deterministic' } }),
            check('not probed again', 'fail', { failure }),
          ]
        : [check('x', 'pass')],
    )
    const texts = elements(parseXml(junitReport(result)), 'failure').map((f) => f.text)
    expect(texts[0]).toContain('actual:   status 502\nrecurred: intermittent: failed 1 of 2 probes\n')
    expect(texts[1]).toContain('recurred: deterministic: failed 3 of 3 probes')
    expect(texts[2]).not.toContain('recurred:')
  })

  test('server text survives the round trip: what a CI system shows is what the server sent (less what XML cannot carry)', () => {
    const result = everythingFails()
    const failure = elements(parseXml(junitReport(result)), 'failure')[0]
    const carried = HOSTILE.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '')
    expect(failure.attributes.message).toBe(`answered 201: ${carried}`)
    expect(failure.text).toContain(`actual:   status 201 ${carried}`)
  })

  test('C1 and bidi controls are character references: the parsed text has them, the file printed as text acts on none', () => {
    const acting = 'name \u009b2J \u202eevil\u202c \u2066x\u2069 \u200f \u007f end'
    const result = runResult((id) =>
      id === 'create-echoes-fields' ? [check('POST → fields', 'fail', { failure: { code: 'FIELD_CHANGED', message: `changed: ${acting}`, expected: 'name: "a"', actual: acting } })] : [check('x', 'pass')],
    )
    const text = junitReport(result)
    expect(text).not.toMatch(/[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/)
    expect(text).toContain('&#155;2J &#8238;evil&#8236;')
    const failure = elements(parseXml(text), 'failure')[0]
    expect(failure.attributes.message).toBe(`changed: ${acting}`)
    expect(failure.text).toContain(`actual:   ${acting}`)
    expect(xml('plain → text, é, 中文')).toBe('plain → text, é, 中文')
  })

  test('a skipped check says why; an advisory note is system-out, not a failure', () => {
    const result = runResult((id) =>
      id === 'advisory-www-authenticate' ? [check('401 names Bearer', 'warn', { notes: ['401 without a WWW-Authenticate header'] })] : [check('y', 'skip')],
    )
    const root = parseXml(junitReport(result))
    expect(elements(root, 'skipped')[0].attributes.message).toBe('not verified: --read-only sends no request that could create a record')
    expect(elements(root, 'system-out')[0].text).toBe('advisory: 401 without a WWW-Authenticate header')
    expect(elements(root, 'failure')).toHaveLength(0)
  })

  test("a known failure (--baseline) is skipped with its reason, and its note is no advisory: a must-rule's check read 'advisory: known failure …'", () => {
    const failed = runResult((id) => (id === 'create-returns-201' ? [check('POST /categories with name only → 201', 'fail')] : [check(`${id} check`, 'pass')]))
    const entry = { rule: 'create-returns-201', code: 'UNEXPECTED_STATUS', reason: 'TICKET-12: answers 200' }
    const root = parseXml(junitReport(applyBaseline(failed, { knownFailures: [entry] }, 'b.json', '2026-06-01')))
    expect(elements(root, 'skipped').map((e) => e.attributes.message)).toEqual(['known failure: TICKET-12: answers 200'])
    const out = elements(root, 'system-out').map((e) => e.text)
    expect(out).toHaveLength(1)
    expect(out[0]).toMatch(/^known failure \(baseline: TICKET-12: answers 200\): \[UNEXPECTED_STATUS\] /)
  })

  test('problems of the run are errors in a testsuite of their own', () => {
    const root = parseXml(junitReport(runResult(undefined, { problems: [{ kind: 'deadline', message: 'the run did not finish\nwithin 100 ms' }] })))
    const run = root.children.find((c) => c.attributes.name === 'run')!
    expect(run.attributes.errors).toBe('1')
    expect(elements(run, 'error')[0].attributes.message).toBe('the run did not finish\nwithin 100 ms')
  })

  test("a problem's test case is named by its kind, not its place in the list, so CI keeps each one's history apart", () => {
    const names = (problems: RunProblem[]) =>
      elements(parseXml(junitReport(runResult(undefined, { problems }))), 'testcase')
        .filter((c) => c.attributes.classname === 'run')
        .map((c) => c.attributes.name)
    const deadline: RunProblem = { kind: 'deadline', message: 'the run did not finish within 100 ms' }
    const stalled: RunProblem = { kind: 'stalled', message: 'POST /categories went unanswered' }
    expect(names([deadline])).toEqual(['deadline'])
    // another run meets a second problem first: the deadline keeps its name
    expect(names([stalled, deadline])).toEqual(['stalled', 'deadline'])
    expect(names([stalled, { ...stalled, message: 'GET /categories went unanswered' }])).toEqual(['stalled', 'stalled 2'])
  })
})

describe('xml(): text content', () => {
  // most texts (a check's name has an arrow) have nothing to escape and are returned as they are;
  // the rest are escaped, what XML 1.0 cannot carry (a lone surrogate, a control) is dropped, and a
  // C1 or bidi control, which XML carries but a terminal would act on, is a character reference
  test.each([
    ['GET /categories → 201 ✓ Ñandú 🐇', 'GET /categories → 201 ✓ Ñandú 🐇'],
    ['a < b > c & "d"\r', 'a &lt; b &gt; c &amp; &quot;d&quot;&#13;'],
    ['→ <b>', '→ &lt;b&gt;'],
    ['lone \uD800 half, bell \x07, C1 \x85 kept', 'lone  half, bell , C1 &#133; kept'],
    ['\uFFFE\uFFFF end', ' end'],
  ])('%j', (text, shown) => {
    expect(xml(text)).toBe(shown)
  })
})

describe('attr(): attribute values', () => {
  // as text, and tab and LF as references (attribute normalisation would make them spaces), even in
  // a value that has nothing else to escape
  test.each([
    ['create-returns-201 → ✓', 'create-returns-201 → ✓'],
    ['line one\nline two\tthree', 'line one&#10;line two&#9;three'],
    ['say "<hi>" & go', 'say &quot;&lt;hi&gt;&quot; &amp; go'],
    // a server's Location quoted in a failure's message, with nothing else to escape: a CI log command as text does
    ['GET answered 302 redirecting to /##vso[task.setvariable variable=PWNED]yes', 'GET answered 302 redirecting to /&#35;#vso[task.setvariable variable=PWNED]yes'],
    ['x ##[error]forged ##teamcity[y]', 'x &#35;#[error]forged &#35;#teamcity[y]'],
  ])('%j', (text, shown) => {
    expect(attr(text)).toBe(shown)
  })
})
