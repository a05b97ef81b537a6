/**
 * The one-screen summary every run ends with: one line per rule, the first failures with
 * expected/actual and a curl line, counts, what was not verified, the records created, where the
 * reports are and the verdict. However many checks fail it stays within MAX_LINES lines of at
 * most MAX_WIDTH characters (a curl line may be longer, up to MAX_CURL_WIDTH, to stay usable), and
 * server text cannot move the cursor or start a line: control and invisible characters are shown
 * as markers (visible-text.ts). A failed rule's line names its § of the interface document; its
 * failures come one entry per cause (failure-groups.ts), which names how many checks met it and
 * lists them as far as the screen allows (report.html lists them all).
 */
import { baselineLine, baselineWords, entryCheck } from '../result/baseline.ts'
import { problemEntryLines } from '../result/known-problems.ts'
import { faultGroups, recurrenceWords } from '../result/fault-groups.ts'
import { samplingLine } from '../result/sampling-line.ts'
import { connectionLimitNote, lengthsNote, slowCreateNote } from '../result/observed-behaviour.ts'
import { basename, dirname } from 'node:path'
import { failureGroups, type FailureGroup } from './failure-groups.ts'
import { serverWaits, type CheckResult, type RuleResult, type RunResult, type Status } from '../result/run-result.ts'
import { valueLegend, visibleLine, visibleValue } from './visible-text.ts'
import { recordPrefixWords, someNameWithoutPrefix, WHERE_THE_PREFIX_IS } from './record-prefix-words.ts'
import { runCounts } from './run-counts.ts'
import { LEAVES_NOTHING_UNVERIFIED } from '../checks/skip-causes.ts'
import { failedChecks, faultAnsweredLabel, faultAnsweredWords, unprefixedNewWords, foundWords, notVerifiedByReason, pacing, partlyVerified, plural, ruleSkipText, seconds, skipReasons, verdictLine, writeMode } from './wording.ts'

const MARK: Record<Status, string> = { pass: '✓', fail: '✗', skip: '-', warn: '!' }
/** Failure entries (causes) shown with expected/actual in full; later failing rules get one line each. */
const DETAILED_FAILURES = 3
/** Most lines of check names under a failure entry met by several checks. */
const INSTANCE_LINES = 3
export const MAX_LINES = 50
export const MAX_WIDTH = 160
const MAX_CURL_WIDTH = 400

/**
 * A rule that was judged, in counts that add up to its checks, as report.html counts them: "43
 * checks passed, 5 skipped", not "43 checks, 5 skipped", which read as 43 in all. A check with an
 * advisory note counts as passed, as in the totals line; known failures (--baseline) apart.
 */
function judgedWords(checks: readonly CheckResult[]): string {
  const count = (pick: (check: CheckResult) => boolean) => checks.filter(pick).length
  const known = count((ch) => ch.status === 'warn' && ch.known !== undefined)
  const skipped = count((ch) => ch.status === 'skip')
  const passed = count((ch) => ch.status === 'pass' || (ch.status === 'warn' && ch.known === undefined))
  return [`${plural(passed, 'check')} passed`, ...(known > 0 ? [`${known} known (--baseline)`] : []), ...(skipped > 0 ? [`${skipped} skipped`] : [])].join(', ')
}

/** How many fixed baseline entries the terminal names; the reports name every one. */
const FIXED_NAMED = 5

/** One line of text safe for a terminal: control and invisible characters as markers, cut to `max`. */
export function terminalText(text: string, max = MAX_WIDTH): string {
  return cut(visibleLine(text), max)
}

/**
 * A line that is already safe (every piece went through visibleLine or visibleValue), cut to `max`
 * at the end of a word ("…" after it); a word longer than half the line (a URL) is cut inside.
 */
function cut(line: string, max = MAX_WIDTH): string {
  const chars = [...line]
  if (chars.length <= max) return line
  const kept = chars.slice(0, max - 1).join('')
  const lastSpace = /\s/.test(chars[max - 1] ?? '') ? kept.length : kept.search(/\s\S*$/)
  return (lastSpace > kept.length / 2 ? kept.slice(0, lastSpace) : kept).trimEnd() + '…'
}

