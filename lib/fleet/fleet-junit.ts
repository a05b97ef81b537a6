/**
 * The fleet's junit.xml: one <testsuite> per deployment, named by its label, holding each check of
 * its run as a <testcase> (classname `label.rule`, written by lib/reporters/junit-report.ts as in a
 * single run's junit.xml), its problems as errors, and a run that could not be made as one error.
 */
import { attr, checkTestcase, problemTestcaseNames, seconds, xml } from '../reporters/junit-report.ts'
import { problemText, type FleetResult, type RunFile } from './fleet-result.ts'
import { visibleLine } from '../reporters/visible-text.ts'

function deploymentSuite(label: string, baseUrl: string, run: RunFile): string[] {
  const properties = (extra: string[]) => ['    <properties>', `      <property name="base_url" value="${attr(baseUrl)}"/>`, ...extra, '    </properties>']
  if (run.verdict === 'error') {
    return [
      `  <testsuite name="${attr(label)}" tests="1" failures="0" errors="1" skipped="0" time="0" timestamp="${attr(run.startedAt)}">`,
      ...properties([]),
      `    <testcase classname="${attr(label)}" name="the run could be made" time="0"><error message="${attr(run.error)}" type="RunNotMade">${xml(`The conformance run could not be made (exit 2): ${run.error}\nNo request was judged; no rule passed or failed.`)}</error></testcase>`,
      '  </testsuite>',
    ]
  }
  const checks = run.rules.flatMap((r) => r.checks)
  const skipped = checks.filter((c) => c.status === 'skip' || c.known !== undefined).length
  const out = [
    `  <testsuite name="${attr(label)}" tests="${checks.length + run.problems.length}" failures="${checks.filter((c) => c.status === 'fail').length}" errors="${run.problems.length}" skipped="${skipped}" time="${seconds(run.durationMs)}" timestamp="${attr(run.startedAt)}">`,
    ...properties([`      <property name="run_id" value="${attr(run.runId)}"/>`, `      <property name="verdict" value="${attr(run.verdict)}"/>`]),
  ]
  for (const rule of run.rules) for (const check of rule.checks) out.push(...checkTestcase(rule, check, `${label}.${rule.id}`, '    '))
  // a problem the run file gives as words only (an earlier version's) has no kind to be named by
  const names = problemTestcaseNames(run.problems.map((p) => (typeof p === 'string' ? 'problem' : p.kind)))
  run.problems.forEach((problem, i) => out.push(`    <testcase classname="${attr(label)}.run" name="${attr(names[i])}" time="0"><error message="${attr(problemText(problem))}"${typeof problem === 'string' ? '' : ` type="${attr(problem.kind)}"`}>${xml(problemText(problem))}</error></testcase>`))
  out.push('  </testsuite>')
  return out
}

/** `runs`: each deployment's results.json, in the order of fleet.deployments. */
export function fleetJunit(fleet: FleetResult, runs: readonly RunFile[]): string {
  // a label merge read from a folder's name may hold invisible or reordering characters (it is then no label): marked, as in every page
  const suites = fleet.deployments.flatMap((d, i) => deploymentSuite(visibleLine(d.label), d.baseUrl, runs[i] as RunFile))
  if (fleet.error !== undefined) {
    // a merge not whole (--expect, a fleet of no verdict) was made: its test case says what it lacks, not that it could not be run;
    // "(fleet)" is no label (one may be "fleet"), so the testsuite is never a deployment's
    const [name, type] = fleet.deployments.length === 0 ? ['the fleet could be run', 'RunNotMade'] : ['the fleet is whole', 'FleetNotWhole']
    suites.push(
      '  <testsuite name="(fleet)" tests="1" failures="0" errors="1" skipped="0" time="0">',
      `    <testcase classname="(fleet)" name="${name}" time="0"><error message="${attr(fleet.error)}" type="${type}">${xml(fleet.error)}</error></testcase>`,
      '  </testsuite>',
    )
  }
  // every text in these lines is escaped, so an element's name starts only where one was written
  const count = (element: string) => suites.filter((line) => line.includes(`<${element} `)).length
  // no skipped: Jenkins' junit-10.xsd allows it on <testsuite> only (each deployment's has it)
  const totals = `tests="${count('testcase')}" failures="${count('failure')}" errors="${count('error')}"`
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites name="petstore-categories-conformance fleet" ${totals}>`, ...suites, '</testsuites>'].join('\n') + '\n'
}
