/**
 * A record whose answer the connection race lost, and that the list then showed, is in the ledger
 * with status 0 (no answer came) and the journal's words for it. report.html and summary.md showed
 * the 0 in the status column, as if the server had answered 0, and nothing said the answer was lost.
 */
import { describe, expect, test } from 'vitest'
import { ANSWER_LOST_RECORD_FOUND } from '../../lib/http/lost-answer.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { markdownSummary } from '../../lib/reporters/markdown-summary.ts'
import { check, RUN_ID, runResult } from './fixture.ts'

describe('the ledger marks a record whose answer was lost', () => {
  // the ledger as results.json holds it (run-result.ts ledgerOf: status 0 and the journal's words for a lost answer)
  const result = {
    ...runResult((id) => [check(`${id} check`, 'pass')]),
    ledger: [
      { id: '4', name: `conform-${RUN_ID}-plain`, status: 201, exchangeId: 'a' },
      { id: '5', name: `conform-${RUN_ID}-empty`, status: 0, exchangeId: 'b', answerLost: ANSWER_LOST_RECORD_FOUND },
    ],
  }

  test('report.html: the journal\'s words in the status column, not a status 0', () => {
    const ledger = htmlReport(result).split('<section id="ledger">')[1] ?? ''
    expect(ledger).toContain(`<td>conform-${RUN_ID}-plain</td><td>201</td>`)
    expect(ledger).toContain(`<td>conform-${RUN_ID}-empty</td><td>answer lost, record found</td>`)
    expect(ledger).not.toContain('<td>0</td>')
  })

  test('summary.md: the same', () => {
    const md = markdownSummary(result)
    expect(md).toContain(`| conform-${RUN_ID}-empty | answer lost, record found |`)
    expect(md).not.toContain(`| conform-${RUN_ID}-empty | 0 |`)
  })
})