/**
 * The ending the names of a group's checks share from a " → " on ("… → Error.status equals the
 * HTTP status"), said once instead of once per name; empty when they share none.
 */
function sharedOutcome(names: string[]): string {
  const first = names[0]
  for (let at = first.indexOf(' → '); at >= 0; at = first.indexOf(' → ', at + 1)) {
    const ending = first.slice(at)
    if (names.every((name) => name.endsWith(ending) && name.length > ending.length)) return ending
  }
  return ''
}

/** The names of a group's checks, wrapped into at most `maxLines` lines; what does not fit is counted. */
function instanceLines(group: FailureGroup, maxLines: number): string[] {
  const names = group.checks.map((check) => visibleLine(check.name))
  const ending = sharedOutcome(names)
  const short = names.map((name) => cut(ending ? name.slice(0, -ending.length) : name, 100))
  const prefix = ending ? `        checks (…${ending}):` : '        checks:'
  const layout = (shown: number): string[] => {
    const items = short.slice(0, shown)
    if (shown < short.length) items.push(`… and ${short.length - shown} more in report.html`)
    return wrapList(prefix, items, ' '.repeat(15), ';')
  }
  for (let shown = short.length; shown > 0; shown--) {
    const lines = layout(shown)
    if (lines.length <= maxLines && lines.every((line) => [...line].length <= MAX_WIDTH)) return lines
  }
  return layout(0).map((line) => cut(line))
}

/**
 * A failure entry in full: what failed (the check, or how many checks), the code and message,
 * expected and actual with their markers explained, the checks, and a curl line; undefined when
 * it needs more than `room` lines.
 */
function failureBlock(group: FailureGroup, room: number, width = MAX_WIDTH, curlWidth = MAX_CURL_WIDTH): string[] | undefined {
  const { failure, checks } = group
  const message = `[${failure.code}] ${visibleValue(failure.message)}`
  const lines = checks.length === 1 ? [`      ${visibleLine(checks[0].name)}`, `        ${message}`] : [`      ${checks.length} checks: ${message}`]
  lines.push(`        expected: ${visibleValue(failure.expected)}`, `        actual:   ${visibleValue(failure.actual)}`)
  const recurred = recurrenceWords(checks)
  if (recurred) lines.push(`        recurred: ${recurred}`)
  const known = baselineWords(checks)
  if (known) lines.push(`        baseline: ${visibleLine(known)}`)
  const legend = valueLegend([failure.message, failure.expected, failure.actual])
  if (legend) lines.push(`        marked:   ${legend}`)
  const curl = checks[0].reproduce[checks[0].reproduce.length - 1]
  // a curl line cut short cannot be run: one too long for the terminal is pointed to, whole, in the reports
  const lead = `        ${checks.length === 1 ? 'reproduce' : 'reproduce the first'}: `
  const line = curl === undefined ? undefined : visibleLine(curl)
  const reproduce = line === undefined ? [] : [[...(lead + line)].length <= curlWidth ? lead + line : `${lead}its curl line (${[...line].length} characters) is in report.html and results.json`]
  const fixed = lines.length + reproduce.length
  if (fixed + (checks.length > 1 ? 1 : 0) > room) return undefined
  const instances = checks.length > 1 ? instanceLines(group, Math.min(INSTANCE_LINES, room - fixed)) : []
  return [...lines.map((line) => cut(line, width)), ...instances, ...reproduce]
}

/**
 * One failed check as its entry of the summary reads (code and message, expected, actual, the curl
 * line with the key as $CONFORM_API_KEY), without the check's name or the indentation: what a front
 * door that reports check by check shows (lib/api/define-conformance.ts). `check` comes redacted.
 * No line is cut to the terminal's width, and the curl line is whole: a test failure has no width,
 * and there may be no report.html or results.json to point to.
 */
export function checkFailureText(rule: RuleResult, check: CheckResult): string {
  const failure = check.failure ?? { code: 'CHECK_ERROR', message: 'failed', expected: '-', actual: '-' }
  const block = failureBlock({ rule, failure, checks: [check] }, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY) ?? []
  return block.slice(1).map((line) => line.replace(/^ {8}/, '')).join('\n')
}

