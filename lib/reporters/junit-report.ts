/**
 * junit.xml for CI test tabs (GitHub, GitLab, Jenkins): one <testsuite> per rule, one <testcase>
 * per check, failures with expected/actual and a curl line, skips with their reason. Advisory
 * notes are system-out, never failures.
 */
import { serverWaits, type CheckResult, type RuleResult, type RunResult } from '../result/run-result.ts'
import { referencedLogCommands } from './ci-log-commands.ts'
import { recurrenceWords } from '../result/fault-groups.ts'

/**
 * Text with nothing xml() escapes or drops: most of a junit.xml's texts (names, ids, times; a
 * check's name has an arrow, so not ASCII alone). Surrogates take the long way, which tells a pair
 * from a lone half.
 */
const UNESCAPED = '\\x20\\x21\\x23-\\x25\\x27-\\x3b\\x3d\\x3f-\\x7e\\xA0-\\u200D\\u2010-\\u2029\\u202F-\\u2065\\u206A-\\uD7FF\\uE000-\\uFFFD'
const NOTHING_TO_ESCAPE = new RegExp(`^[\\t\\n${UNESCAPED}]*$`)
/** As NOTHING_TO_ESCAPE, without tab and LF, which an attribute writes as references. */
const NOTHING_TO_ESCAPE_IN_ATTRIBUTES = new RegExp(`^[${UNESCAPED}]*$`)

/**
 * DEL, the C1 controls (U+009B is a terminal's CSI) and the bidi controls (U+202E turns what
 * follows around): a junit.xml printed or opened as text would act on them. Written as character
 * references, the parsed text holds them still (what the server sent), and the file's text does not.
 */
