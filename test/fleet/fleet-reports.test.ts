/**
 * The fleet's page is written from text the user and servers chose (a base URL as given, a reason
 * quoting a server): nothing in it acts as markup, a table cell's end, a terminal control or a
 * workflow command, in fleet.md, fleet.html, junit.xml, the terminal lines or the GitHub output.
 * Built fleets, in process.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { fleetHtml } from '../../lib/fleet/fleet-html.ts'
import { fleetJunit } from '../../lib/fleet/fleet-junit.ts'
import { fleetMarkdown, fleetTerminal, writeFleetReports } from '../../lib/fleet/fleet-reports.ts'
import { deploymentOf, fleetOf, type FleetDeployment, type RunFile } from '../../lib/fleet/fleet-result.ts'
import { fleetHeadline } from '../../lib/fleet/fleet-wording.ts'
import { resultOf } from '../../lib/result/run-result.ts'
import { applyBaseline } from '../../lib/result/baseline.ts'
import { check, exchange, HOSTILE, runResult } from '../reporters/fixture.ts'
import { elements, parseXml } from '../reporters/xml.ts'
import { createRedactor } from '../../lib/http/redact.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-fleet-reports-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const TOOL = { name: 'petstore-categories-conformance', version: '0.0.0' }
const facts = { tool: TOOL, runId: '20260101-0000-abcde', baseUrl: 'https://a.example/v1', embeddedServer: false, startedAt: new Date(0), durationMs: 5, options: { readOnly: false, maxWrites: 0, rules: [], timeoutMs: 1000 }, journal: [] }
/** A run cut short with a problem quoting a hostile server, and a run that could not be made, for the same reason. */
const cut = resultOf(new Map(), { ...facts, problems: [{ kind: 'deadline', message: `the server said: ${HOSTILE}` }], cutShort: true }, [])
const notMade: RunFile = { tool: TOOL, startedAt: new Date(0).toISOString(), baseUrl: null, verdict: 'error', exitCode: 2, error: `cannot reach: ${HOSTILE}`, summary: { requests: 0, writes: 0, recordsCreated: 0 }, rules: [], ledger: [], journal: [] }
const runs: RunFile[] = [cut, notMade]
const fleet = fleetOf([deploymentOf('eu', `https://a.example/v1?${HOSTILE}`, 'eu/report.html', cut), deploymentOf('us', HOSTILE, 'x y/"><script>/report.html', notMade)], runs, TOOL)

