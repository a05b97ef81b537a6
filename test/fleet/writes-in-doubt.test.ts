/**
 * What the fleet says a deployment wrote when some of its POSTs got no answer (it went down
 * mid-run, a signal or --deadline cut them off) or a server fault: each may have created a record
 * that neither an answer nor a list showed. Its own reports count them; the fleet's line said
 * "5 POSTs sent; no record created", and fleet.json had no field for them, so a production
 * acceptance engineer read that nothing was left behind. Built runs, in process.
 */
import { describe, expect, test } from 'vitest'
import { fleetHtml } from '../../lib/fleet/fleet-html.ts'
import { fleetMarkdown, fleetTerminal } from '../../lib/fleet/fleet-reports.ts'
import { deploymentOf, fleetOf } from '../../lib/fleet/fleet-result.ts'
import { writesDetail } from '../../lib/fleet/fleet-wording.ts'
import type { JournalEntry } from '../../lib/http/journal.ts'
import { ANSWER_LOST_SENT_AGAIN } from '../../lib/http/lost-answer.ts'
import { htmlReport } from '../../lib/reporters/html-report.ts'
import { resultOf } from '../../lib/result/run-result.ts'

const TOOL = { name: 'petstore-categories-conformance', version: '0.0.0' }
const URL = 'https://eu.example/v1/categories'
const post = (id: string, name: string, extra: Partial<JournalEntry>): JournalEntry => ({ id, at: '2026-01-01T00:00:00.000Z', method: 'POST', url: URL, body: JSON.stringify({ name, description: 'd' }), onWire: true, outcome: 'failed', mayHaveCreated: true, ...extra })
const created = (id: string, name: string) => post(id, name, { outcome: 'answered', status: 201, created: { id, name } })
const unanswered = (id: string, name: string) => post(id, name, { error: 'TIMEOUT' })
const faulted = (id: string, name: string) => post(id, name, { outcome: 'answered', status: 502 })

function run(journal: JournalEntry[]) {
  const facts = { tool: TOOL, runId: '20260101-0000-abcde', baseUrl: 'https://eu.example/v1', embeddedServer: false, startedAt: new Date(0), durationMs: 5, options: { readOnly: false, maxWrites: 94, rules: [], timeoutMs: 1000 }, problems: [{ kind: 'server-gone' as const, message: 'the server stopped taking connections during the run' }], cutShort: true, journal }
  return resultOf(new Map(), facts, [])
}

describe('POSTs that may have created a record, on the fleet page', () => {
  const gone = run([unanswered('a', 'cf-abcde-one'), unanswered('b', 'cf-abcde-two'), faulted('c', 'cf-abcde-three')])
  const half = run([created('d', 'cf-abcde-four'), unanswered('e', 'cf-abcde-five')])
  const clean = run([created('f', 'cf-abcde-six')])
  const fleet = fleetOf([deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', gone), deploymentOf('us', 'https://us.example/v1', 'us/report.html', half), deploymentOf('ap', 'https://ap.example/v1', 'ap/report.html', clean)], [gone, half, clean], TOOL)
  const [eu, us, ap] = fleet.deployments

  test('fleet.json counts them, with the prefix to find them by', () => {
    expect(eu.writes).toEqual({ readOnly: false, posts: 3, recordsCreated: 0, prefixes: [], inDoubt: { posts: 3, prefixes: ['cf-abcde-'] } })
    expect(us.writes).toEqual({ readOnly: false, posts: 2, recordsCreated: 1, prefixes: ['cf-abcde-'], inDoubt: { posts: 1, prefixes: ['cf-abcde-'] } })
    // none in doubt: no field
    expect(ap.writes).toEqual({ readOnly: false, posts: 1, recordsCreated: 1, prefixes: ['cf-abcde-'] })
  })

  test('the line never says "no record created" of POSTs that may have created one', () => {
    expect(writesDetail(eu)).toBe('3 POSTs sent; no record answered as created; 3 POSTs with no answer or a server fault may each have created one (prefix cf-abcde-; listed in its report)')
    expect(writesDetail(us)).toBe('2 POSTs sent; 1 record created (prefix cf-abcde-; listed in its report); 1 POST with no answer or a server fault may have created one (prefix cf-abcde-; listed in its report)')
    expect(writesDetail(ap)).toBe('1 POST sent; 1 record created (prefix cf-abcde-; listed in its report)')
  })

  test('the terminal, fleet.md and fleet.html say it alike', () => {
    const doubt = '3 POSTs with no answer or a server fault may each have created one'
    expect(fleetTerminal(fleet, 'fleet.html')).toContain(`Writes: eu: 3 POSTs sent; no record answered as created; ${doubt}`)
    expect(fleetMarkdown(fleet)).toContain(doubt)
    expect(fleetHtml(fleet)).toContain(doubt)
  })
})

describe('POSTs sent again after a 429 or 503 that stored nothing', () => {
  // 2 POSTs of the plan; the first answered 429, then sent again and created; its own report says "2 POSTs sent … and 1 sent again"
  const limited = run([post('a', 'cf-abcde-one', { outcome: 'answered', status: 429, mayHaveCreated: false }), post('a2', 'cf-abcde-one', { attempt: 2, outcome: 'answered', status: 201, created: { id: 'a2', name: 'cf-abcde-one' } }), created('b', 'cf-abcde-two')])
  const fleet = fleetOf([deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', limited)], [limited], TOOL)

  test('are counted apart, as the run\'s own report counts them, not as POSTs of the plan', () => {
    expect(limited.summary.writes).toBe(3)
    expect(fleet.deployments[0]!.writes).toMatchObject({ posts: 3, resent: 1, recordsCreated: 2 })
    expect(writesDetail(fleet.deployments[0]!)).toBe('2 POSTs sent, and 1 sent again (answered 429 or 503, or their answer lost, and the lists showed them not stored); 2 records created (prefix cf-abcde-; listed in its report)')
  })
})

describe('a POST whose answer was lost, which the list showed not stored, sent again and stored', () => {
  // the connection race (lib/http/lost-answer.ts): the first attempt got no answer, the list showed no record, the resend created it
  const raced = run([post('a', 'cf-abcde-one', { answerLost: ANSWER_LOST_SENT_AGAIN }), post('a2', 'cf-abcde-one', { attempt: 2, freshConnection: true, outcome: 'answered', status: 201, created: { id: 'a2', name: 'cf-abcde-one' } })])
  const fleet = fleetOf([deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', raced)], [raced], TOOL)

  test('is a resend, not also a POST that may have created a record: the list accounted for it, as its own report counts', () => {
    expect(raced.summary).toMatchObject({ writes: 2, resentLostWrites: 1, unansweredWrites: 0 })
    expect(fleet.deployments[0]!.writes).toEqual({ readOnly: false, posts: 2, recordsCreated: 1, prefixes: ['cf-abcde-'], resent: 1 })
    expect(writesDetail(fleet.deployments[0]!)).toBe('1 POST sent, and 1 sent again (answered 429 or 503, or their answer lost, and the lists showed them not stored); 1 record created (prefix cf-abcde-; listed in its report)')
    // its report.html lists none under "POSTs that may have created a record"
    expect(htmlReport(raced)).not.toContain('POSTs that may have created a record')
  })
})