/** A failure entry in one line. */
function failureLine(group: FailureGroup): string {
  const what = group.checks.length === 1 ? visibleLine(group.checks[0].name) : `${group.checks.length} checks`
  return cut(`      ${what}: [${group.failure.code}] ${visibleValue(group.failure.message)}`)
}

/** `prefix item, item, …` wrapped greedily into lines of at most `width` characters. */
function wrapList(prefix: string, items: string[], indent = '   ', separator = ','): string[] {
  const lines: string[] = []
  let current = prefix
  for (const [i, item] of items.entries()) {
    const piece = item + (i < items.length - 1 ? separator : '')
    if (current !== prefix && [...current].length + 1 + [...piece].length > MAX_WIDTH) {
      lines.push(current)
      current = indent
    }
    current += ' ' + piece
  }
  return [...lines, current]
}

/** Where the reports are: report.html first, since that is the one to open. */
function whereReportsAre(reportFiles: string[]): string {
  const html = reportFiles.find((f) => basename(f) === 'report.html')
  if (!html) return `Reports: ${reportFiles.join(', ')}`
  const others = reportFiles.filter((f) => f !== html)
  if (others.length === 0) return `Reports: ${html} (open in a browser)`
  const sameDir = others.every((f) => dirname(f) === dirname(html))
  return `Reports: ${html} (open in a browser); ${sameDir ? `${others.map((f) => basename(f)).join(', ')} beside it, and journal.ndjson, every request as it went` : others.join(', ')}`
}

/**
 * The command the next run is typed as: `npm run conform --` where this one came through that
 * script (a clone), else the package's command, which npx finds wherever the package is installed
 * (a service's devDependencies, a global install, a clone too), where `npm run conform` is no script.
 */
export function commandAsRun(env: NodeJS.ProcessEnv): string {
  return env.npm_lifecycle_event === 'conform' ? 'npm run conform --' : 'npx petstore-conform'
}

