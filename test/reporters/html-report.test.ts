/** report.html from hand-built results: self-contained, everything escaped, every section a reader needs. */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { shownHeaderValue } from '../../lib/reporters/html-failures.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { escapeHtml } from '../../lib/reporters/html-text.ts'
import { ASKED_WITHOUT_KEY, check, everythingFails, exchange, HOSTILE, oneCauseManyChecks, oneFailure, RUN_ID, runResult } from './fixture.ts'

/** The failures section of a page, and its failure cards (each up to the next card or the end of its rule). */
function failureCards(html: string): string[] {
  const section = html.slice(html.indexOf('<section id="failures">'), html.indexOf('<section id="rules">'))
  return section.split(/(?=<div class="failure[ "])/).slice(1)
}

describe('report.html', () => {
  test('is one self-contained page: no script, no external asset, a CSP that forbids loading anything', () => {
    const html = htmlReport(everythingFails())
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'`)
    expect(html).not.toMatch(/<script|<link|<iframe|<object|<embed|<img|@import|url\(/i)
    expect(html).not.toMatch(/\s(src|href)="(?!#)/i)
  })

  test('escapes server-controlled text everywhere: no markup, no event handler, no raw control or bidi character', () => {
    const html = htmlReport(everythingFails())
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;')
    expect(html).not.toContain('<script>')
    expect(html).not.toMatch(/<img/)
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
    expect(html).not.toContain('</pre></td>')
    expect(html).not.toMatch(/[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\u202A-\u202E\u2066-\u2069]/)
    expect(html).toContain('⟨ESC⟩[31mred')
    expect(html).toContain('⟨RLO⟩gnp.exe')
    // what the tags open, they close: the escaped text opened nothing
    for (const tag of ['pre', 'td', 'tr', 'table', 'details', 'section', 'article', 'div']) {
      const opened = html.match(new RegExp(`<${tag}[\\s>]`, 'g'))?.length ?? 0
      const closed = html.match(new RegExp(`</${tag}>`, 'g'))?.length ?? 0
      expect(closed, tag).toBe(opened)
    }
  })

  test('escapeHtml covers the five markup characters', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;')
  })

  test('shows the summary: base URL, when, duration, rule counts, requests and records', () => {
    const result = runResult((id) => [check(`${id} check`, id === 'ids-unique' ? 'fail' : 'pass')], {
      ledger: [{ id: '7', name: `conform-${RUN_ID}-plain`, status: 201, exchangeId: 'none' }],
    })
    const html = htmlReport(result)
    expect(html).toContain('FAIL: 1 of 21 rules failed')
    expect(html).toContain('<code>https://petstore.example/v1</code>')
    expect(html).toContain('2026-01-01 00:00:00 UTC')
    expect(html).toContain('1.2 s')
    expect(html).toMatch(/<div class="n">20<\/div><div>rules passed<\/div>/)
    expect(html).toMatch(/<div class="n">1<\/div><div>rules failed<\/div>/)
    expect(html).toMatch(/<div class="n">\d+<\/div><div>requests made<\/div>/)
    expect(html).toMatch(/<div class="n">1<\/div><div>records created<\/div>/)
  })

  test('a failure shows expected and actual, request and response with headers and body, and a curl line with $CONFORM_API_KEY', () => {
    const failing = exchange({}, 201, '{"id":9,"description":"no name"}')
    const result = runResult((id) =>
      id === 'create-rejects-missing-name'
        ? [check('POST /categories with a body without name → 400', 'fail', { exchanges: [failing], failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 201, expected 400', expected: 'status 400', actual: 'status 201' } })]
        : [check(`${id} check`, 'pass')],
    )
    const html = htmlReport(result)
    const failures = html.slice(html.indexOf('<section id="failures">'), html.indexOf('<section id="rules">'))
    expect(failures).toContain('POST /categories with a body without name → 400')
    expect(failures).toContain('<tr><th scope="row">Expected</th><td>status 400</td></tr>')
    expect(failures).toContain('<tr><th scope="row">Actual</th><td>status 201</td></tr>')
    expect(failures).toContain('authorization: Bearer $CONFORM_API_KEY')
    expect(failures).toContain('HTTP 201\ncontent-type: application/json')
    expect(failures).toContain('{&quot;id&quot;:9,&quot;description&quot;:&quot;no name&quot;}')
    expect(failures).toContain('curl -i -X POST')
    expect(failures).toContain('Bearer $CONFORM_API_KEY')
    expect(failures).toContain('§4.2, 7')
  })

  test('interim answers the client read past (a 100 Continue nobody asked for) show before the final status', () => {
    const failing = exchange({}, 201, '{"id":9}')
    failing.response!.interim = [100, 103]
    const result = runResult((id) =>
      id === 'create-rejects-missing-name'
        ? [check('POST /categories with a body without name → 400', 'fail', { exchanges: [failing], failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 201, expected 400', expected: 'status 400', actual: 'status 201' } })]
        : [check(`${id} check`, 'pass')],
    )
    expect(htmlReport(result)).toContain('HTTP 100 (interim, read past)\nHTTP 103 (interim, read past)\nHTTP 201\ncontent-type: application/json')
  })

  test('the rule matrix lists every rule with its section and status', () => {
    const result = runResult((id) => [check(`${id} check`, id.startsWith('create') ? 'skip' : 'pass')], { readOnly: true })
    const html = htmlReport(result)
    const matrix = html.slice(html.indexOf('<section id="rules">'), html.indexOf('<section id="not-verified">'))
    for (const rule of result.rules) {
      const row = new RegExp(`<tr class="${rule.status}"><td><span class="badge ${rule.status}">[A-Z ]+</span></td><td>(<a href="#fail-${rule.id}">)?<code>${rule.id}</code>`)
      expect(matrix).toMatch(row)
      expect(matrix).toContain(`<td>§${rule.section}</td>`)
    }
    expect(matrix).toContain('NOT VERIFIED')
  })

  test('says which rules were not verified and why, and that a read-only run created nothing', () => {
    const result = runResult((id) => [check(`${id} check`, id.startsWith('create') ? 'skip' : 'pass')], { readOnly: true })
    const html = htmlReport(result)
    const section = html.slice(html.indexOf('<section id="not-verified">'), html.indexOf('<section id="ledger">'))
    expect(section).toContain('<strong>--read-only sends no request that could create a record</strong>')
    for (const rule of result.rules.filter((r) => r.id.startsWith('create'))) expect(section).toContain(`<code>${rule.id}</code>`)
    expect(html).toContain('read-only (--read-only): no POST sent, nothing created')
    expect(html).toContain('<h2>Records created: 0</h2><p>None: this run was read-only and sent no POST.</p>')
  })

  test('the ledger lists every record, and marks the ones a conforming server would have refused', () => {
    const accepted = exchange({}, 201, '{"id":5,"description":"x"}')
    const result = runResult(
      (id) =>
        id === 'create-rejects-missing-name'
          ? [check('POST without name → 400', 'fail', { exchanges: [accepted], failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 201, expected 400', expected: 'status 400', actual: 'status 201' } })]
          : [check(`${id} check`, 'pass')],
      {
        ledger: [
          { id: '4', name: `conform-${RUN_ID}-plain`, status: 201, exchangeId: 'elsewhere' },
          { id: '5', name: '(sent: {"description":"x"})', status: 201, exchangeId: accepted.id },
        ],
      },
    )
    const html = htmlReport(result)
    const ledger = html.slice(html.indexOf('<section id="ledger">'))
    expect(ledger).toContain('<h2>Records created: 2</h2>')
    expect(ledger).toContain(`<td><code>4</code></td><td>conform-${RUN_ID}-plain</td>`)
    expect(ledger).toMatch(/<tr class="fail"><td>2<\/td><td><code>5<\/code><\/td><td>\(sent: \{&quot;description&quot;:&quot;x&quot;\}\)<div class="wrong">should have been refused: fails <code>create-rejects-missing-name<\/code>/)
  })

  test.each([
    ['authorization', 'Bearer $CONFORM_API_KEY', 'Bearer $CONFORM_API_KEY'],
    ['authorization', '$CONFORM_API_KEY', '$CONFORM_API_KEY'],
    ['Authorization', 'Basic $CONFORM_API_KEY', 'Basic $CONFORM_API_KEY'],
    ['authorization', 'Token $CONFORM_API_KEY', 'Token $CONFORM_API_KEY'],
    ['authorization', 'Digest $CONFORM_API_KEY', 'Digest $CONFORM_API_KEY'],
    ['authorization', 'Basic $(printf %s "$CONFORM_API_KEY:$CONFORM_API_KEY" | base64 | tr -d \'\\n\')', 'Basic $(printf %s "$CONFORM_API_KEY:$CONFORM_API_KEY" | base64 | tr -d \'\\n\')'],
    ['authorization', 'Token sk_live_0123456789', '[hidden by the report: 24 characters]'],
    ['authorization', 'Bearer ', 'Bearer '],
    // the separators the suite's own wrong forms put around the placeholder are evidence; a letter or digit may be a secret
    ['authorization', 'Bearer:$CONFORM_API_KEY', 'Bearer:$CONFORM_API_KEY'],
    ['authorization', 'Bearer $CONFORM_API_KEY, Bearer $CONFORM_API_KEY', 'Bearer $CONFORM_API_KEY, Bearer $CONFORM_API_KEY'],
    ['authorization', 'Bearer $CONFORM_API_KEY,x', '[hidden by the report: 25 characters]'],
    ['authorization', 'Bearer $CONFORM_API_KEY é', '[hidden by the report: 25 characters]'],
    ['authorization', `Bearer conform-${RUN_ID}-not-a-key`, `Bearer conform-${RUN_ID}-not-a-key`],
    ['authorization', 'Bearer sk_live_0123456789', '[hidden by the report: 25 characters]'],
    ['set-cookie', 'session=abcdef; HttpOnly', '[hidden by the report: 24 characters]'],
    ['x-api-key', 'abcdef', '[hidden by the report: 6 characters]'],
    ['content-type', 'application/json', 'application/json'],
  ])('credential header %s: %j is shown as %j', (name, value, shown) => {
    expect(shownHeaderValue(name, value, RUN_ID)).toBe(shown)
  })

  test('a leaked credential in a response header never reaches the page, whatever the redaction before it did', () => {
    const leaky = exchange({
      response: { status: 200, headers: { 'set-cookie': 'token=supersecretvalue', authorization: 'Bearer supersecretvalue' }, body: '[]', bodyBytes: 2, bodyTruncated: false },
    })
    const html = htmlReport(runResult((id) => [check(`${id} check`, id === 'list-returns-200' ? 'fail' : 'pass', id === 'list-returns-200' ? { exchanges: [leaky] } : {})]))
    expect(html).not.toContain('supersecretvalue')
  })

  test('problems of the run are shown and escaped', () => {
    const html = htmlReport(runResult(undefined, { problems: [{ kind: 'suite-error', message: `vitest ran no test file: ${HOSTILE}` }] }))
    expect(html).toContain('<section id="problems">')
    // an error of the suite is no verdict on the service
    expect(html).toContain('INCOMPLETE: the suite itself failed (no must-rule failed): a fault of the suite, not a verdict on the service')
    expect(html).not.toContain('<script>')
  })

  test('report.css is inlined whole: the page stays one file, and its style is the one in lib/reporters/report.css', () => {
    const css = readFileSync(new URL('../../lib/reporters/report.css', import.meta.url), 'utf8')
    expect(htmlReport(runResult())).toContain(`<style>\n${css}</style>`)
    expect(css).not.toMatch(/<\/style|@import|url\(/i)
  })
})

describe('report.html: expected and actual, character for character', () => {
  test('are shown monospace with whitespace kept (pre-wrap)', () => {
    const css = readFileSync(new URL('../../lib/reporters/report.css', import.meta.url), 'utf8')
    const rule = /\.expected-actual td \{([^}]*)\}/.exec(css)?.[1] ?? ''
    expect(rule).toMatch(/white-space: pre-wrap/)
    expect(rule).toMatch(/font: [^;]*monospace/)
  })

  test('the padded name of issue 11 shows its two leading and two trailing spaces as marked spaces, explained under the values', () => {
    const [card] = failureCards(htmlReport(oneFailure()))
    const mark = '<span class="mark" title="space">··</span>'
    expect(card).toContain(`<tr><th scope="row">Expected</th><td>name: &quot;${mark}conform-${RUN_ID}-padded${mark}&quot; (as sent)</td></tr>`)
    expect(card).toContain(`<tr><th scope="row">Actual</th><td>name: &quot;conform-${RUN_ID}-padded&quot;</td></tr>`)
    expect(card).toContain('<p class="legend">Shown by a marker: <span class="mark">·</span> space.</p>')
  })

  test.each([
    ['\u00A0', '⟨NBSP⟩', 'no-break space (U+00A0)'],
    ['\u200B', '⟨ZWSP⟩', 'zero-width space (U+200B)'],
    ['\u202E', '⟨RLO⟩', 'right-to-left override (U+202E)'],
    ['\x1b', '⟨ESC⟩', 'escape (starts a terminal control sequence) (U+001B)'],
    ['\t', '⇥', 'tab'],
  ])('an invisible %j in actual is a marker %s that says what it is', (char, marker, meaning) => {
    const [card] = failureCards(htmlReport(oneFailure({ code: 'FIELD_CHANGED', message: 'changed', expected: 'name: "a b"', actual: `name: "a${char}b"` })))
    expect(card).toContain(`<td>name: &quot;a<span class="mark" title="${escapeHtml(meaning)}">${marker}</span>b&quot;</td>`)
    expect(card).toContain(`<span class="mark">${marker}</span> ${escapeHtml(meaning)}`)
    expect(card).not.toContain(char)
  })

  test('a line feed in a value is a marker and a line break', () => {
    const [card] = failureCards(htmlReport(oneFailure({ code: 'FIELD_CHANGED', message: 'changed', expected: '"a"', actual: '"a\nb"' })))
    expect(card).toContain('<td>&quot;a<span class="mark" title="line feed">↵</span>\nb&quot;</td>')
  })

  test('values without anything invisible get no marker and no legend', () => {
    const [card] = failureCards(htmlReport(oneCauseManyChecks(3)))
    expect(card).not.toContain('class="mark"')
    expect(card).not.toContain('class="legend"')
  })
})

describe('report.html: failures grouped by cause', () => {
  const html = htmlReport(oneCauseManyChecks(29))
  const cards = failureCards(html)

  test('29 checks with one cause are one card that says 29 and lists each check; another cause is another card', () => {
    expect(cards).toHaveLength(2)
    expect(cards[0]).toMatch(/^<div class="failure group" id="fail-error-status-matches-http-1" data-checks="29">\n<h4><span class="count">29 checks<\/span> failed the same way<\/h4>/)
    expect(cards[0]).toContain('<p class="message">the Error record says status 400 in a 401 response <span class="code" title="failure code">ERROR_STATUS_MISMATCH</span></p>')
    expect(cards[0].match(/<tr><th scope="row">Expected<\/th>/g)).toHaveLength(1)
    const instances = [...cards[0].matchAll(/<li id="fail-error-status-matches-http-1-(\d+)"><details(?: open)?><summary>([^<]*)<\/summary>/g)]
    expect(instances.map((m) => Number(m[1]))).toEqual(Array.from({ length: 29 }, (_, i) => i + 1))
    expect(instances[0][2]).toBe(`${ASKED_WITHOUT_KEY[0]} → Error.status equals the HTTP status`)
    expect(new Set(instances.map((m) => m[2])).size).toBe(29)
    expect(cards[1]).toMatch(/^<div class="failure" id="fail-error-status-matches-http-2">\n<h4>POST \/categories with an array body → Error.status equals the HTTP status<\/h4>/)
  })

  test("every check's evidence stays reachable: each instance holds its own request, response and curl command", () => {
    const items = cards[0].split('<li id=').slice(1)
    expect(items).toHaveLength(29)
    for (const item of items) {
      expect(item).toContain('<details class="exchange"')
      expect(item).toContain('HTTP 401\ncontent-type: application/json')
      expect(item).toContain('<pre class="curl">curl -i -X POST')
    }
    // the first instance is open, with its exchange, so that one example shows without a click
    expect(items[0]).toMatch(/^"fail-error-status-matches-http-1-1"><details open>/)
    expect(items[1]).toMatch(/^"fail-error-status-matches-http-1-2"><details>/)
  })

  test('the section and the rule say how many checks and how many causes', () => {
    expect(html).toContain('<h2>Failures: 30 checks in 1 rule (2 causes)</h2>')
    expect(html).toContain('<p class="source">§2 · must · 30 of 32 checks failed, 2 causes</p>')
  })
})

describe('the records created, when POSTs got no answer', () => {
  test('says none was answered, not that none was accepted, and how many may have created one', () => {
    const result = runResult()
    const unanswered = { ...result, ledger: [], summary: { ...result.summary, unansweredWrites: 47 } }
    const html = htmlReport(unanswered)
    expect(html).toContain('None that the server answered. 47 POSTs got no answer, and each may have created a record the server never told of')
    expect(html).not.toContain('no POST of this run was accepted')
    expect(htmlReport({ ...result, ledger: [] })).toContain('None: no POST of this run was accepted.')
  })
})

test("a run of --update-baseline beside the failures it wrote down: the page's title says RECORDED, as its heading does, not PASS", () => {
  const failing = check('create-returns-201 check', 'fail')
  const known = { ...failing, status: 'warn' as const, known: 'recorded by --update-baseline on 2026-01-01' }
  const byBaseline = runResult((id) => [id === 'create-returns-201' ? known : check(`${id} check`, 'pass')])
  const recorded = { ...byBaseline, baseline: { file: 'conform-baseline.json', known: [], expired: [], fixed: [], recorded: true as const } }
  expect(recorded.verdict).toBe('pass')
  const html = htmlReport(recorded)
  expect(html).toMatch(/<title>RECORDED · Pet Store categories conformance · /)
  expect(html).toMatch(/<h1[^>]*>RECORDED: /)
  // the same failures excused by a baseline it only read: PASS
  expect(htmlReport(byBaseline)).toMatch(/<title>PASS · /)
})