describe('a fleet page of hostile text', () => {
  test('the verdict: none failed, both not judged: exit 2, and the page says which and why', () => {
    expect([fleet.exitCode, fleet.verdict]).toEqual([2, 'incomplete'])
    expect(fleet.deployments.map((d) => [d.label, d.exitCode, d.reason?.slice(0, 16)])).toEqual([
      ['eu', 2, 'the server said:'],
      ['us', 2, 'cannot reach: </'],
    ])
  })

  test('fleet.md: every row keeps its cells, no markup, no link but the reports', () => {
    const md = fleetMarkdown(fleet)
    const rows = md.split('\n').filter((line) => line.startsWith('| eu |') || line.startsWith('| us |'))
    expect(rows).toHaveLength(2)
    // an unescaped | would add a cell
    for (const row of rows) expect(row.replace(/\\\|/g, '').split('|').length).toBe(8)
    expect(md).not.toMatch(/<script|<img|<\/pre|\x1b|\u202e/i)
    expect([...md.matchAll(/\]\(([^)]*)\)/g)].map((m) => m[1])).toEqual(['eu/report.html', 'x%20y/%22%3E%3Cscript%3E/report.html'])
  })

  test('fleet.html: no element the fleet did not write, links percent-encoded', () => {
    const html = fleetHtml(fleet)
    expect(html).not.toMatch(/<script|<img|\x1b|\u202e/i)
    expect(html).toContain('href="x%20y/%22%3E%3Cscript%3E/report.html"')
    expect(html).toContain('default-src \'none\'')
  })

  test('junit.xml parses, one testsuite per deployment', () => {
    const xml = fleetJunit(fleet, runs)
    const suites = elements(parseXml(xml), 'testsuite')
    expect(suites.map((s) => s.attributes.name)).toEqual(['eu', 'us'])
  })

  test('the terminal: one line per deployment, no control character', () => {
    const text = fleetTerminal(fleet, 'reports/fleet.html')
    expect(text.split('\n').filter((l) => /^NOT JUDGED/.test(l))).toHaveLength(2)
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/)
    expect(text).toMatch(/^Fleet: NOT JUDGED \(exit 2\): 0 of 2 passed; 2 could not be judged \(eu, us\)$/m)
  })

  test('under GitHub Actions: one annotation per deployment, the rest shielded from command processing, the summary appended', () => {
    const summary = join(dir, 'summary.md')
    writeFileSync(summary, '')
    const { stdout } = writeFleetReports(join(dir, 'out'), dir, fleet, runs, (t) => t, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary })
    const lines = stdout.split('\n')
    const stop = lines.findIndex((l) => l.startsWith('::stop-commands::'))
    expect(lines.slice(0, stop).every((l) => l.startsWith('::error title='))).toBe(true)
    expect(lines.slice(0, stop)).toHaveLength(2)
    // nothing after the stop line acts, up to its own token
    const token = lines[stop]?.slice('::stop-commands::'.length)
    expect(lines.slice(stop + 1).findIndex((l) => l === `::${token}::`)).toBeGreaterThan(0)
    expect(readFileSync(summary, 'utf8')).toContain('Pet Store categories conformance: 2 deployments')
  })

  test("the job summary names each report in the reports, with no relative link: on GitHub's page one leads nowhere; fleet.md keeps its links", () => {
    const summary = join(dir, 'summary-links.md')
    writeFileSync(summary, '')
    writeFleetReports(join(dir, 'out-links'), dir, fleet, runs, (t) => t, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary })
    const text = readFileSync(summary, 'utf8')
    expect(text).not.toMatch(/\]\(/)
    expect(text).toMatch(/^\| eu \| .* \| eu\/report\.html \|$/m)
    expect(readFileSync(join(dir, 'out-links', 'fleet.md'), 'utf8')).toMatch(/^\| eu \| .* \| \[report\.html\]\(eu\/report\.html\) \|$/m)
  })
})

describe('a fleet of 1,000 deployments under GitHub Actions', () => {
  test("the job summary is cut to GitHub's size at a row's end and points to fleet.html; fleet.md is whole", () => {
    const long = resultOf(new Map(), { ...facts, problems: [{ kind: 'deadline', message: `the server said: ${'é'.repeat(400)}` }], cutShort: true }, [])
    const many = fleetOf(Array.from({ length: 1_000 }, (_, i) => deploymentOf(`tenant-${i}-eu-central-production-blue`, `https://t${i}.example/v1`, `tenant-${i}/report.html`, long)), Array(1_000).fill(long), TOOL)
    const summary = join(dir, 'summary-many.md')
    writeFileSync(summary, '')
    writeFleetReports(join(dir, 'out-many'), dir, many, Array(1_000).fill(long), (t) => t, { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary })
    const text = readFileSync(summary, 'utf8')
    expect(Buffer.byteLength(readFileSync(join(dir, 'out-many', 'fleet.md')))).toBeGreaterThan(1024 * 1024)
    expect(Buffer.byteLength(text)).toBeLessThan(1024 * 1024)
    expect(text).toContain('Pet Store categories conformance: 1000 deployments')
    expect(text.trimEnd().split('\n').at(-1)).toBe("… cut to GitHub's size for a job summary: see fleet.html")
  })
})