const ACTING_CHARACTERS = /[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g

/** Text content: markup escaped, characters XML 1.0 cannot carry at all dropped, ACTING_CHARACTERS and CI log commands as references. */
export function xml(text: string): string {
  if (NOTHING_TO_ESCAPE.test(text) && !text.includes('#') && !text.includes('::')) return text
  return referencedLogCommands(xmlEscaped(text))
}

function xmlEscaped(text: string): string {
  if (NOTHING_TO_ESCAPE.test(text)) return text
  return text
    .replace(/[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r/g, '&#13;')
    .replace(ACTING_CHARACTERS, (c) => `&#${c.charCodeAt(0)};`)
}

/** Attribute value: as text, and tab, CR and LF as references, which attribute normalisation would turn into spaces. */
export function attr(text: string): string {
  // most values (names, ids, times) have nothing to escape: tested once, not copied three times;
  // one with a # may hold a log command (a Location quoted in a failure's message), which xml() references
  if (NOTHING_TO_ESCAPE_IN_ATTRIBUTES.test(text) && !text.includes('#')) return text
  return xml(text).replace(/\t/g, '&#9;').replace(/\n/g, '&#10;')
}

export const seconds = (ms: number) => (ms / 1000).toFixed(3)

/**
 * One check as a <testcase> (its lines, each starting with `indent`): a failure with expected,
 * actual, the exchanges and curl lines; a skip with its reason; a known failure as skipped.
 * `classname`: the rule's id, or (a fleet's junit.xml, lib/fleet/) the deployment's label and the rule's.
 */
export function checkTestcase(rule: RuleResult, check: CheckResult, classname: string, indent: string): string[] {
  const out: string[] = []
  out.push(`${indent}<testcase classname="${attr(classname)}" name="${attr(check.name)}" time="${seconds(check.durationMs)}">`)
  if (check.status === 'fail' && check.failure) {
    const body = [
      `rule: ${rule.id} (${rule.level}, §${rule.section})`,
      `code: ${check.failure.code}`,
      `expected: ${check.failure.expected}`,
      `actual:   ${check.failure.actual}`,
      // a real fault or the network: what the CI test tab shows of a red check (docs/reports.md)
      ...(recurrenceWords([check]) ? [`recurred: ${recurrenceWords([check])}`] : []),
      ...(check.baselineNote ? [`baseline: ${check.baselineNote}`] : []),
      ...check.exchanges.map((e) => `exchange: ${e.request.method} ${e.request.url} → ${e.response ? e.response.status : (e.error?.code ?? 'no response')}`),
      ...check.reproduce.map((curl) => `reproduce: ${curl}`),
    ].join('\n')
    // type: the failure's stable code, which CI tools show and filter on (the rule is the classname)
    out.push(`${indent}  <failure message="${attr(check.failure.message)}" type="${attr(check.failure.code)}">${xml(body)}</failure>`)
  } else if (check.status === 'skip') {
    out.push(`${indent}  <skipped message="${attr(check.skipReason ?? 'not run')}"/>`)
  } else if (check.known !== undefined) {
    // a known failure (--baseline) is what CI test tabs show as skipped, with its reason
    out.push(`${indent}  <skipped message="${attr(`known failure: ${check.known}`)}"/>`)
  }
  // the note --baseline adds to a known failure (lib/result/baseline.ts) is no advisory: its rule may be a must-rule
  const noteLine = (n: string) => (check.known !== undefined && n.startsWith('known failure (baseline: ') ? n : `advisory: ${n}`)
  if (check.notes.length > 0) out.push(`${indent}  <system-out>${xml(check.notes.map(noteLine).join('\n'))}</system-out>`)
  out.push(`${indent}</testcase>`)
  return out
}

/**
 * The test case names of a run's problems: each its kind (`key-refused`), and the second of a kind
 * `key-refused 2`. CI keeps a test's history by its classname and name, so a name says what went
 * wrong, never where it came in the list: a "problem 1" that was a refused key in one run and a
 * deadline in the next would join their histories.
 */
export function problemTestcaseNames(kinds: readonly string[]): string[] {
  const seen = new Map<string, number>()
  return kinds.map((kind) => {
    const n = (seen.get(kind) ?? 0) + 1
    seen.set(kind, n)
    return n === 1 ? kind : `${kind} ${n}`
  })
}

export function junitReport(result: RunResult): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>']
  const { checks } = result.summary
  // a run problem its baseline excused (stray answers): skipped, as a known failure of a check is
  const known = result.baseline?.knownProblems ?? []
  out.push(
    // a problem is a testcase of its own (the "run" testsuite below): the totals are the children's.
    // No skipped or timestamp here: Jenkins' junit-10.xsd allows them on <testsuite> only, and its
    // xunit plugin reads no file that fails the schema; each testsuite has both.
    `<testsuites name="petstore-categories-conformance" tests="${checks.total + result.problems.length + known.length}" failures="${checks.fail}" errors="${result.problems.length}" time="${seconds(result.durationMs)}">`,
  )
  for (const rule of result.rules) {
    const failures = rule.checks.filter((c) => c.status === 'fail').length
    const skipped = rule.checks.filter((c) => c.status === 'skip' || c.known !== undefined).length
    const time = rule.checks.reduce((sum, c) => sum + c.durationMs, 0)
    out.push(
      `  <testsuite name="${attr(`${rule.id}: ${rule.title}`)}" tests="${rule.checks.length}" failures="${failures}" skipped="${skipped}" errors="0" time="${seconds(time)}" timestamp="${result.startedAt}">`,
    )
    out.push('    <properties>')
    out.push(`      <property name="rule" value="${attr(rule.id)}"/>`)
    out.push(`      <property name="level" value="${rule.level}"/>`)
    out.push(`      <property name="section" value="${attr(rule.section)}"/>`)
    out.push(`      <property name="base_url" value="${attr(result.baseUrl)}"/>`)
    if (result.options.seed !== undefined) out.push(`      <property name="seed" value="${result.options.seed}"/>`)
    out.push(`      <property name="server_waits" value="${attr(serverWaits(result))}"/>`)
    out.push('    </properties>')
    for (const check of rule.checks) out.push(...checkTestcase(rule, check, rule.id, '    '))
    out.push('  </testsuite>')
  }
  if (result.problems.length + known.length > 0) {
    out.push(`  <testsuite name="run" tests="${result.problems.length + known.length}" failures="0" errors="${result.problems.length}" skipped="${known.length}" time="0" timestamp="${result.startedAt}">`)
    const names = problemTestcaseNames([...result.problems.map((p) => p.kind), ...known.map((k) => k.problem)])
    result.problems.forEach((problem, i) => {
      out.push(`    <testcase classname="run" name="${attr(names[i])}" time="0"><error type="${problem.kind}" message="${attr(problem.message)}">${xml(problem.message)}</error></testcase>`)
    })
    known.forEach((k, i) => {
      out.push(`    <testcase classname="run" name="${attr(names[result.problems.length + i])}" time="0"><skipped message="${attr(`known problem: ${k.reason}`)}">${xml(k.message)}</skipped></testcase>`)
    })
    out.push('  </testsuite>')
  }
  out.push('</testsuites>')
  return out.join('\n') + '\n'
}
