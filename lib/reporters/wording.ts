/**
 * Words and facts every human-readable report shares (terminal, report.html, summary.md, GitHub
 * annotations), so that they say the same thing the same way.
 */
import { theKey } from '../result/key-refused.ts'
import type { CheckResult, LedgerEntry, RuleResult, RunResult } from '../result/run-result.ts'
import { ANSWER_LOST_LIST_UNREADABLE, ANSWER_LOST_NOT_SENT_AGAIN, ANSWER_LOST_RESENDS_SPENT, faultAnsweredWrite, LIMITED_NOT_SENT_AGAIN, UNAVAILABLE_NOT_SENT_AGAIN, type JournalEntry } from '../http/journal.ts'
import { LEAVES_NOTHING_UNVERIFIED, reportedSkip, type SkipCause } from '../checks/skip-causes.ts'
import { runCounts } from './run-counts.ts'
import { budgetSetting, readOnlySetting } from '../config/write-settings.ts'
import { A_WEB_PAGE, NOT_HTTP, NOTHING_SERVED } from '../result/misdirected.ts'

export const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`

/**
 * A check's skip reason in words, for the one check or rule it is shown beside: "not verified: over
 * the write budget (--max-writes 3; this POST is number 7)" → "over the write budget (--max-writes 3;
 * this POST is number 7)". Grouping never reads it: groups go by the check's cause (causeWords).
 */
/** The words of a rule none of whose checks ran, on its own line: those of the cause it is grouped under (reportedSkip). */
export const ruleSkipText = (rule: RuleResult): string => reasonText(reportedSkip(rule.checks)?.skipReason)

function reasonText(reason: string | undefined): string {
  return (reason ?? 'not run').replace(/^not verified:\s*/i, '')
}

/** The journal's words of a POST kept back by --max-writes or the run's bound of resends (not-sent-again, beside a list that could not tell). */
const NOT_SENT_AGAIN_WORDS: ReadonlySet<string> = new Set([ANSWER_LOST_NOT_SENT_AGAIN, ANSWER_LOST_RESENDS_SPENT, UNAVAILABLE_NOT_SENT_AGAIN, LIMITED_NOT_SENT_AGAIN])

/** A skipped check's cause (one recorded before causes existed: not applicable). */
const causeOf = (check: CheckResult): SkipCause => check.cause ?? 'not-applicable'

/**
 * What a group of skipped checks has in common, in the reports' words: the words of a cause live
 * here and nowhere else, and the options they name come from the result.
 */
export function causeWords(cause: SkipCause, result: Pick<RunResult, 'options'> & Partial<Pick<RunResult, 'problems' | 'journal'>>): string {
  switch (cause) {
    // the setting named as it was given: a read-only run from an env file's CONFORM_READ_ONLY was given no --read-only
    case 'read-only':
      return `${readOnlySetting(result.options.writesFrom)} sends no request that could create a record`
    case 'write-budget':
      return `over the write budget (${budgetSetting(result.options.maxWrites, result.options.writesFrom)})`
    case 'not-needed':
      return result.options.rules.length > 0 ? 'not needed: the selected rules (--rule), or what the service answered, left the request unnecessary' : 'not needed: what the service answered left the request unnecessary'
    case 'deadline':
      // the run's end, which an interrupt brings before the deadline (the cause is the same: the run ended first)
      return result.problems?.some((p) => p.kind === 'interrupted') ? 'the run was interrupted before an answer that could be judged' : "the run's deadline (--deadline) came before an answer that could be judged"
    case 'stalled':
      return 'kept back: an operation had let a request go unanswered past --timeout'
    case 'unsendable':
      return 'not sent: a header would hold a character no HTTP header can carry'
    case 'answer-lost':
      return 'the answer was lost in transit (the server closed the connection under it), though the list shows the record was created'
    case 'not-sent-again': {
      // a list that could not be read said nothing of the record (lib/http/lost-answer.ts 'list-unreadable'): no budget, no bound kept it back
      const unreadable = result.journal?.filter((e) => e.answerLost === ANSWER_LOST_LIST_UNREADABLE).length ?? 0
      const bounded = 'its answer was lost in transit, or was a 429 or 503 under --max-writes, and the list does not show its record, though it may have created one (--max-writes, or the run had sent its bound of POSTs again)'
      const unread = "its answer was lost in transit, and no list could tell whether it was stored (none was answered 200 with an array), though it may have created one: its connection had answered a 5xx before it, or closed with a 408 (an idle close), or the list said nothing of the server (a limit's 429, the run's deadline)"
      const others = (result.journal ?? []).some((e) => e.answerLost !== undefined && NOT_SENT_AGAIN_WORDS.has(e.answerLost))
      return `not sent again, so not judged: ${unreadable === 0 ? bounded : others ? `${bounded}; or ${unread}` : unread}`
    }
    case 'key-revoked':
      return 'the key stopped working during the run (revoked, rotated or expired): its refusals judge nothing'
    case 'server-gone':
      return 'the server stopped taking connections during the run (stopped, restarted or crashed): the requests it refused judge nothing'
    case 'suite-error':
      return 'the suite itself failed on the check (CHECK_ERROR): a fault of the suite, not of the service'
    case 'speaks-tls':
      return 'the base URL is http:// and the port speaks TLS: the requests got no answer, and judge nothing'
    case 'speaks-h2c':
      return 'the port speaks HTTP/2 only, without TLS (h2c): the HTTP/1.1 requests got no answer they could read, and judge nothing'
    case 'answers-nothing':
      return 'the port closed every connection with no byte of an answer (nothing behind it answers): the requests got none, and judge nothing'
    case 'misdirected': {
      // what the run met, as its problem's first words say it ("nothing is served at this base URL"): the list of every kind was cut at the terminal's width after "421 … a redirect", a wrong path's 404 never shown
      const met = result.problems?.find((p) => p.kind === 'misdirected')?.message.split(': ')[0]
      return met ? `${met}: its answers judge nothing` : 'the server does not answer at the base URL (421 Misdirected Request to every request, a redirect of every request to https://, 404, a web page or bytes that are not HTTP to every request): its answers judge nothing'
    }
    case 'response-cap':
      return 'an answer passed --max-response-bytes and was not read whole: raise it to judge it'
    case 'stray-answer':
      return "the answer read may have been a stray one, written for an earlier request on its connection: the server wrote stray answers (the run's problems say where)"
    case 'unfinished':
      return 'the check had not finished when the run was cut short (--deadline, or a signal)'
    case 'key-refused':
      return 'the server refused the key on every request sent with it (wrong, expired, another environment\'s?): its refusals judge nothing'
    case 'certificate-refused':
      return 'a gateway refused the request for its client certificate (mutual TLS): the service never saw it'
    case 'front-answered':
      return "a front's bot check or firewall answered the request (a challenge only a browser passes, or the block page it gave every request): the service never saw it"
    case 'key-unusable':
      return "the key's own shape rules the credential case out"
    case 'length-limit':
      return "the service limits lengths below the suite's creates (lengths are not shown, §8): they were refused, and nothing as long was accepted"
    case 'name-held-elsewhere':
      return "a name every run sends (\"0\", \"\", \"__proto__\") was refused as the service refuses a repeated name, and the key's list shows no record of it: names unique across accounts, another account's record holds it (a key is issued for the account, §5.2; repeats are the service's to refuse)"
    case 'not-applicable':
      // a --read-only run created nothing: "another rule reports why" would send the reader to rules that say --read-only
      return result.options.readOnly
        ? `nothing to judge in the answers: ${readOnlySetting(result.options.writesFrom)} created no record (or another rule reports why, or the service used a freedom)`
        : 'nothing to judge in the answers (another rule reports why, or the service used a freedom)'
  }
}

/** Distinct causes of some checks' skips, in words, with how many checks each covers, most frequent first. */
export function skipReasons(checks: readonly CheckResult[], result: Pick<RunResult, 'options'> & Partial<Pick<RunResult, 'problems' | 'journal'>>): { cause: SkipCause; reason: string; count: number }[] {
  const counts = new Map<SkipCause, number>()
  for (const check of checks) {
    if (check.status !== 'skip') continue
    counts.set(causeOf(check), (counts.get(causeOf(check)) ?? 0) + 1)
  }
  return [...counts].map(([cause, count]) => ({ cause, reason: causeWords(cause, result), count })).sort((a, b) => b.count - a.count)
}

/** Rules no check of which ran (every check skipped), grouped by cause: the rules this run did not verify. */
export function notVerifiedByReason(result: RunResult): { cause: SkipCause; reason: string; rules: RuleResult[] }[] {
  const groups = new Map<SkipCause, RuleResult[]>()
  for (const rule of result.rules) {
    if (rule.status !== 'skip') continue
    // a rule cut before its checks were collected has none: unfinished
    const shown = reportedSkip(rule.checks)
    const cause = shown ? causeOf(shown) : 'unfinished'
    groups.set(cause, [...(groups.get(cause) ?? []), rule])
  }
  return [...groups].map(([cause, rules]) => ({ cause, reason: causeWords(cause, result), rules }))
}

/** Rules that were judged although some of their checks were skipped. */
export function partlyVerified(result: RunResult): { rule: RuleResult; skipped: number; reasons: string[]; missing: CheckResult[] }[] {
  // a check whose request the run did not need (a short form, when the long values were accepted) leaves nothing unverified
  const missing = (c: CheckResult) => c.status === 'skip' && !LEAVES_NOTHING_UNVERIFIED.has(causeOf(c))
  return result.rules
    .filter((rule) => rule.status !== 'skip' && rule.checks.some(missing))
    .map((rule) => {
      const unverified = rule.checks.filter(missing)
      const reasons = skipReasons(unverified, result)
      return { rule, skipped: reasons.reduce((sum, r) => sum + r.count, 0), reasons: reasons.map((r) => r.reason), missing: unverified }
    })
}

/**
 * What the run wrote: the POSTs sent (from the journal) against the bound it had. The bound
 * counts POSTs, not their resends after a 429 or 503 (a request the server did not process, RFC
 * 6585 §4, RFC 9110 §15.6.4), which are said apart.
 */
/** Every POST that went out (each attempt), in order, from the journal: what each sent and how it was answered. */
export function postsSent(result: Pick<RunResult, 'journal'>): JournalEntry[] {
  return (result.journal ?? []).filter((e) => e.method === 'POST' && e.onWire)
}

/** A POST's answer in a report's words: its status, or why none came. */
export const postAnswer = (e: Pick<JournalEntry, 'status' | 'error'>): string => (e.status !== undefined ? String(e.status) : `no answer (${e.error ?? 'none'})`)

/** How the POSTs that went out were answered, commonest first: ", answered 400 ×3, 201 ×2, 1 not answered"; nothing without a journal. */
function postAnswers(result: Pick<RunResult, 'journal'>): string {
  const counts = new Map<number, number>()
  let unanswered = 0
  for (const e of postsSent(result)) {
    if (e.status === undefined) unanswered++
    else counts.set(e.status, (counts.get(e.status) ?? 0) + 1)
  }
  const answered = counts.size === 0 ? [] : [`answered ${[...counts].sort((a, b) => b[1] - a[1]).map(([status, n]) => `${status} ×${n}`).join(', ')}`]
  // "answered no answer ×83" said a port that spoke no HTTP
  const words = [...answered, ...(unanswered > 0 ? [`${unanswered} not answered`] : [])]
  return words.length === 0 ? '' : `, ${words.join(', ')}`
}

export function writeMode(result: RunResult): string {
  if (result.options.readOnly) return `read-only (${result.options.writesFrom?.readOnly ?? '--read-only'}): no POST sent, nothing created`
  const { writes = 0, resentWrites = 0, resentLostWrites = 0 } = result.summary
  const resent =
    (resentWrites > 0 ? `, and ${resentWrites} sent again after the server answered 429 or 503 (a limit or a pause: the lists read for the first of them showed none stored)` : '') +
    (resentLostWrites > 0 ? `, and ${resentLostWrites} sent again after their connection closed before any answer (the list showed them not stored)` : '')
  const { maxWrites, maxWritesGiven, confirm = 0, repeat = 1 } = result.options
  const sent = writes - resentWrites - resentLostWrites
  const again = result.summary.writesAgain ?? 0
  // the options are named in the bound beside it (or by --max-writes): here only what the POSTs were for
  const why = [...(confirm > 0 ? ['to confirm failures'] : []), ...(repeat > 1 ? ['in further rounds'] : [])].join(' or ')
  const ofThem = again > 0 ? `: ${sent - again} of the plan, ${again} sent again ${why}` : ''
  if (maxWritesGiven) return `${plural(sent, 'POST')} sent, of at most ${maxWrites} (${budgetSetting(maxWrites, result.options.writesFrom)})${ofThem}${resent}${postAnswers(result)}`
  // the default bound: the plan's POSTs, and --confirm more for each failed one (write-plan.ts defaultWriteBound)
  const rounds = repeat > 1 ? `, 1 in each further round (--repeat ${repeat})` : ''
  const bound = confirm > 0 ? `at most ${maxWrites} of the plan${rounds} and ${confirm} more for each failed POST to confirm it (--confirm ${confirm})` : `at most ${maxWrites} of the plan${rounds}`
  return `${plural(sent, 'POST')} sent, of ${bound}${ofThem}${resent}${postAnswers(result)}`
}

/**
 * A ledger row's status cell: the answer's status, or, for a record whose answer was lost and that
 * the list showed, the journal's words for it (its status is 0: no answer came, and a 0 read as one).
 */
export function ledgerStatus(entry: Pick<LedgerEntry, 'status' | 'answerLost' | 'foundInList'>): string {
  // a record no answer announced, found in a list: how it came to be ("stored though answered 400")
  return entry.foundInList ?? entry.answerLost ?? String(entry.status)
}

/**
 * Of `count` POSTs that may have created a record (no answer, a server fault), how many the lists
 * the run read showed stored, whose records are then ledger rows: "; the lists the run read showed
 * 2 of them stored (ledger rows)". Nothing when no list was read (a run cut before it): as before.
 */
export function foundWords(found: number | undefined, count: number): string {
  if (found === undefined) return ''
  return found === 0 ? '; the lists the run read showed none of them stored' : `; the lists the run read showed ${found === count ? (count === 1 ? 'it' : `all ${count}`) : `${found} of them`} stored (ledger rows)`
}

/**
 * What a POST answered with a server fault (a 5xx but 503) leaves open, said beside the POSTs
 * without an answer in every report: the request failed, and whether it stored a record first
 * the answer does not say (a service that commits and then fails to write its answer, a gateway's
 * 502 or 504 for a service that went on).
 */
/**
 * The label of the POSTs summary.faultAnsweredWrites counts: "POSTs answered with a server fault", but
 * a 429 is no fault of the server (a limit's refusal, RFC 6585 §4), and under --max-writes one the list
 * did not show is counted there (it is not sent again, and may have stored a record): a run whose
 * only such POSTs were three 429s said "POSTs answered with a server fault: 3".
 */
export function faultAnsweredLabel(result: Pick<RunResult, 'journal'>): string {
  const counted = (result.journal ?? []).filter(faultAnsweredWrite)
  const limited = counted.filter((e) => e.status === 429).length
  if (limited === 0) return 'POSTs answered with a server fault'
  if (limited === counted.length) return 'POSTs answered 429 and not sent again (--max-writes)'
  return `POSTs answered with a server fault, or 429 and not sent again (--max-writes: ${limited} of them)`
}

/** What those POSTs leave open: a server fault's words (FAULT_ANSWERED_WORDS), or, when all were 429s, a limit's. */
export function faultAnsweredWords(result: Pick<RunResult, 'journal'>): string {
  const counted = (result.journal ?? []).filter(faultAnsweredWrite)
  if (counted.length === 0 || counted.some((e) => e.status !== 429)) return FAULT_ANSWERED_WORDS
  return 'a 429 says the client sent too many requests, not that this one was not processed (RFC 6585 §4: a quota counted after the handler stores it first), and under --max-writes it is not sent again: each may have created a record; results.json lists them in its journal'
}

/**
 * The records the lists gained during the run that carry none of its prefixes (summary.unprefixedNew),
 * which no ledger row names: against a service that stored refused POSTs, 71 ledger rows and 74
 * records of the run in the store, the other 3 named "undefined" (from `{"Name": …}`, `{}`).
 */
export function unprefixedNewWords(result: Pick<RunResult, 'summary'>): string | undefined {
  const gained = result.summary.unprefixedNew
  if (!gained) return undefined
  const shown = gained.records.map((r) => r.id).join(', ')
  const ids = shown === '' ? '' : ` (${gained.count > gained.records.length ? `the first ${gained.records.length}: ` : ''}ids ${shown})`
  return `Records the list gained during the run that carry none of its prefixes: ${gained.count}${ids}; no ledger row names them: another client's, or this run's stored in a form that lost the prefix (a field of the body the service did not read, a name cut short); results.json: summary.unprefixedNew`
}

export const FAULT_ANSWERED_WORDS = 'a 5xx but 503 says the request failed, not that nothing was stored: each may have created a record (so may a 503 or a 429 under --max-writes, which is not sent again); results.json lists them in its journal'

/** How hard the run pressed on the server: requests in flight at most, and the rate limit. */
export function pacing(result: RunResult): string {
  const { concurrency, rateLimit } = result.options
  const inFlight = concurrency === undefined ? '' : `at most ${plural(concurrency, 'request')} in flight (--concurrency ${concurrency})`
  const rate = rateLimit === undefined ? 'no rate limit' : `at most ${rateLimit} requests a second (--rate-limit ${rateLimit})`
  return [inFlight, rate].filter(Boolean).join(', ')
}

export function failedChecks(rule: RuleResult): CheckResult[] {
  return rule.checks.filter((c) => c.status === 'fail')
}

export function headline(result: RunResult): string {
  const r = result.summary.rules
  if (result.verdict === 'pass') {
    const unverified = r.skip > 0 ? `; ${plural(r.skip, 'rule')} not verified` : ''
    // a rule whose failures the baseline excused did not pass: the headline says so, as the fleet's page does
    const known = runCounts(result).rules.known
    if (known > 0 && result.baseline?.recorded) return `RECORDED: ${recordedWords(result)} (--update-baseline), not passes; every other must-rule that ran passed${unverified}`
    if (known > 0) return `PASS: every must-rule that ran passed, or failed only as its baseline expects (${plural(known, 'rule')} with known failures)${unverified}`
    // a read-only run given only rules about creating verified none: "every must-rule that ran passed" said a pass of nothing, where the fleet's page says this
    if (noRuleVerified(result)) return `PASS: no rule verified${unverified}`
    return `PASS: every must-rule that ran passed${unverified}`
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'certificate-refused')) {
    return 'INCOMPLETE: a gateway refused the run for its client certificate (mutual TLS), so the run verified nothing of the service'
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'front-answered')) {
    return "INCOMPLETE: a front's bot check or firewall answered the run's requests, so the run verified nothing it answered; let the suite's requests through"
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'key-refused')) {
    // the requests sent without a valid key were judged (their rules may pass): only what the key was sent with went unverified
    return `INCOMPLETE: the server refused the key, so only the requests without a valid one were judged; check ${theKey(result.options.keyFrom)}`
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'speaks-tls')) {
    return 'INCOMPLETE: the base URL is http:// and the port speaks TLS, so the run verified nothing; give its https:// address'
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'speaks-h2c')) {
    return "INCOMPLETE: the port speaks HTTP/2 only (h2c), so the run verified nothing; give the service's HTTP/1.1 port, or its https:// address"
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'answers-nothing')) {
    return 'INCOMPLETE: the port closed every connection with no byte of an answer, so the run verified nothing; run again once the service behind it answers'
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'misdirected')) {
    const said = (words: string) => result.problems.some((p) => p.kind === 'misdirected' && p.message.startsWith(words))
    return `INCOMPLETE: the server answered no request at the base URL (${said(NOTHING_SERVED) ? (result.problems.some((p) => p.message.includes('refused before routing')) ? 'every one with the key 404 Not Found, the others refused before routing' : 'every one 404 Not Found') : said(A_WEB_PAGE) ? 'every one with a web page' : said(NOT_HTTP) ? 'every one with bytes that are not HTTP' : '421 Misdirected Request, or a redirect to https://'}), so the run verified nothing; give the base URL it serves`
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'no-answer-in-time')) {
    return 'INCOMPLETE: the server answered no request within --timeout, so the run verified nothing; slower than that, or hung: a longer --timeout judges it'
  }
  if (result.verdict === 'incomplete' && result.problems.some((p) => p.kind === 'response-cap')) {
    return `INCOMPLETE: answers larger than --max-response-bytes allows were not read whole (${plural(r.skip, 'rule')} not verified; no must-rule failed); raise --max-response-bytes`
  }
  if (result.verdict === 'incomplete' && result.problems.every((p) => p.kind === 'suite-error')) {
    const failedInside = result.rules.flatMap((rule) => rule.checks).filter((c) => c.cause === 'suite-error').length
    return `INCOMPLETE: the suite itself failed (${failedInside > 0 ? `${plural(failedInside, 'check')} not verified; ` : ''}no must-rule failed): a fault of the suite, not a verdict on the service`
  }
  if (result.verdict === 'incomplete') {
    return `INCOMPLETE: the run was cut short before a verdict (${plural(r.skip, 'rule')} not verified; no must-rule failed before it)`
  }
  const parts = [] as string[]
  if (r.fail > 0) parts.push(`${r.fail} of ${r.total} rules failed`)
  if (result.problems.length > 0) parts.push(plural(result.problems.length, 'problem') + ' during the run')
  return `FAIL: ${parts.join(', ')}`
}

/** A pass of --update-baseline beside failures it wrote down: RECORDED, wherever a PASS would be said. */
export const recordedRun = (result: RunResult): boolean => result.verdict === 'pass' && result.baseline?.recorded === true && runCounts(result).rules.known > 0

/** What --update-baseline wrote down, which a PASS beside it would hide: "3 failed checks (2 rules) are known failures in the baseline this run wrote". */
function recordedWords(result: RunResult): string {
  const { checks, rules } = runCounts(result)
  return `${plural(checks.known, 'failed check')} (${plural(rules.known, 'rule')}) ${checks.known === 1 ? 'is a known failure' : 'are known failures'} in the baseline this run wrote`
}

/** The last line of a run: verdict and exit code. */
export function verdictLine(result: RunResult): string {
  // --update-baseline exits 0 on the failures it wrote down: they are recorded, not passed (Schemathesis says "Recorded: N")
  if (recordedRun(result)) {
    return `Verdict: RECORDED (exit ${result.exitCode}): ${recordedWords(result)}, not passes; every other must-rule that ran passed`
  }
  const word = { pass: 'PASS', fail: 'FAIL', incomplete: 'INCOMPLETE' }[result.verdict]
  // a pass that left must-rules unverified (--read-only, a write budget, --rule) says so where a CI log ends, as summary.md's headline does
  const unverified = result.verdict === 'pass' ? result.rules.filter((r) => r.level === 'must' && r.status === 'skip').length : 0
  return `Verdict: ${word} (exit ${result.exitCode})${unverified > 0 ? `: ${noRuleVerified(result) ? 'no rule verified' : 'every must-rule that ran passed'}; ${plural(unverified, 'must-rule')} not verified (listed above)` : ''}`
}

/** Whether the run verified no rule at all (each not verified), as the fleet's line says of such a deployment. */
const noRuleVerified = (result: RunResult): boolean => result.rules.length > 0 && result.rules.every((r) => r.status === 'skip')

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`
}