describe("a deployment whose server limited its connections", () => {
  // the journal of a run that sent two requests again with fewer in flight, down to 12 at once
  const resent = { id: 'x', at: new Date(0).toISOString(), method: 'GET', url: 'https://a.example/v1/categories', onWire: true, outcome: 'answered' as const, status: 200 }
  const limited = resultOf(new Map(), { ...facts, problems: [], journal: [{ ...resent, fewerConnections: 24 }, { ...resent, id: 'y', fewerConnections: 12 }] }, [])
  const plain = resultOf(new Map(), { ...facts, problems: [] }, [])
  const noted = fleetOf([deploymentOf('limited', 'https://a.example/v1', 'limited/report.html', limited), deploymentOf('plain', 'https://b.example/v1', 'plain/report.html', plain)], [limited, plain], TOOL)

  test('fleet.json names the note on that deployment only; the verdict is the same as without it', () => {
    expect(noted.deployments.map((d) => [d.label, d.notes?.map((n) => n.slice(0, 12))])).toEqual([
      ['limited', ['Connections ']],
      ['plain', undefined],
    ])
    expect(noted.deployments[0]?.exitCode).toBe(noted.deployments[1]?.exitCode)
    expect(noted.deployments[0]?.notes?.[0]).toContain('2 requests were sent again with fewer in flight, down to 12 at once')
  })

  test('fleet.md and fleet.html say it under Notes, with the deployment; a fleet without notes has no such part', () => {
    expect(fleetMarkdown(noted)).toMatch(/^### Notes\n\n- limited: Connections .*down to 12 at once/m)
    expect(fleetHtml(noted)).toMatch(/<h2 id="notes">Notes<\/h2>\n<ul>\n<li><a href="limited\/report.html">limited<\/a>: Connections .*down to 12 at once/)
    expect(fleetMarkdown(fleet)).not.toContain('### Notes')
    expect(fleetHtml(fleet)).not.toContain('id="notes"')
  })

  test('the terminal says it too, after the deployments\' lines, as a single run\'s terminal says its notes', () => {
    const lines = fleetTerminal(noted, 'fleet.html').split('\n')
    expect(lines.filter((l) => l.startsWith('Note: '))).toEqual([expect.stringMatching(/^Note: limited: Connections .*down to 12 at once/)])
    expect(lines.findIndex((l) => l.startsWith('Note: '))).toBe(2)
    expect(fleetTerminal(fleet, 'fleet.html')).not.toContain('Note: ')
  })
})

describe('a deployment not judged that has failed rules too (its key refused, and a rule failed without it)', () => {
  const refused: FleetDeployment = { label: 'eu', baseUrl: 'https://a.example/v1', verdict: 'incomplete', exitCode: 2, failedRules: ['auth-missing-key-401'], reason: 'the server refused the key: all 64 requests sent with it were answered 401', rules: {}, report: 'eu/report.html' }
  const page = fleetOf([refused], [], TOOL)

  test('fleet.html says why it was not judged, then the failed rules, as fleet.md and the terminal do', () => {
    const row = fleetHtml(page).split('\n').find((line) => line.startsWith('<tr class="skip">')) ?? ''
    expect(row).toContain('the server refused the key: all 64 requests sent with it were answered 401; failed: <code>auth-missing-key-401</code>')
    expect(fleetMarkdown(page)).toContain('the server refused the key\\: all 64 requests sent with it were answered 401; failed\\: auth-missing-key-401')
    expect(fleetTerminal(page, 'fleet.html')).toContain('answered 401; failed: auth-missing-key-401')
  })
})

describe('a deployment that passed by its baseline, applied as a run applies it', () => {
  // staging excuses its failures of ids-unique with a baseline; production has none to excuse
  const failing = runResult((id) => [check(`${id} check`, id === 'ids-unique' ? 'fail' : 'pass')])
  const entry = { rule: 'ids-unique', code: failing.rules.find((r) => r.id === 'ids-unique')!.checks[0].failure!.code, check: 'ids-unique check', reason: 'OPS-9' }
  const staging = applyBaseline(failing, { knownFailures: [entry] }, 'conform-baseline.json', '2026-01-01')
  const production = runResult()
  const page = fleetOf([deploymentOf('staging', 'https://s.example/v1', 'staging/report.html', staging), deploymentOf('production', 'https://p.example/v1', 'production/report.html', production)], [staging, production], TOOL)

  test('its must-rule reads known in the matrix, never advisory, and its line says the baseline excused it', () => {
    expect(page.exitCode).toBe(0)
    expect(page.deployments.map((d) => d.knownRules)).toEqual([['ids-unique'], undefined])
    const markdown = fleetMarkdown(page)
    expect(markdown).toContain('| ids-unique (must) | known (baseline) | pass |')
    expect(markdown.replaceAll('\\', '')).toContain('passed with known failures its baseline excused: ids-unique')
    expect(fleetTerminal(page, 'fleet.html')).toContain('passed with known failures its baseline excused: ids-unique')
    const row = fleetHtml(page).split('\n').find((line) => line.includes('<code>ids-unique</code>')) ?? ''
    expect(row).toContain('<span class="badge warn">KNOWN (BASELINE)</span>')
    expect(row).not.toContain('ADVISORY')
  })
})

describe("the matrix's legend of —", () => {
  const LEGEND = 'no verdict on that rule (its run could not be made, or was of an earlier version, which has no such rule)'
  const judged = runResult()
  const both = fleetOf([deploymentOf('a', 'https://a.example/v1', 'a/report.html', judged), deploymentOf('b', 'https://b.example/v1', 'b/report.html', judged)], [judged, judged], TOOL)
  const oneNotMade = fleetOf([deploymentOf('a', 'https://a.example/v1', 'a/report.html', judged), deploymentOf('b', 'https://b.example/v1', 'b/report.html', notMade)], [judged, notMade], TOOL)

  test('every rule judged on every deployment: no cell shows —, and neither fleet.md nor fleet.html explains it', () => {
    expect(fleetMarkdown(both)).toContain('### Rules by deployment')
    expect(fleetMarkdown(both)).not.toContain(LEGEND)
    expect(fleetHtml(both)).not.toContain(LEGEND)
    expect(fleetHtml(both)).toContain("<p class=\"hint\">Each deployment's name links to its report.</p>")
  })

  test('a deployment whose run could not be made: its cells show —, and both pages explain it', () => {
    expect(fleetMarkdown(oneNotMade)).toMatch(/^\| list-returns-200 \(must\) \| pass \| — \|$/m)
    expect(fleetMarkdown(oneNotMade)).toContain(`— : ${LEGEND}.`)
    expect(fleetHtml(oneNotMade)).toContain(`— : ${LEGEND}. Each deployment's name links to its report.`)
  })
})

describe('a deployment that passed only by its --baseline (known failures)', () => {
  // the baseline applied: the failed check became a known one (lib/result/baseline.ts)
  const failing = check('POST /categories with name only → 201', 'fail')
  const excused = { ...failing, status: 'warn' as const, known: 'TICKET-12: answers 200', failure: failing.failure }
  const byBaseline = resultOf(new Map([['create-returns-201', [excused]]]), { ...facts, problems: [] }, ['create-returns-201'])
  const clean = resultOf(new Map([['create-returns-201', [check('POST /categories with name only → 201', 'pass')]]]), { ...facts, problems: [] }, ['create-returns-201'])
  const page = fleetOf([deploymentOf('us', 'https://us.example/v1', 'us/report.html', byBaseline), deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', clean)], [byBaseline, clean], TOOL)

  test('its own report says so; fleet.json names the rules, and the exit code stays its own (0)', () => {
    expect(byBaseline.verdict).toBe('pass')
    expect(page.deployments.map((d) => [d.label, d.exitCode, d.knownRules])).toEqual([
      ['us', 0, ['create-returns-201']],
      ['eu', 0, undefined],
    ])
  })

  test('its line says it passed with known failures, the headline names it, and its matrix cell reads known, not advisory, in every format', () => {
    expect(fleetTerminal(page, 'fleet.html')).toMatch(/^PASS {8}us {2}https:\/\/us\.example\/v1 {2}passed with known failures its baseline excused: create-returns-201$/m)
    expect(fleetTerminal(page, 'fleet.html')).toMatch(/^PASS {8}eu .* every must-rule passed$/m)
    expect(page.verdict).toBe('pass')
    expect(fleetHeadline(page)).toBe('PASS (exit 0): 2 of 2 passed (us with known failures its baseline excused)')
    // two of them: not "us, ap with known failures its baseline excused", which read as us's plain pass
    const two = fleetOf(['us', 'ap', 'eu'].map((label) => deploymentOf(label, `https://${label}.example/v1`, `${label}/report.html`, label === 'eu' ? clean : byBaseline)), [byBaseline, byBaseline, clean], TOOL)
    expect(fleetHeadline(two)).toBe('PASS (exit 0): 3 of 3 passed (us and ap with known failures their baselines excused)')
    const md = fleetMarkdown(page)
    expect(md).toMatch(/^\| create-returns-201 \(must\) \| known \(baseline\) \| pass \|$/m)
    expect(md).not.toContain('advisory')
    const html = fleetHtml(page)
    expect(html).toContain('passed with known failures its baseline excused: create-returns-201')
    expect(html).toMatch(/<code>create-returns-201<\/code>.*<td><span class="badge warn">KNOWN \(BASELINE\)<\/span><\/td><td><span class="badge pass">/)
    expect(html).not.toContain('ADVISORY')
  })

  test('failed beside its known failures: fleet.html says which rules failed, as fleet.md and the terminal do, not a list the known failures seem to extend', () => {
    const failed = resultOf(new Map([['create-returns-201', [excused]], ['ids-unique', [check('ids-unique check', 'fail')]]]), { ...facts, problems: [] }, ['create-returns-201', 'ids-unique'])
    const mixed = fleetOf([deploymentOf('us', 'https://us.example/v1', 'us/report.html', failed)], [failed], TOOL)
    const words = 'failed: ids-unique; known failures its baseline excused: create-returns-201'
    expect(fleetTerminal(mixed, 'fleet.html')).toContain(words)
    expect(fleetMarkdown(mixed).replaceAll('\\', '')).toContain(words)
    expect(fleetHtml(mixed)).toContain('<td>failed: <code>ids-unique</code>; known failures its baseline excused: create-returns-201</td>')
  })
})

describe('a deployment whose known failures its own --update-baseline wrote down (merge of its reports)', () => {
  const failing = check('POST /categories with name only → 201', 'fail')
  const excused = { ...failing, status: 'warn' as const, known: 'recorded by --update-baseline on 2026-01-01', failure: failing.failure }
  const byBaseline = resultOf(new Map([['create-returns-201', [excused]]]), { ...facts, problems: [] }, ['create-returns-201'])
  const recorded = { ...byBaseline, baseline: { file: 'conform-baseline.json', known: [], expired: [], fixed: [], recorded: true as const } }
  const clean = resultOf(new Map([['create-returns-201', [check('POST /categories with name only → 201', 'pass')]]]), { ...facts, problems: [] }, ['create-returns-201'])
  const page = fleetOf([deploymentOf('us', 'https://us.example/v1', 'us/report.html', recorded), deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', clean)], [recorded, clean], TOOL)

  test('RECORDED, as its own reports say, not a pass by its baseline: its line, the headline, fleet.md, fleet.html, fleet.json', () => {
    expect(page.deployments.map((d) => [d.label, d.exitCode, d.baselineRecorded])).toEqual([
      ['us', 0, true],
      ['eu', 0, undefined],
    ])
    const words = "failures its --update-baseline recorded, not passes: create-returns-201"
    expect(fleetTerminal(page, 'fleet.html')).toMatch(/^RECORDED {4}us {2}https:\/\/us\.example\/v1 {2}failures its --update-baseline recorded, not passes: create-returns-201$/m)
    expect(fleetHeadline(page)).toBe('PASS (exit 0): 2 of 2 passed (us by failures --update-baseline recorded, not passes)')
    expect(fleetMarkdown(page).replaceAll('\\', '')).toContain(`| us | https://us.example/v1 | RECORDED | ${words} |`)
    expect(fleetHtml(page)).toContain(`<span class="badge pass">RECORDED</span> <span class="muted">exit 0</span></td><td>${words}</td>`)
  })
})

describe('a deployment whose failed rules all met one fault (a gateway answering 502 to everything)', () => {
  const fault502 = (name: string) =>
    check(name, 'fail', {
      exchanges: [exchange({}, 502, '<html>502 Bad Gateway</html>')],
      failure: { code: 'SERVER_ERROR', message: 'answered 502', expected: 'status 201', actual: 'status 502' },
      recurrence: { attempts: 3, failures: 3, kind: 'deterministic' },
    })
  const GATEWAY_RULES = ['list-returns-200', 'create-returns-201', 'auth-invalid-key-401']
  const gateway = runResult((id) => (GATEWAY_RULES.includes(id) ? [fault502(`${id} check`)] : [check(`${id} check`, 'pass')]))
  // the same fault, and a rule failed otherwise: the rules are not one fault's
  const mixed = runResult((id) => (GATEWAY_RULES.includes(id) ? [fault502(`${id} check`)] : [check(`${id} check`, id === 'ids-unique' ? 'fail' : 'pass')]))
  const page = fleetOf([deploymentOf('gw', 'https://gw.example/v1', 'gw/report.html', gateway), deploymentOf('mixed', 'https://m.example/v1', 'm/report.html', mixed)], [gateway, mixed], TOOL)

  test('its line says the fault once, with its rate, then the rules, in every format; fleet.json holds it', () => {
    const [fault] = page.deployments.map((d) => d.fault)
    expect(fault).toBe(`3 of ${gateway.summary.requests} requests answered 502 (${(300 / gateway.summary.requests).toFixed(0)} %)`)
    expect(page.deployments[1]?.fault).toBeUndefined()
    const said = `failed by one fault, ${fault}, in 3 rules: list-returns-200, create-returns-201, auth-invalid-key-401`
    expect(fleetTerminal(page, 'fleet.html')).toContain(`gw     https://gw.example/v1  ${said}`)
    expect(fleetTerminal(page, 'fleet.html')).toMatch(/^FAIL {8}mixed {2}https:\/\/m\.example\/v1 {2}failed: list-returns-200, create-returns-201, ids-unique, auth-invalid-key-401$/m)
    expect(fleetMarkdown(page).replaceAll('\\', '')).toContain(said)
    expect(fleetHtml(page)).toContain(`failed by one fault, ${fault}, in 3 rules: <code>list-returns-200</code>`)
  })

  test('the fault met by every failed rule, one of which also failed otherwise (a create answered 200): no one fault, the rules as they are', () => {
    // a loaded run's timeouts met every failed rule, and the line read "failed by one fault, 66 of 276 requests got no answer", hiding the 200
    const answered200 = check('POST /categories with name only → 201', 'fail', { exchanges: [exchange({}, 200, '{"id":1,"name":"x"}')], failure: { code: 'UNEXPECTED_STATUS', message: 'POST answered 200, expected 201', expected: 'status 201', actual: 'status 200' }, recurrence: { attempts: 3, failures: 3, kind: 'deterministic' } })
    const both = runResult((id) => (GATEWAY_RULES.includes(id) ? [fault502(`${id} check`), ...(id === 'create-returns-201' ? [answered200] : [])] : [check(`${id} check`, 'pass')]))
    const d = deploymentOf('both', 'https://b.example/v1', 'b/report.html', both)
    expect(d.fault).toBeUndefined()
    expect(fleetTerminal(fleetOf([d], [both], TOOL), 'fleet.html')).toMatch(/^FAIL {8}both {2}https:\/\/b\.example\/v1 {2}failed: list-returns-200, create-returns-201, auth-invalid-key-401$/m)
  })

  test('a results.json whose journal or options cannot be counted (merge reads one edited by hand): its rules as they are, no fault', () => {
    for (const edited of [{ ...gateway, journal: {} }, { ...gateway, journal: [null] }, { ...gateway, options: undefined }]) {
      const d = deploymentOf('gw', 'https://gw.example/v1', 'gw/report.html', edited as unknown as RunFile)
      expect(d.fault).toBeUndefined()
      expect(d.failedRules).toEqual(GATEWAY_RULES)
    }
  })
})

test('a key that is a property name of fleet.json ("verdict") leaves its names: the values holding it are still hidden', () => {
  // redacted whole, fleet.json read `"[REDACTED]": "incomplete"` at its top and in every deployment, as results.json did (review40)
  const out = join(dir, 'out-key-a-name')
  writeFleetReports(out, dir, fleet, runs, createRedactor('verdict'), {})
  const json = JSON.parse(readFileSync(join(out, 'fleet.json'), 'utf8')) as { verdict: string; deployments: { verdict: string }[] }
  expect(json.verdict).toBe('incomplete')
  expect(json.deployments.map((d) => d.verdict)).toEqual(['incomplete', 'error'])
  expect(readFileSync(join(out, 'fleet.json'), 'utf8')).not.toMatch(/"[^"\n]*\[REDACTED\][^"\n]*": /)
})
