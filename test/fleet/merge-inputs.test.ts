/**
 * merge reads folders other jobs wrote: one without results.json (a job killed before its reports)
 * or with one edited by hand is that deployment not judged, with the reason, and the others still
 * count, as a fleet run says of a folder it cannot read. Before, such a folder ended the merge with
 * exit 2 and no page (hiding another deployment's failure), a verdict edited to pass passed the
 * gate though the file's own must-rule failed, and a verdict no run writes was told as a page that
 * could not be written.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { mergeMain } from '../../lib/cli/merge.ts'
import { fleetOf, type FleetResult } from '../../lib/fleet/fleet-result.ts'
import { resultsFileOf } from '../../lib/result/results-file.ts'
import { check, oneFailure, runResult } from '../reporters/fixture.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-merge-inputs-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A report folder holding `results` (an object written as JSON) or nothing. */
function folder(name: string, results?: unknown): string {
  const dir = join(scratch, name)
  mkdirSync(dir, { recursive: true })
  if (results !== undefined) writeFileSync(join(dir, 'results.json'), JSON.stringify(results))
  return dir
}

function merge(dirs: string[], out: string) {
  let stdout = ''
  let stderr = ''
  const code = mergeMain([...dirs, '--report-dir', join(scratch, out)], { out: (t) => void (stdout += t), err: (t) => void (stderr += t) }, scratch, {})
  const fleet = JSON.parse(readFileSync(join(scratch, out, 'fleet.json'), 'utf8')) as FleetResult
  return { code, stdout, stderr, fleet }
}

/** Each a run of its own, as each CI job's is: one run under two folders is one job's reports copied (merge --expect counts it once). */
let runs = 0
const ownRun = <R extends object>(results: R): R => ({ ...results, runId: `20260101-0000-run${++runs}` })
const failed = () => ownRun(resultsFileOf(oneFailure()))
const passed = () => ownRun(resultsFileOf(runResult()))

