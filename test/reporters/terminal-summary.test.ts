/** The terminal summary stays one screen however much fails, says where the reports are and what was not verified. */
import { describe, expect, test } from 'vitest'
import { MAX_LINES, MAX_WIDTH, terminalSummary, terminalText } from '../../lib/reporters/terminal-summary.ts'
import { freshRunId, ROUND_OFFSET } from '../../lib/result/record-prefixes.ts'
import { namePrefix } from '../../lib/result/run-result.ts'
import { escapeMarkdown, markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { check, everythingFails, oneCauseManyChecks, oneFailure, RUN_ID, runResult } from './fixture.ts'

const FILES = ['reports/results.json', 'reports/junit.xml', 'reports/report.html', 'reports/summary.md']

describe('terminal summary', () => {
  test(`stays within ${MAX_LINES} lines, even when every check of every rule fails`, () => {
    const text = terminalSummary(everythingFails(), FILES)
    const lines = text.trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES)
    for (const line of lines) {
      const limit = line.trimStart().startsWith('reproduce:') || line.startsWith('Reports:') ? 400 : MAX_WIDTH
      expect([...line].length, line).toBeLessThanOrEqual(limit)
    }
    expect(text).toMatch(/… \d+ more failed checks: each with expected, actual and curl in the reports/)
    expect(text).toContain('Verdict: FAIL (exit 1)')
  })

  test('shows the first failures with expected, actual and a curl line', () => {
    const text = terminalSummary(everythingFails(), FILES)
    expect(text.match(/^ {8}expected: status 400$/gm)?.length).toBeGreaterThan(0)
    expect(text).toMatch(/^ {8}actual: {3}status 201 /m)
    expect(text).toMatch(/^ {8}reproduce: curl -i -X POST .*\$CONFORM_API_KEY/m)
  })

  test('server text cannot move the cursor, colour the terminal or start a line of its own', () => {
    const text = terminalSummary(everythingFails(), FILES)
    expect(text).not.toMatch(/[\x00-\x09\x0B-\x1F\x7F\u202A-\u202E]/)
    expect(text).toContain('⟨ESC⟩[31mred')
    for (const line of text.split('\n')) expect(line.trimStart().startsWith('::')).toBe(false)
  })

  test('says the records it created are named after the run, the empty name, the name of digits and "0" by their description', () => {
    const entry = (id: string, name: string) => ({ id, name, status: 201, exchangeId: `x-${id}` })
    const prefix = `${namePrefix(RUN_ID)}-`
    const named = terminalSummary(runResult(undefined, { ledger: [entry('1', `${prefix}described`)] }), FILES)
    expect(named).toContain(`Records created: 1 (names start with ${prefix}; listed in the reports)`)
    const unnamed = terminalSummary(runResult(undefined, { ledger: [entry('1', `${prefix}described`), entry('2', '')] }), FILES)
    expect(unnamed).toMatch(/Records created: 2 \(names, and the descriptions of the empty name, "0", "__proto__" and \(after an "="\) the name of digits, start with /)
    const digits = terminalSummary(runResult(undefined, { ledger: [entry('1', `${prefix}described`), entry('2', '-00123')] }), FILES)
    expect(digits).toMatch(/Records created: 2 \(names, and the descriptions of the empty name, "0", "__proto__" and \(after an "="\) the name of digits, start with /)
  })

  test('names every prefix the records carry: the run\'s, and those of its confirmation attempts and further rounds, each counted', () => {
    const entry = (id: string, name: string) => ({ id, name, status: 201, exchangeId: `x-${id}` })
    const [run, first, second, round2] = [RUN_ID, freshRunId(RUN_ID, 1), freshRunId(RUN_ID, 2), freshRunId(RUN_ID, ROUND_OFFSET + 2)].map((id) => `${namePrefix(id)}-`)
    const result = runResult(undefined, { ledger: [entry('1', `${run}a`), entry('2', `${run}b`), entry('3', `${first}a`), entry('4', `${second}a`), entry('5', `${round2}a`)] })
    result.options = { ...result.options, confirm: 2, repeat: 2 }
    const words = `${run} (the run's checks: 2 records), ${first} (confirmation attempt 1 (--confirm): 1 record), ${second} (confirmation attempt 2 (--confirm): 1 record), ${round2} (round 2 (--repeat): 1 record)`
    expect(terminalSummary(result, FILES)).toContain(`Records created: 5 (names start with ${words}; listed in the reports)`)
    expect(markdownSummary(result)).toContain(escapeMarkdown(`start with ${words}`, 1000))
    expect(htmlReport(result)).toContain(`start with ${words.replaceAll("'", '&#39;')}.`)
  })

  test('counts in words that agree with their number: one request in flight, one rule and its checks', () => {
    const result = runResult((id) => [check(`${id} ran`, 'pass'), ...(['created-in-list', 'list-returns-200'].includes(id) ? [check('lost', 'skip', { cause: 'answer-lost' as const, skipReason: 'the answer was lost' })] : [])])
    result.options = { ...result.options, concurrency: 1 }
    const text = terminalSummary(result, FILES)
    expect(text).toContain('at most 1 request in flight (--concurrency 1)')
    expect(text).toMatch(/^Partly verified: 2 rules judged without 2 of their checks/m)
  })

  test('"Partly verified … most often" names a cause of the checks it counts, never a request that was not needed', () => {
    const lost = { cause: 'answer-lost' as const, skipReason: 'the answer was lost' }
    const notNeeded = { cause: 'not-needed' as const, skipReason: 'not sent: not needed' }
    const result = runResult((id) => [check(`${id} ran`, 'pass'), ...(id === 'created-in-list' ? [check('lost', 'skip', lost), check('n1', 'skip', notNeeded), check('n2', 'skip', notNeeded)] : [])])
    const text = terminalSummary(result, FILES)
    expect(text).toMatch(/^Partly verified: 1 rule judged without 1 of its checks; most often: the answer was lost in transit/m)
    expect(text).not.toMatch(/most often: not needed/)
  })

  test('says where the reports are, report.html first', () => {
    const text = terminalSummary(runResult(), FILES)
    expect(text).toContain('Reports: reports/report.html (open in a browser); results.json, junit.xml, summary.md beside it')
  })

  test('a read-only run says so, and names every rule it did not verify, grouped by why', () => {
    const result = runResult((id) => [check(`${id} check`, id.startsWith('create') ? 'skip' : 'pass')], { readOnly: true })
    const text = terminalSummary(result, FILES)
    expect(text).toContain('Read-only run: no POST sent, so the rules about creating are not verified (the Writes line above names the setting).')
    expect(text).toContain('Not verified (no check of these rules ran):')
    expect(text).toContain('  --read-only sends no request that could create a record:')
    for (const rule of result.rules.filter((r) => r.id.startsWith('create'))) expect(text).toContain(rule.id)
    expect(text).toContain('Verdict: PASS (exit 0)')
  })

  test('terminalText escapes controls and cuts long lines', () => {
    expect(terminalText('a\nb\rc\td\x1b[0m\u202E\x9b')).toBe('a↵b⟨CR⟩c⇥d⟨ESC⟩[0m⟨RLO⟩⟨U+009B⟩')
    expect([...terminalText('x'.repeat(500))].length).toBe(MAX_WIDTH)
  })

  test('failures past the first three get one line each, which still says the code', () => {
    const failing = ['list-returns-200', 'create-returns-201', 'ids-unique', 'created-in-list']
    const text = terminalSummary(runResult((id) => [check(failing.includes(id) ? `${id} check` : 'p', failing.includes(id) ? 'fail' : 'pass')]), FILES)
    expect(text.match(/^ {8}\[UNEXPECTED_STATUS\] answered 201: /gm)).toHaveLength(3)
    expect(text).toMatch(/^ {6}created-in-list check: \[UNEXPECTED_STATUS\] answered 201: /m)
  })

  test('a judged rule counts its checks so that they add up: passed, known, with notes and skipped apart', () => {
    const result = runResult((id) =>
      id === 'auth-missing-key-401'
        ? [...Array.from({ length: 43 }, (_, i) => check(`passed ${i}`, 'pass')), ...Array.from({ length: 5 }, (_, i) => check(`skipped ${i}`, 'skip'))]
        : id === 'create-returns-201'
          ? [check('passed', 'pass'), check('known', 'warn', { known: 'OPS-112' }), check('skipped', 'skip')]
          : id === 'advisory-www-authenticate'
            ? [check('noted', 'warn', { notes: ['401 without a WWW-Authenticate header'] }), check('skipped', 'skip')]
            : [check(`${id} check`, 'pass')],
    )
    const text = terminalSummary(result, FILES)
    // a check with an advisory note passed, as the totals line counts it
    expect(text).toMatch(/^ {2}! advisory-www-authenticate +1 check passed, 1 skipped \(advisory\)$/m)
    // "43 checks, 5 skipped" read as 43 in all
    expect(text).toMatch(/^ {2}✓ auth-missing-key-401 +43 checks passed, 5 skipped$/m)
    expect(text).toMatch(/^ {2}! create-returns-201 +1 check passed, 1 known \(--baseline\), 1 skipped$/m)
    expect(text).toMatch(/^ {2}✓ list-returns-200 +1 check passed$/m)
  })

  test('a failed rule names its § of the interface document', () => {
    const text = terminalSummary(oneFailure(), FILES)
    expect(text).toMatch(/^ {2}✗ create-echoes-fields +1 of 2 checks failed · §4\.2$/m)
    expect(terminalSummary(everythingFails(), FILES)).toMatch(/^ {2}✗ create-rejects-missing-name +10 of 10 checks failed · §4\.2, 7$/m)
  })

  test('29 checks with one cause are one entry: how many, code and message, expected and actual once, the checks, a curl line', () => {
    const lines = terminalSummary(oneCauseManyChecks(29), FILES).split('\n')
    const at = lines.findIndex((l) => l.startsWith('      29 checks: '))
    expect(lines[at]).toBe('      29 checks: [ERROR_STATUS_MISMATCH] the Error record says status 400 in a 401 response')
    expect(lines[at + 1]).toBe('        expected: "status": 401')
    expect(lines[at + 2]).toBe('        actual:   "status": 400')
    expect(lines[at + 3]).toMatch(/^ {8}checks \(… → Error\.status equals the HTTP status\): GET \/categories with no Authorization header; GET \/categories with an empty bearer token;/)
    const listed = lines.slice(at + 3).findIndex((l) => l.startsWith('        reproduce the first: curl '))
    expect(listed).toBeGreaterThan(0)
    expect(listed).toBeLessThanOrEqual(3)
    expect(lines.slice(at + 3, at + 3 + listed).join(' ')).toMatch(/; … and \d+ more in report\.html$/)
    expect(lines.filter((l) => l.includes('the Error record says status 400 in a 401 response'))).toHaveLength(1)
    // the other cause of the same rule is an entry of its own
    expect(lines).toContain('      POST /categories with an array body → Error.status equals the HTTP status')
    expect(lines).toContain('        [ERROR_STATUS_MISMATCH] the Error record says status 401 in a 400 response')
  })

  test('a small group lists every check, wrapped under one another', () => {
    const text = terminalSummary(oneCauseManyChecks(3), FILES)
    expect(text).toContain(
      '        checks (… → Error.status equals the HTTP status): GET /categories with no Authorization header; GET /categories with an empty bearer token;\n' +
        '                GET /categories with a wrong key\n',
    )
  })

  test('the padded name shows its spaces as markers, and says what a marker is', () => {
    const text = terminalSummary(oneFailure(), FILES)
    expect(text).toContain(`        expected: name: "··conform-${RUN_ID}-padded··" (as sent)\n        actual:   name: "conform-${RUN_ID}-padded"\n        marked:   · space\n`)
  })

  test('invisible characters in a value are markers, never raw', () => {
    const text = terminalSummary(oneFailure({ code: 'FIELD_CHANGED', message: 'changed', expected: '"a b"', actual: '"a\u00A0b\u200B\u202E\x1b[2J\x9b"' }), FILES)
    expect(text).toContain('        actual:   "a⟨NBSP⟩b⟨ZWSP⟩⟨RLO⟩⟨ESC⟩[2J⟨U+009B⟩"\n')
    expect(text).toContain('        marked:   ⟨NBSP⟩ no-break space (U+00A0); ⟨ZWSP⟩ zero-width space (U+200B); ⟨RLO⟩ right-to-left override (U+202E);')
    expect(text).not.toMatch(/[\u00A0\u200B\u202E\x1b\x9b]/)
  })

  test(`stays within ${MAX_LINES} lines when one cause is met by hundreds of checks in every rule`, () => {
    const result = runResult((id) => Array.from({ length: 300 }, (_, i) => check(`check ${i} of ${id} → same outcome`, 'fail')))
    const lines = terminalSummary(result, FILES).trimEnd().split('\n')
    expect(lines.length).toBeLessThanOrEqual(MAX_LINES)
    expect(lines.filter((l) => / {6}300 checks: /.test(l)).length).toBeGreaterThan(0)
  })
})

describe('a curl line too long for the terminal', () => {
  test('is never cut (a cut one cannot be run): the line says where it is, whole', () => {
    const long = `curl -i -X POST 'http://127.0.0.1:9/v1/categories' -H "authorization: Bearer $CONFORM_API_KEY" --data-raw '${'{"name":"'.concat('x'.repeat(600), '"}')}'`
    const result = runResult((id) => [check(`${id} check`, id === 'create-echoes-fields' ? 'fail' : 'pass', id === 'create-echoes-fields' ? { reproduce: [long] } : {})])
    const text = terminalSummary(result, [])
    const line = text.split('\n').find((l) => l.includes('reproduce'))
    expect(line).toMatch(/reproduce: its curl line \(\d+ characters\) is in report\.html and results\.json$/)
    expect(text).not.toContain("--data-raw '{\"name\":\"xxx")
    // a short one is shown whole, as before
    expect(terminalSummary(runResult((id) => [check(`${id} check`, id === 'create-echoes-fields' ? 'fail' : 'pass')]), [])).toMatch(/reproduce: curl -i -X POST /)
  })
})

describe('a line too long for the terminal', () => {
  // a read-only run: created-in-list has no record to look for, in words longer than its lines
  const listed = [
    check("GET /categories after the run's POSTs → every created category is listed once, with the fields sent", 'skip', { cause: 'not-applicable', skipReason: 'no category was created and answered as a Category record (create-returns-201 or create-returns-category reports why)' }),
    check("GET /categories, then again after the run's POSTs → every category listed first is listed again, unchanged", 'skip', { cause: 'read-only', skipReason: 'no POST was sent in this run' }),
  ]
  const readOnly = runResult((id) => (id === 'created-in-list' ? listed : [check(`${id} check`, 'pass')]), { readOnly: true })
  const lines = terminalSummary(readOnly, FILES).split('\n')

  test('is cut after a whole word, "…" after it: the rule line, and the reason of the rules not verified, whose colon stays', () => {
    const rule = lines.find((l) => l.startsWith('  - created-in-list')) ?? ''
    expect([...rule].length).toBeLessThanOrEqual(MAX_WIDTH)
    expect(rule).toMatch(/ create-returns-category…$/)
    const reason = lines.find((l) => l.startsWith('  nothing to judge in the answers')) ?? ''
    expect(reason).toMatch(/ or…: created-in-list$/)
  })

  test('the header too long for one line gives the run id, seed and trace id a line of their own, whole (the embedded server\'s cut the trace id to "trace…")', () => {
    const traceId = 'fb269b8d7e0139e304ec84692f045750'
    const base = runResult()
    const header = (baseUrl: string, embeddedServer: boolean) => terminalSummary({ ...base, baseUrl, embeddedServer, traceId, options: { ...base.options, seed: 1042851841 } }, FILES).split('\n')
    const embedded = header('http://127.0.0.1:46793/v1', true)
    expect(embedded[0]).toBe('Pet Store categories conformance · http://127.0.0.1:46793/v1 (embedded reference server)')
    expect(embedded[1]).toBe(`  run ${RUN_ID} · seed 1042851841 · trace ${traceId}`)
    // a short one stays one line
    expect(header('https://eu.example/v1', false)[0]).toBe(`Pet Store categories conformance · https://eu.example/v1 · run ${RUN_ID} · seed 1042851841 · trace ${traceId}`)
    for (const line of [...embedded, ...header(`https://${'long-host-name.'.repeat(12)}example/v1`, false)]) expect([...line].length).toBeLessThanOrEqual(MAX_WIDTH)
  })

  test('a word longer than half the line (a URL) is cut inside it', () => {
    expect(terminalText(`see ${'x'.repeat(200)}`, 40)).toBe(`see ${'x'.repeat(35)}…`)
    expect(terminalText('one two three', 8)).toBe('one two…')
    expect(terminalText('one two three', 13)).toBe('one two three')
  })
})