export function terminalSummary(result: RunResult, reportFiles: string[], command = 'npx petstore-conform'): string {
  const head: string[] = []
  const where = result.embeddedServer ? `${result.baseUrl} (embedded reference server)` : result.baseUrl
  const seed = result.options.seed === undefined ? '' : ` · seed ${result.options.seed}`
  const trace = result.traceId ? ` · trace ${result.traceId}` : ''
  // the run id, seed and trace id are looked up whole (the service's logs, --seed): a header too long
  // for one line puts them on a line of their own rather than cut the trace id to "trace…"
  const title = `Pet Store categories conformance · ${where}`
  const ids = `run ${result.runId}${seed}${trace}`
  const whole = visibleLine(`${title} · ${ids}`)
  if ([...whole].length <= MAX_WIDTH) head.push(whole)
  else head.push(terminalText(title, MAX_WIDTH), terminalText(`  ${ids}`, MAX_WIDTH))
  if (result.options.readOnly) head.push('Read-only run: no POST sent, so the rules about creating are not verified (the Writes line above names the setting).')
  // a refused key explains every failure below it: said first, whole
  const refused = result.problems.find((p) => p.kind === 'certificate-refused' || p.kind === 'front-answered' || p.kind === 'key-refused' || p.kind === 'key-revoked' || p.kind === 'server-gone' || p.kind === 'speaks-tls' || p.kind === 'speaks-h2c' || p.kind === 'answers-nothing' || p.kind === 'misdirected' || p.kind === 'response-cap' || p.kind === 'no-answer-in-time')
  if (refused) head.push(terminalText(`✗ ${refused.message}`, 2 * MAX_WIDTH))
  // one fault that failed several rules is said once, before the rules it failed
  for (const fault of faultGroups(result)) head.push(terminalText(`✗ ${fault.line}`, 2 * MAX_WIDTH))

  // the end of the summary, always shown whole
  const tail: string[] = []
  for (const problem of result.problems.slice(0, 3)) tail.push(terminalText(`  ✗ ${problem.message}`))
  if (result.problems.length > 3) tail.push(`  … and ${result.problems.length - 3} more problems in the reports`)
  tail.push('')
  // a failure the baseline knows is a note (warn), not a pass: counted apart
  const { rules: r, checks: c } = runCounts(result)
  const rulesWarned = r.known > 0 ? `${r.advisory} with advisory notes, ${r.known} with known failures (--baseline)` : `${r.advisory} with advisory notes`
  const checksKnown = c.known > 0 ? `, ${c.known} known failures` : ''
  // skips that leave nothing unverified say so, so that a passing run's count does not read as a gap
  const skips = result.rules.flatMap((rule) => rule.checks).filter((check) => check.status === 'skip')
  // under --rule, what no selected rule needs is not sent either (the creates, and the lists after them)
  const calledFor = result.options.rules.length > 0 ? 'an answer or the rules selected call' : 'an answer calls'
  const skippedWhy = skips.length > 0 && skips.every((check) => check.cause !== undefined && LEAVES_NOTHING_UNVERIFIED.has(check.cause)) ? ` (not needed: sent only when ${calledFor} for them)` : ''
  tail.push(
    `Rules: ${r.pass} passed, ${r.fail} failed, ${r.skip} not verified, ${rulesWarned} · checks: ${c.pass} passed, ${c.fail} failed${checksKnown}, ${c.skip} skipped${skippedWhy} · ${plural(result.summary.requests, 'request')} · ${seconds(result.durationMs)}`,
  )
  if (result.summary.waits?.count) tail.push(`Waits: ${serverWaits(result)}`)
  const { unansweredWrites: unanswered, faultAnsweredWrites: faulted, unansweredFound, faultAnsweredFound } = result.summary
  if (unanswered) tail.push(`POSTs without an answer: ${unanswered} (each may have created a record; results.json lists them in its journal)${foundWords(unansweredFound, unanswered)}`)
  if (faulted) tail.push(`${faultAnsweredLabel(result)}: ${faulted} (${faultAnsweredWords(result)})${foundWords(faultAnsweredFound, faulted)}`)
  const groups = notVerifiedByReason(result)
  if (groups.length > 0) {
    tail.push(`Not verified (no check of these rules ran):`)
    // the reason cut, never its colon: the rules it names follow it
    for (const group of groups.slice(0, 3)) tail.push(...wrapList(`${terminalText(`  ${group.reason}`, 99)}:`, group.rules.map((rule) => rule.id)))
    if (groups.length > 3) tail.push(`  … and ${plural(groups.reduce((n, g) => n + g.rules.length, 0) - groups.slice(0, 3).reduce((n, g) => n + g.rules.length, 0), 'more rule')}: see the reports`)
  }
  const partial = partlyVerified(result)
  if (partial.length > 0) {
    const skipped = partial.reduce((sum, p) => sum + p.skipped, 0)
    // the checks the count is of: a skip that left nothing unverified (a request not needed) is no reason
    const reasons = skipReasons(partial.flatMap((p) => p.missing), result)
    const most = reasons[0] ? `; most often: ${reasons[0].reason}` : ''
    tail.push(terminalText(`Partly verified: ${plural(partial.length, 'rule')} judged without ${skipped} of ${partial.length === 1 ? 'its' : 'their'} checks${most}`, 400))
  }
  if (result.baseline) {
    tail.push(terminalText(baselineLine(result.baseline), 400))
    // which entries to remove: the line counts them, and the terminal is where a team reads it
    const fixed = result.baseline.fixed
    for (const e of fixed.slice(0, FIXED_NAMED)) tail.push(terminalText(`  fixed, no longer failing (remove it from the baseline): ${e.rule} ${e.code} › ${entryCheck(e)}${e.observed === undefined ? '' : ` as ${e.observed}`}`, 400))
    if (fixed.length > FIXED_NAMED) tail.push(`  … and ${fixed.length - FIXED_NAMED} more fixed: see summary.md`)
    const absent = result.baseline.noSuchCheck ?? []
    for (const e of absent.slice(0, FIXED_NAMED)) tail.push(terminalText(`  no such check in this version of the suite (renamed or removed?): ${e.rule} ${e.code} › ${entryCheck(e)}`, 400))
    if (absent.length > FIXED_NAMED) tail.push(`  … and ${absent.length - FIXED_NAMED} more of no such check: see summary.md`)
    for (const line of problemEntryLines(result.baseline)) tail.push(terminalText(`  ${line}`, 400))
  }
  const sampling = samplingLine(result)
  if (sampling) tail.push(terminalText(sampling, 400))
  const lengths = result.observed && lengthsNote(result.observed.lengths)
  if (lengths) tail.push(terminalText(lengths, 400))
  const connections = result.observed && connectionLimitNote(result.observed)
  if (connections) tail.push(terminalText(connections, 400))
  const slow = result.observed && slowCreateNote(result.observed)
  if (slow) tail.push(terminalText(slow, 400))
  // what was sent, beside the plan the first lines gave ("Writes: at most …")
  // a read-only run's too: the last lines a CI log shows say that nothing was written, and by which setting
  tail.push(terminalText(`Sent: ${writeMode(result)}; ${pacing(result)}`, 400))
  // the embedded server's records went with it: the prefix to find them by is a service's concern (a newcomer's first run read "Records created: 25 (names … start with cf-p22f4-")
  if (result.ledger.length > 0 && result.embeddedServer) {
    tail.push(`Records created: ${result.ledger.length}, in the embedded reference server's memory, gone with it (listed in the reports)`)
  } else if (result.ledger.length > 0) {
    // the creates whose name cannot carry the run's prefix (empty, digits) carry it in their description
    const where = someNameWithoutPrefix(result.ledger) ? WHERE_THE_PREFIX_IS : 'names'
    tail.push(terminalText(`Records created: ${result.ledger.length} (${where} ${recordPrefixWords(result)}; listed in the reports)`, 400))
  } else if (!result.options.readOnly) {
    tail.push('Records created: none')
  }
  const gained = unprefixedNewWords(result)
  if (gained) tail.push(terminalText(gained, 600))
  if (reportFiles.length > 0) tail.push(terminalText(whereReportsAre(reportFiles), 400))
  tail.push(verdictLine(result))
  // a first run, against the embedded server: what to run next
  if (result.embeddedServer && result.verdict === 'pass') {
    tail.push(`Next: your own service, CONFORM_API_KEY=<its key> ${command} --base-url https://<its host>/v1 (README: Against staging, in CI)`)
    // the service's own engineers may want the checks beside their unit tests
    tail.push('  or in its own vitest, beside its unit tests: defineConformance() (README: In your own tests)')
  }

  // the rule lines, and as many failure details as the screen has room for
  const width = Math.max(0, ...result.rules.map((rule) => rule.id.length))
  const totalFailed = result.rules.reduce((sum, rule) => sum + failedChecks(rule).length, 0)
  let room = MAX_LINES - head.length - tail.length - result.rules.length - (totalFailed > 0 ? 1 : 0)
  let detailed = 0
  let mentioned = 0
  const body: string[] = []
  for (const rule of result.rules) {
    const checks = rule.checks
    const failed = failedChecks(rule)
    const counted =
      rule.status === 'fail'
        ? `${failed.length} of ${checks.length} checks failed · §${rule.section}`
        : rule.status === 'skip'
          ? `not verified: ${ruleSkipText(rule)}`
          : judgedWords(checks)
    const level = rule.level === 'advisory' ? ' (advisory)' : ''
    body.push(terminalText(`  ${MARK[rule.status]} ${rule.id.padEnd(width)}  ${counted}${level}`))
    if (rule.status === 'warn' && room > 0) {
      const note = [...new Set(checks.flatMap((ch) => ch.notes))][0]
      if (note) (body.push(terminalText(`      note: ${note}`)), room--)
    }
    for (const [i, group] of failureGroups(rule).entries()) {
      const block = detailed < DETAILED_FAILURES ? failureBlock(group, room) : undefined
      if (block) {
        body.push(...block)
        room -= block.length
        detailed++
        mentioned += group.checks.length
      } else if (i === 0 && room >= 1) {
        body.push(failureLine(group))
        room--
        mentioned += group.checks.length
      }
    }
  }
  if (totalFailed > mentioned) body.push(`  … ${plural(totalFailed - mentioned, 'more failed check')}: each with expected, actual and curl in the reports`)
  return [...head, ...body, ...tail].join('\n') + '\n'
}