describe('merge of a folder whose results.json is missing or not a run\'s', () => {
  test('missing, beside a deployment that failed: exit 1, the page written, the missing one not judged and why', () => {
    const m = merge([folder('us', failed()), folder('killed')], 'out-missing')
    expect(m.code, m.stderr).toBe(1)
    expect(m.fleet.deployments.map((d) => [d.label, d.verdict, d.exitCode])).toEqual([
      ['us', 'fail', 1],
      ['killed', 'error', 2],
    ])
    expect(m.fleet.deployments[1]?.reason).toMatch(/its reports could not be read: cannot read .*killed\/results\.json: no such file/)
    expect(m.stdout).toMatch(/^Fleet: FAIL \(exit 1\): 0 of 2 passed; 1 failed \(us\); 1 could not be judged \(killed\)$/m)
  })

  test('of a run a signal stopped before it started (exit 130): not judged, with its reason, not "not the results.json of a run"', () => {
    const stopped = { tool: { name: 'petstore-categories-conformance', version: '0' }, startedAt: new Date(0).toISOString(), baseUrl: 'https://eu.example/v1', verdict: 'error', exitCode: 130, error: 'interrupted by SIGINT before the run started', summary: { requests: 0, writes: 0, recordsCreated: 0 }, rules: [], ledger: [], journal: [] }
    const m = merge([folder('us-ok', passed()), folder('eu-stopped', stopped)], 'out-stopped')
    expect(m.code, m.stderr).toBe(2)
    expect(m.fleet.deployments[1]).toMatchObject({ label: 'eu-stopped', verdict: 'error', reason: 'interrupted by SIGINT before the run started' })
  })

  test('a verdict edited to pass while its must-rule failed: not judged, never a pass', () => {
    const edited = { ...failed(), verdict: 'pass', exitCode: 0 }
    const m = merge([folder('eu', passed()), folder('edited', edited)], 'out-edited')
    expect(m.code).toBe(2)
    expect(m.fleet.deployments[1]).toMatchObject({ label: 'edited', verdict: 'error', exitCode: 2 })
    expect(m.fleet.deployments[1]?.reason).toMatch(/is not the results\.json of a run: its verdict is pass, while its must-rule "create-echoes-fields" failed/)
  })

  test.each([
    ['a verdict no run writes', { verdict: 'garbage' }, /its verdict "garbage" is none of pass, fail, incomplete/],
    ['a verdict that is a name of every object', { verdict: '__proto__' }, /its verdict "__proto__" is none of pass, fail, incomplete/],
    ['an exit code not its verdict\'s', { exitCode: 0 }, /its exitCode "0" is not that of its verdict, fail/],
    ['a rule that is no object', { rules: [null] }, /its rule 1 is not a rule's result/],
    ['a rule whose checks are not a list', { rules: [{ id: 'x', level: 'must', status: 'fail', checks: null }] }, /its rule 1 is not a rule's result/],
    ['a check that is no object', { rules: [{ id: 'x', level: 'must', status: 'pass', checks: [null] }] }, /its rule 1 is not a rule's result/],
    ['problems that are not a list', { problems: 'oops' }, /it has no runId, rules or problems/],
    // edited to pass beside checks that failed (the fleet's junit.xml listed their failures under a PASS), or with its rules emptied
    ['a failed rule edited to pass', { verdict: 'pass', exitCode: 0, rules: (failed().rules as { status: string }[]).map((r) => ({ ...r, status: r.status === 'fail' ? 'pass' : r.status })) }, /its rule "create-echoes-fields" is "pass" while a check of it failed/],
    ['a fail whose failed rule was taken out', { rules: (failed().rules as { status: string }[]).filter((r) => r.status !== 'fail') }, /its verdict is fail, with no must-rule failed and no problem of its run/],
    ['a pass with its rules emptied', { verdict: 'pass', exitCode: 0, rules: [] }, /its verdict is pass, with no rule judged/],
    ['an incomplete run edited to pass', { verdict: 'pass', exitCode: 0, rules: passed().rules, problems: [{ kind: 'deadline', message: 'the run did not finish within 60000 ms (--deadline)' }] }, /its verdict is pass, beside a problem of its run, which no pass has: "the run did not finish within 60000 ms/],
  ])('%s: that deployment not judged, said so; the other\'s failure is the verdict', (name, change, says) => {
    const m = merge([folder(`bad-${name.replace(/\W+/g, '-')}`, { ...failed(), ...change }), folder(`us-${name.replace(/\W+/g, '-')}`, failed())], `out-${name.replace(/\W+/g, '-')}`)
    expect(m.code, m.stderr).toBe(1)
    expect(m.stderr).toBe('')
    expect(m.fleet.deployments.map((d) => [d.verdict, d.exitCode])).toEqual([
      ['error', 2],
      ['fail', 1],
    ])
    expect(m.fleet.deployments[0]?.reason).toMatch(says)
  })

  test('a run of this version and one with a check skipped merge as they are', () => {
    const skipped = resultsFileOf(runResult((id) => [check(`${id} check`, id === 'ids-unique' ? 'skip' : 'pass')]))
    const m = merge([folder('a', passed()), folder('b', skipped)], 'out-good')
    expect(m.code, m.stderr + JSON.stringify(m.fleet.deployments)).toBe(0)
  })
})

describe('merge into a run\'s own report folder', () => {
  test('one a killed run left with its journal alone: refused, the journal (the writes it may have made) stays', () => {
    const killed = folder('killed-kept')
    writeFileSync(join(killed, 'journal.ndjson'), '{"id":"x","method":"POST","phase":"on-wire"}\n')
    let stderr = ''
    expect(mergeMain([folder('eu-beside-killed', passed()), '--report-dir', killed], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})).toBe(2)
    expect(stderr).toMatch(/^conform merge: .*killed-kept holds a run's journal \(journal\.ndjson, of a run stopped before its reports\), which the fleet page would remove; /)
    expect(readFileSync(join(killed, 'journal.ndjson'), 'utf8')).toContain('"phase":"on-wire"')
  })

  test('refused before anything is written: its results.json, report.html and journal stay', () => {
    const us = folder('us-kept', failed())
    writeFileSync(join(us, 'journal.ndjson'), '{"id":"x"}\n')
    let stderr = ''
    const code = mergeMain([folder('eu-into', passed()), '--report-dir', us], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})
    expect(code).toBe(2)
    expect(stderr).toMatch(/^conform merge: .*us-kept holds a run's reports \(results\.json\), which the fleet page would remove; give --report-dir the folder the report folders are in, or a new one\n$/)
    expect(readFileSync(join(us, 'journal.ndjson'), 'utf8')).toBe('{"id":"x"}\n')
    expect(JSON.parse(readFileSync(join(us, 'results.json'), 'utf8'))).toMatchObject({ verdict: 'fail' })
  })
})

describe('merge of a fleet\'s folder whose fleet could not be run (a job whose secret was not set)', () => {
  test('no verdict: its reason is the fleet\'s error, never a pass of the other folders alone', () => {
    const job = folder('job-without-secret')
    const notRun = fleetOf([], [], { name: 'petstore-categories-conformance', version: '0.0.0' }, 'targets.yaml deployment 1 (eu): no key: the variable EU_KEY its apiKeyEnv names is not set')
    writeFileSync(join(job, 'fleet.json'), JSON.stringify(notRun))
    const m = merge([job, folder('us-beside', passed())], 'out-not-run')
    expect(m.code, m.stderr).toBe(2)
    expect([m.fleet.verdict, m.fleet.exitCode]).toEqual(['error', 2])
    expect(m.fleet.error).toMatch(/^the fleet of .*job-without-secret had no verdict: targets\.yaml deployment 1 \(eu\): no key/)
    expect(m.stdout).toMatch(/^Fleet: NOT JUDGED \(exit 2\): 1 of 1 passed; the fleet of .*job-without-secret had no verdict/m)
  })
})

describe('merge of a fleet\'s folder whose fleet.json is not one', () => {
  test.each([
    ['not JSON', '{bad', /^conform merge: cannot read .*fleet-bad-json\/fleet\.json: /],
    ['a deployment that is no object', '{"deployments":[null]}', /^conform merge: .*fleet-null-entry\/fleet\.json is not a fleet's\n$/],
    // a failed fleet's list emptied (by hand, or a file cut short) brought nothing, and the other folders passed the gate
    ['no deployment and no reason', '{"exitCode":1,"verdict":"fail","deployments":[]}', /^conform merge: .*fleet-empty\/fleet\.json lists no deployment and no reason: every fleet has a deployment, or says why it could not be run \(a file edited by hand or cut short\?\)\n$/],
  ])('%s: exit 2, one line naming the file', (_, text, says) => {
    const dir = folder(_ === 'not JSON' ? 'fleet-bad-json' : _.startsWith('no deployment') ? 'fleet-empty' : 'fleet-null-entry')
    writeFileSync(join(dir, 'fleet.json'), text)
    let stderr = ''
    expect(mergeMain([dir, '--report-dir', join(scratch, 'out-bad-fleet')], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})).toBe(2)
    expect(stderr).toMatch(says)
  })
})

describe('merge of one folder given twice (a pattern and its name both matched it)', () => {
  test('exit 2, the line says it is given twice, not that two folders share a name', () => {
    const eu = folder('eu-twice', passed())
    let stderr = ''
    const code = mergeMain([eu, eu, '--report-dir', join(scratch, 'out-twice')], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})
    expect(code).toBe(2)
    expect(stderr).toMatch(/eu-twice is given twice: each deployment's folder once\n$/)
  })
})

describe("merge of a job whose key secret was not set (the matrix's CONFORM_API_KEY empty)", () => {
  test('its row names the base URL the job was given, not "(not recorded)"; one with credentials is not shown', async () => {
    const given = 'http://127.0.0.1:9/v1'
    const job = await runConformInProcess([], { env: { CONFORM_BASE_URL: given, CONFORM_API_KEY: '' } })
    const withCredentials = await runConformInProcess(['--base-url', 'https://alice:S3cretPassw0rd@petstore.example/v1'])
    try {
      expect(job.code).toBe(2)
      expect(job.stderr).toMatch(/no API key/)
      const m = merge([job.reportDir], 'out-no-secret')
      expect(m.fleet.deployments.map((d) => [d.baseUrl, d.exitCode])).toEqual([[given, 2]])
      expect(m.stdout).toContain(`NOT JUDGED  ${basename(job.reportDir)}  ${given}  no API key`)
      expect(JSON.parse(readFileSync(join(withCredentials.reportDir, 'results.json'), 'utf8'))).toMatchObject({ verdict: 'error', baseUrl: null })
    } finally {
      job.cleanup()
      withCredentials.cleanup()
    }
  })
})

describe('merge of a folder whose name is no label (a CI matrix label with a space)', () => {
  test('that deployment is not judged, and why; the others count, and the page is written: a failure beside it is not hidden', () => {
    const eu = folder('eu production', passed())
    const us = folder('us-named', failed())
    const m = merge([eu, us], 'out-no-label')
    expect(m.code, m.stderr).toBe(1)
    expect(m.fleet.deployments.map((d) => [d.label, d.exitCode])).toEqual([
      ['eu production', 2],
      ['us-named', 1],
    ])
    expect(m.fleet.deployments[0]?.reason).toMatch(/^its folder name is its deployment's label, and that label "eu production" is not a folder name: .*; rename the folder \(in a CI matrix, the job's label\)$/)
    expect(readFileSync(join(scratch, 'out-no-label', 'fleet.html'), 'utf8')).toContain('eu production')
  })
})

describe('merge of a folder left from an older run (a label dropped from the matrix, a workspace that keeps its files)', () => {
  test('its verdict stands, and the page says how much older its run is than the newest joined; runs of one round have no such note', () => {
    const today = { ...passed(), startedAt: '2026-11-26T09:00:00.000Z' }
    const lastWeek = { ...passed(), startedAt: '2026-11-19T08:00:00.000Z' }
    const m = merge([folder('eu-today', today), folder('us-today', { ...today, startedAt: '2026-11-26T07:30:00.000Z' }), folder('old-staging', lastWeek)], 'out-stale')
    expect(m.code, m.stderr).toBe(0)
    expect(m.fleet.deployments.map((d) => [d.label, d.exitCode, d.notes])).toEqual([
      ['eu-today', 0, undefined],
      ['us-today', 0, undefined],
      ['old-staging', 0, ['its run started 7 days before the newest run joined here (2026-11-19T08:00:00.000Z against 2026-11-26T09:00:00.000Z): a folder left from an older run? Its verdict is that run\'s']],
    ])
    expect(readFileSync(join(scratch, 'out-stale', 'fleet.md'), 'utf8')).toMatch(/^- old-staging: its run started 7 days before the newest run joined here/m)
    expect(readFileSync(join(scratch, 'out-stale', 'fleet.html'), 'utf8')).toContain('old-staging</a>: its run started 7 days before')
  })
})

describe('merge of the folder of a job killed mid-run (its journal, no results.json)', () => {
  test('not judged, and the reason says the run was stopped before its reports and what its journal holds', () => {
    const dir = folder('eu-killed')
    const line = (id: string, method: string, phase: string, more: object = {}) => JSON.stringify({ id, method, url: 'https://eu.example/v1/categories', attempt: 1, phase, at: '2026-11-26T09:00:00.000Z', ...more })
    // e: a POST over the write budget, refused before it went (--max-writes): never sent, never counted as sent
    // b: killed before its on-wire line (the request maybe on the server): sent, its answer unknown; c: reset, no answer; f: answered 201, its record named
    // g: written, killed before its answer
    const lines = [line('a', 'GET', 'dispatched'), line('a', 'GET', 'on-wire'), line('b', 'POST', 'dispatched'), line('c', 'POST', 'dispatched'), line('c', 'POST', 'ended', { error: 'CONNECTION_RESET' })]
    const headers = { 'user-agent': 'petstore-conform/0.1.0 (run 20261126-0900-k3x9q)' }
    lines.push(line('f', 'POST', 'dispatched', { headers }), line('f', 'POST', 'on-wire'), line('f', 'POST', 'ended', { status: 201, created: { id: '7', name: 'cf-k3x9q-Desc-16' } }))
    lines.push(line('g', 'POST', 'dispatched'), line('g', 'POST', 'on-wire'), line('e', 'POST', 'refused'), '{"id":"d","meth')
    writeFileSync(join(dir, 'journal.ndjson'), lines.join('\n'))
    const m = merge([dir, folder('us-beside-killed', failed())], 'out-killed')
    expect(m.code).toBe(1)
    expect(m.fleet.deployments[0]?.reason).toMatch(/eu-killed\/results\.json: no such file, beside a journal\.ndjson of 5 requests begun, 3 of them written to a connection \(4 POSTs: 2 written, 1 of them answered 201, creating id 7 "cf-k3x9q-Desc-16" \(names start with cf-k3x9q-\); 3 with no answer in it, 2 of which no line says went out \(a request waiting for one of the connections has none; one written as the run was killed may have gone\): writes that may have been made, each line holding its body\) and 1 refused before sending: the run was stopped before it wrote its reports \(a job killed or timed out\); its journal says what it sent$/)
    // its page links the journal it left, not a report.html that is not there; its row names the address the journal's list went to, not "(not recorded)"
    expect(m.fleet.deployments[0]?.report).toMatch(/eu-killed\/journal\.ndjson$/)
    expect(m.fleet.deployments[0]?.baseUrl).toBe('https://eu.example/v1')
    expect(readFileSync(join(scratch, 'out-killed', 'fleet.md'), 'utf8')).toMatch(/\| \[journal\.ndjson\]\([^)]*eu-killed\/journal\.ndjson\) \|$/m)
    // its neighbour holds a results.json alone: the link goes to that, not to a report.html that is not there
    expect(m.fleet.deployments[1]?.report).toMatch(/us-beside-killed\/results\.json$/)
  })

  test('a record named "0" among those created: the words say the prefix is in its description, as the reports do', () => {
    const dir = folder('eu-killed-zero')
    const line = (id: string, phase: string, more: object = {}) => JSON.stringify({ id, method: 'POST', url: 'https://eu.example/v1/categories', attempt: 1, phase, at: '2026-11-26T09:00:00.000Z', ...more })
    const headers = { 'user-agent': 'petstore-conform/0.1.0 (run 20261126-0900-k3x9q)' }
    writeFileSync(join(dir, 'journal.ndjson'), [line('z', 'dispatched', { headers }), line('z', 'on-wire'), line('z', 'ended', { status: 201, created: { id: '8', name: '0' } })].join('\n'))
    // it said "creating id 8 "0" (names start with cf-k3x9q-)"
    expect(merge([dir], 'out-killed-zero').fleet.deployments[0]?.reason).toContain('creating id 8 "0" (names, and the descriptions of the empty name, "0", "__proto__" and (after an "=") the name of digits, start with cf-k3x9q-)')
  })
})

describe("merge of a fleet's folder whose fleet.json lists a label that is no folder name (edited by hand)", () => {
  test('exit 2, one line naming the file; nothing outside its folder is read or linked', () => {
    const dir = folder('fleet-edited-label')
    writeFileSync(join(dir, 'fleet.json'), JSON.stringify({ deployments: [{ label: '../eu-twice', baseUrl: 'https://eu.example/v1' }] }))
    let stderr = ''
    expect(mergeMain([dir, '--report-dir', join(scratch, 'out-edited-label')], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})).toBe(2)
    expect(stderr).toMatch(/^conform merge: .*fleet-edited-label\/fleet\.json lists a deployment whose label "\.\.\/eu-twice" is not a folder name/)
  })
})

describe('merge of folders an upload left part of (results.json or report.html missing)', () => {
  test("reports without results.json: not judged, and the reason says the folder holds the others, not 'is it a report folder?'; the link goes to a file that is there", () => {
    const partial = folder('partial')
    writeFileSync(join(partial, 'report.html'), '<p>report</p>')
    writeFileSync(join(partial, 'summary.md'), 'summary')
    // the journal too, as a whole run leaves it: its reports written, the run was not "stopped before it wrote its reports"
    writeFileSync(join(partial, 'journal.ndjson'), `${JSON.stringify({ id: 'a', phase: 'ended', method: 'GET', url: 'http://127.0.0.1:9/v1/categories', status: 200 })}\n`)
    const noPage = folder('no-page', passed())
    const m = merge([partial, noPage], 'out-partial')
    expect(m.code).toBe(2)
    expect(m.fleet.deployments[0]?.reason).toMatch(/results\.json: no such file, beside report\.html, summary\.md: the folder holds a run's reports without the results\.json a verdict is read from \(an upload that left it out\? upload the whole report folder\)$/)
    // a results.json without its report.html: the row links what the folder holds
    expect(m.fleet.deployments.map((d) => d.report)).toEqual(['../partial/report.html', '../no-page/results.json'])
  })
})

describe('merge of two folders of one name (eu-prod of a fleet and of a matrix job)', () => {
  test('exit 2, and the line says the name is the label and what to do', () => {
    mkdirSync(join(scratch, 'round-1'), { recursive: true })
    mkdirSync(join(scratch, 'round-2'), { recursive: true })
    let stderr = ''
    const code = mergeMain([folder('round-1/eu-prod', passed()), folder('round-2/EU-prod', failed()), '--report-dir', join(scratch, 'out-same')], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})
    expect(code).toBe(2)
    expect(stderr).toMatch(/round-2\/EU-prod and .*round-1\/eu-prod have the same name, "EU-prod": a folder's name is its deployment's label, and each deployment needs its own; give one of them \(the run to judge\), or rename the other's folder\n$/)
  })
})

describe('merge --expect short of a job, beside a deployment that failed, under GitHub Actions', () => {
  test('an annotation says the fleet is not whole, and another the deployment that failed: not "could not be run" in its place', () => {
    const summary = join(scratch, 'summary-expect.md')
    writeFileSync(summary, '')
    let stdout = ''
    const code = mergeMain([folder('gh-eu', failed()), folder('gh-us', passed()), '--expect', '3', '--report-dir', join(scratch, 'out-gh')], { out: (t) => void (stdout += t), err: () => undefined }, scratch, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary })
    expect(code).toBe(1)
    const annotations = stdout.split('\n').filter((line) => line.startsWith('::error '))
    expect(annotations).toEqual([expect.stringMatching(/^::error title=conformance fleet not whole::3 deployments expected \(--expect\), 2 found/), expect.stringMatching(/^::error title=gh-eu%3A conformance failed::/)])
  })
})

describe("merge of a fleet's folder without one of its deployments' folders (an upload that left it out)", () => {
  test('that deployment is not judged, and the reason says its folder is missing, not "is it a report folder?"', () => {
    const fleetDir = folder('fleet-partial')
    folder('fleet-partial/eu', passed())
    writeFileSync(join(fleetDir, 'fleet.json'), JSON.stringify({ deployments: [{ label: 'eu', baseUrl: 'https://eu.example/v1' }, { label: 'us', baseUrl: 'https://us.example/v1' }] }))
    const m = merge([fleetDir], 'out-fleet-partial')
    expect(m.code).toBe(2)
    expect(m.fleet.deployments[1]?.reason).toMatch(/fleet-partial\/us\/results\.json: no such folder \(the fleet\.json that lists this deployment came without its reports: were they left out of the copy or upload\?\)$/)
  })
})

describe('junit.xml of a merge not whole (--expect short), one of whose deployments is labelled "fleet"', () => {
  test("the fleet's own testsuite is (fleet), never a deployment's name, and its test case says the fleet is not whole, not that it could not be run", () => {
    const m = merge([folder('fleet', passed()), folder('junit-us', passed()), '--expect', '3'], 'out-junit-whole')
    expect(m.code).toBe(2)
    const xml = readFileSync(join(scratch, 'out-junit-whole', 'junit.xml'), 'utf8')
    expect([...xml.matchAll(/<testsuite name="([^"]*)"/g)].map((x) => x[1])).toEqual(['fleet', 'junit-us', '(fleet)'])
    expect(xml).toMatch(/<testcase classname="\(fleet\)" name="the fleet is whole" time="0"><error message="3 deployments expected \(--expect\), 2 found[^"]*" type="FleetNotWhole">/)
  })
})

describe('merge --expect of one job\'s reports under two names (two artifact patterns that both match it)', () => {
  test('counted once: a job whose reports are missing is not hidden by the copy (it passed --expect 3 with two jobs\' reports)', () => {
    const copied = passed()
    const m = merge([folder('copy-eu', passed()), folder('copy-us', copied), folder('copy-us-again', copied), '--expect', '3'], 'out-copied')
    expect(m.code).toBe(2)
    expect(m.fleet.error).toMatch(/^3 deployments expected \(--expect\), 2 found \(copy-us and copy-us-again hold the same run, one job's reports under two names\): a job whose reports are missing was not judged/)
    // each its own run: counted as they are
    const own = merge([folder('own-eu', passed()), folder('own-us', passed()), folder('own-ap', passed()), '--expect', '3'], 'out-own')
    expect(own.code).toBe(0)
    expect(own.fleet.error).toBeUndefined()
  })
})

describe('merge --expect past the folders of this run (a stale folder of an earlier workflow joined)', () => {
  test('no verdict, and the line says a folder too many, not that a job is missing', () => {
    const m = merge([folder('more-eu', passed()), folder('more-us', passed()), '--expect', '1'], 'out-expect-more')
    expect(m.code).toBe(2)
    expect(m.stdout).toMatch(/^Fleet: NOT JUDGED \(exit 2\): 2 of 2 passed; 1 deployment expected \(--expect\), 2 found: a folder of another run .* is among them; give only the folders of this run's jobs$/m)
    expect(m.stdout).not.toMatch(/missing/)
  })
})

describe('merge of a run\'s results.json given in place of its folder (as compare takes one)', () => {
  test('exit 2, and the line names the folder to give, whose name is the label; a path where nothing is says so', () => {
    const eu = folder('eu-file', passed())
    let stderr = ''
    const code = mergeMain([join(eu, 'results.json'), join(scratch, 'nowhere-at-all'), '--report-dir', join(scratch, 'out-file')], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})
    expect(code).toBe(2)
    expect(stderr).toBe(`conform merge: ${join(eu, 'results.json')} is no folder: a file; give the folder that holds it, ${eu} (its name is the deployment's label)\n`)
    stderr = ''
    mergeMain([join(scratch, 'nowhere-at-all'), '--report-dir', join(scratch, 'out-file')], { out: () => undefined, err: (t) => void (stderr += t) }, scratch, {})
    expect(stderr).toBe(`conform merge: ${join(scratch, 'nowhere-at-all')} is no folder (nothing is there)\n`)
  })
})
