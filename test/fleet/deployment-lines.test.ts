/**
 * What a deployment's line of the fleet says beside its verdict, in the terminal, fleet.md,
 * fleet.html and fleet.json: a pass whose run verified only part of the must-rules (--read-only,
 * --max-writes) says which it did not; a failure whose run was cut short (--deadline, a signal)
 * says so, as its own reports do. Built fleets, in process.
 */
import { describe, expect, test } from 'vitest'
import { fleetHtml } from '../../lib/fleet/fleet-html.ts'
import { fleetMarkdown, fleetTerminal } from '../../lib/fleet/fleet-reports.ts'
import { deploymentOf, fleetOf } from '../../lib/fleet/fleet-result.ts'
import { fleetHeadline } from '../../lib/fleet/fleet-wording.ts'
import { check, runResult } from '../reporters/fixture.ts'

const TOOL = { name: 'petstore-categories-conformance', version: '0.0.0' }
const CREATE_RULES = ['create-returns-201', 'create-echoes-fields', 'created-in-list']

describe('a deployment judged --read-only: its must-rules about creating not verified', () => {
  const readOnly = runResult((id) => [check(`${id} check`, CREATE_RULES.includes(id) ? 'skip' : 'pass')], { readOnly: true })
  const whole = runResult()
  const page = fleetOf([deploymentOf('ro', 'https://ro.example/v1', 'ro/report.html', readOnly), deploymentOf('rw', 'https://rw.example/v1', 'rw/report.html', whole)], [readOnly, whole], TOOL)
  const said = 'every must-rule that ran passed; 3 not verified: create-returns-201, create-echoes-fields, created-in-list'

  test('passes (exit 0), as its own run does, and fleet.json names the rules it did not verify', () => {
    expect(readOnly.verdict).toBe('pass')
    expect(page.exitCode).toBe(0)
    expect(page.deployments.map((d) => d.notVerifiedRules)).toEqual([CREATE_RULES, undefined])
  })

  test('its line says it passed the must-rules that ran and names the others, never "every must-rule passed", in every format', () => {
    const terminal = fleetTerminal(page, 'fleet.html')
    expect(terminal).toMatch(new RegExp(`^PASS {8}ro {2}https://ro\\.example/v1 {2}${said}$`, 'm'))
    expect(terminal).toMatch(/^PASS {8}rw .* every must-rule passed$/m)
    expect(fleetMarkdown(page).replaceAll('\\', '')).toContain(`| ro | https://ro.example/v1 | PASS | ${said} |`)
    expect(fleetHtml(page)).toContain(`<td>${said}</td>`)
  })

  test('the headline names it among those that passed, as it names a pass its baseline made', () => {
    expect(fleetHeadline(page)).toBe('PASS (exit 0): 2 of 2 passed (ro with must-rules not verified)')
    expect(fleetTerminal(page, 'fleet.html')).toMatch(/^Fleet: PASS \(exit 0\): 2 of 2 passed \(ro with must-rules not verified\)$/m)
  })
})

describe('a deployment that failed a rule, and whose run the deadline cut short', () => {
  const deadline = 'the run did not finish within 1200 ms (--deadline); checks that had not finished are not verified'
  const cut = runResult((id) => [check(`${id} check`, id === 'create-returns-201' ? 'fail' : id === 'created-in-list' ? 'skip' : 'pass')], { problems: [{ kind: 'deadline', message: deadline }] })
  const page = fleetOf([deploymentOf('ap', 'https://ap.example/v1', 'ap/report.html', cut)], [cut], TOOL)

  test('fails (exit 1), as its own run does, and fleet.json says what cut it short', () => {
    expect([cut.verdict, page.exitCode]).toEqual(['fail', 1])
    expect(page.deployments[0]?.reason).toBe(deadline)
  })

  test('its line names the failed rule, then that the deadline cut the run, in every format', () => {
    const said = `failed: create-returns-201; ${deadline}`
    expect(fleetTerminal(page, 'fleet.html')).toContain(`ap  https://ap.example/v1  ${said}`)
    expect(fleetMarkdown(page).replaceAll('\\', '')).toContain(`| FAIL | ${said} |`)
    expect(fleetHtml(page)).toContain(`<td><code>create-returns-201</code>; ${deadline}</td>`)
  })
})

