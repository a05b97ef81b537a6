/** summary.md: the run for a CI job summary, bounded, with server text that renders as plain text. */
import { describe, expect, test } from 'vitest'
import { escapeMarkdown, markdownSummary, MAX_ROWS } from '../../lib/reporters/markdown-summary.ts'
import { check, everythingFails, RUN_ID, runResult } from './fixture.ts'

describe('summary.md', () => {
  test('verdict, counts, first failures as a table, and a bounded length when everything fails', () => {
    const text = markdownSummary(everythingFails())
    expect(text.split('\n')[0]).toBe('## ❌ Pet Store categories conformance: FAIL: 19 of 19 rules failed, 1 problem during the run')
    expect(text).toContain('| rule | check | expected | actual |')
    const rows = text.split('\n').filter((l) => l.startsWith('| `'))
    expect(rows).toHaveLength(MAX_ROWS)
    expect(text).toContain(`… and ${19 * 10 - MAX_ROWS} more failed checks: see report.html.`)
    expect(text.length).toBeLessThan(64 * 1024)
  })

  test('server text cannot add HTML, links, mentions, math or table cells', () => {
    const text = markdownSummary(everythingFails())
    const rows = text.split('\n').filter((l) => l.startsWith('| `'))
    for (const row of rows) expect(row.split(/(?<!\\)\|/).length).toBe(6)
    expect(text).not.toMatch(/<script|<img|\]\(http/)
    expect(text).not.toMatch(/(?<!\\)@someone|(?<!\\)\$x/)
    expect(escapeMarkdown('a|b <i> [l](u) @m $x$ *e*\nnext')).toBe('a\\|b &lt;i&gt; \\[l\\]\\(u\\) \\@m \\$x\\$ \\*e\\* next')
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
    expect(text).toContain('### Not verified\n\n- --read-only sends no request that could create a record: `create-returns-201`, ')
    expect(text).toContain('### Records created: 1')
    expect(text).toContain(`| 12 | conform-${RUN_ID}-plain | 201 |`)
  })
})
