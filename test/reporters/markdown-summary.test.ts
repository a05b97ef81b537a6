/** summary.md: the run for a CI job summary, bounded, with server text that renders as plain text. */
import { describe, expect, test } from 'vitest'
import { escapeMarkdown, markdownSummary, MAX_ROWS } from '../../lib/reporters/markdown-summary.ts'
import { ASKED_WITHOUT_KEY, check, everythingFails, oneCauseManyChecks, oneFailure, RUN_ID, runResult } from './fixture.ts'

describe('summary.md', () => {
  test('verdict, counts, first failures as a table, and a bounded length when everything fails', () => {
    const text = markdownSummary(everythingFails())
    expect(text.split('\n')[0]).toBe('## ❌ Pet Store categories conformance: FAIL: 21 of 21 rules failed, 1 problem during the run')
    expect(text).toContain('| rule | failure | checks | expected | actual |')
    const rows = text.split('\n').filter((l) => l.startsWith('| `'))
    expect(rows).toHaveLength(MAX_ROWS)
    expect(text).toContain(`… and ${21 * 10 - MAX_ROWS} more failures (${21 * 10 - MAX_ROWS} checks): see report.html.`)
    expect(text.length).toBeLessThan(64 * 1024)
  })

  test('server text cannot add HTML, links, mentions, math or table cells', () => {
    const text = markdownSummary(everythingFails())
    const rows = text.split('\n').filter((l) => l.startsWith('| `'))
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length).toBe(7)
    expect(text).not.toMatch(/<script|<img|\]\(http/)
    expect(text).not.toMatch(/(?<!\\)@someone|(?<!\\)\$x/)
    expect(escapeMarkdown('a|b <i> [l](u) @m $x$ *e*\nnext')).toBe('a\\|b &lt;i&gt; \\[l\\]\\(u\\) \\@m \\$x\\$ \\*e\\*↵next')
  })

  test("a server's address is no link on GitHub: https://, www. and an e-mail address, which cmark-gfm links whatever is escaped in it", () => {
    // cmark-gfm (GitHub's renderer), measured: "www\.a.b" and "https\://a.b" are text, "bob\@evil\.example" a mailto: link
    expect(escapeMarkdown('see https://evil.example/a, www.evil.example/w or bob_x@evil.example')).toBe(
      'see https\\://evil.example/a, www\\.evil.example/w or bob\\_x\\@<!-- -->evil.example',
    )
    // an @ that starts a word (a mention, Spring's @Valid) keeps its escape alone
    expect(escapeMarkdown('@Valid and a @ b')).toBe('\\@Valid and a \\@ b')
  })

  test('a curl line to reproduce the first failure, in a fence nothing inside can close', () => {
    const result = runResult((id) =>
      id === 'ids-unique' ? [check('c', 'fail', { reproduce: ["curl -i -X POST 'https://x/v1/categories' --data-binary '```'"] })] : [check('p', 'pass')],
    )
    const text = markdownSummary(result)
    expect(text).toContain("````sh\ncurl -i -X POST 'https://x/v1/categories' --data-binary '```'\n````")
  })

  test('lists rules not verified and the records created', () => {
    const result = runResult((id) => [check('c', id.startsWith('create') ? 'skip' : 'pass')], {
      ledger: [{ id: '12', name: `conform-${RUN_ID}-plain`, status: 201, exchangeId: 'e' }],
    })
    const text = markdownSummary(result)
    expect(text).toContain('### Not verified\n\nThis run says nothing about these rules: none of their checks ran.\n\n- --read-only sends no request that could create a record: `create-returns-201`, ')
    expect(text).toContain('### Records created: 1')
    expect(text).toContain(`| 12 | conform-${RUN_ID}-plain | 201 |`)
  })

  test('rules judged by fewer checks are not called not verified: the table counts none, and the section says every rule was verified', () => {
    // a --max-writes run: every rule judged, some on fewer checks (the table above says 0 rules not verified)
    const text = markdownSummary(runResult((id) => [check(`${id} judged`, 'pass'), check(`${id} over the budget`, 'skip', { cause: 'write-budget', skipReason: 'not verified: over the write budget (--max-writes 6)' })]))
    expect(text).toContain('### Not verified\n\nEvery rule was verified by at least one check.\n\nVerified by fewer checks than a full run:\n\n- `list-returns-200`: 1 check skipped (over the write budget')
  })

  test('29 checks with one cause are one row that names how many and lists every check; another cause is another row', () => {
    const text = markdownSummary(oneCauseManyChecks(29))
    expect(text).toContain('### Failures: 30 checks in 1 rule (2 causes)')
    const rows = text.split('\n').filter((l) => l.startsWith('| `'))
    expect(rows).toHaveLength(2)
    const cells = rows[0].split(/(?<!\\)\|/).map((c) => c.trim())
    expect(cells.slice(1, 3)).toEqual(['`error-status-matches-http` §2', '`ERROR_STATUS_MISMATCH` the Error record says status 400 in a 401 response'])
    const names = cells[3].split('<br>')
    expect(names[0]).toBe('**29 checks:**')
    expect(names).toHaveLength(30)
    expect(names[1]).toBe(`${ASKED_WITHOUT_KEY[0]} → Error.status equals the HTTP status`)
    expect(cells.slice(4, 6)).toEqual(['"status"\\: 401', '"status"\\: 400'])
    expect(rows[1]).toContain('| POST /categories with an array body → Error.status equals the HTTP status |')
  })

  test('a row of very many checks lists as many as fit and counts the rest', () => {
    const row = markdownSummary(oneCauseManyChecks(400)).split('\n').find((l) => l.startsWith('| `'))!
    expect(row).toContain('**400 checks:**<br>')
    expect(row).toMatch(/<br>… and \d+ more in report\.html \|/)
    expect(row.length).toBeLessThan(4000)
  })

  test('the padded name shows its spaces as markers, with the legend under the table', () => {
    const text = markdownSummary(oneFailure())
    expect(text).toContain(`| name\\: "··conform-${RUN_ID}-padded··" \\(as sent\\) | name\\: "conform-${RUN_ID}-padded" |`)
    expect(text).toContain('Shown by a marker in the table: · space.')
  })

  test('invisible characters in a value are markers, never raw', () => {
    const text = markdownSummary(oneFailure({ code: 'FIELD_CHANGED', message: 'changed', expected: '"a b"', actual: '"a\u00A0b\u200B\u202E\x1b\n"' }))
    expect(text).toContain('| "a b" | "a⟨NBSP⟩b⟨ZWSP⟩⟨RLO⟩⟨ESC⟩↵" |')
    expect(text).not.toMatch(/[\u00A0\u200B\u202E\x1b]/)
  })
})