describe('a deployment judged on the rules --rule selected', () => {
  const selected = runResult()
  selected.rules = selected.rules.filter((r) => r.id === 'list-returns-200')
  selected.options = { ...selected.options, rules: ['list-returns-200'] }
  const page = fleetOf([deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', selected)], [selected], TOOL)

  test('its line says it passed the rules that ran, and which, as its own report does; never "every must-rule passed"', () => {
    expect(page.deployments[0]?.selectedRules).toEqual(['list-returns-200'])
    expect(fleetTerminal(page, 'fleet.html')).toMatch(/^PASS {8}eu {2}https:\/\/eu\.example\/v1 {2}every must-rule that ran passed \(--rule list-returns-200\)$/m)
    expect(fleetHeadline(page)).toBe('PASS (exit 0): 1 of 1 passed (eu with must-rules not verified)')
  })

  test('merged beside a whole run, its matrix cells of the rules it left out read "not run (--rule)", not the "—" of a run that could not be made', () => {
    const whole = runResult()
    const merged = fleetOf([deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', selected), deploymentOf('us', 'https://us.example/v1', 'us/report.html', whole)], [selected, whole], TOOL)
    const md = fleetMarkdown(merged)
    expect(md).toMatch(/^\| list-returns-200 \(must\) \| pass \| pass \|$/m)
    expect(md).toMatch(/^\| ids-unique \(must\) \| not run \(--rule\) \| pass \|$/m)
    expect(md).not.toMatch(/\| — \|/)
    expect(fleetHtml(merged)).toMatch(/<code>ids-unique<\/code>.*<td><span class="muted">not run \(--rule\)<\/span><\/td>/)
  })
})

describe('a deployment held to a write budget that still ran a check of every rule', () => {
  // every rule ran one check; a budget kept the others back, or a freedom of the service left them nothing to judge
  const heldBack = (cause: 'write-budget' | 'length-limit') => runResult((id) => [check(`${id} check`, 'pass'), check(`${id} kept back`, 'skip', { cause })], { maxWrites: 10 })
  const budget = heldBack('write-budget')
  const freedom = heldBack('length-limit')
  const page = fleetOf([deploymentOf('canary', 'https://canary.example/v1', 'canary/report.html', budget), deploymentOf('eu', 'https://eu.example/v1', 'eu/report.html', freedom)], [budget, freedom], TOOL)
  const [canary, eu] = page.deployments

  test('fleet.json names the must-rules the budget held to fewer checks; none of a run a freedom of the service shortened', () => {
    expect(canary?.notVerifiedRules).toBeUndefined()
    expect(canary?.partlyVerifiedRules?.length).toBe(17)
    expect(eu?.partlyVerifiedRules).toBeUndefined()
  })

  test('its line says so, never a full run\'s "every must-rule passed" alone; the headline names it', () => {
    const terminal = fleetTerminal(page, 'fleet.html')
    expect(terminal).toMatch(/^PASS {8}canary {2}\S+ {2}every must-rule passed; 17 must-rules verified by fewer checks than a full run, held back by the write budget \(its report names those not run\): list-returns-200, /m)
    expect(terminal).toMatch(/^PASS {8}eu {6}\S+ {2}every must-rule passed$/m)
    expect(fleetMarkdown(page)).toContain('17 must-rules verified by fewer checks than a full run')
    expect(fleetHtml(page)).toContain('17 must-rules verified by fewer checks than a full run')
    expect(fleetHeadline(page)).toBe('PASS (exit 0): 2 of 2 passed (canary by fewer checks than a full run (a write budget))')
  })
})
