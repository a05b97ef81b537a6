/**
 * One fault, one finding: failures that share a cause (answers 5xx, no answer at all, or answers
 * that differ from one request to the next, as one replica behind a load balancer gives) are one
 * finding across the rules they failed, with its rate over the run's requests and what the
 * re-probes (--confirm) showed. Reports show these first; the rules stay listed beneath.
 */
import { keyNotCheckedHint } from '../checks/unauthenticated.ts'
import type { SkipCause } from '../checks/skip-causes.ts'
import { serverFaultStatus } from '../http/exchange.ts'
import type { CheckResult, RunResult } from './run-result.ts'
import { servedNothing, SERVED_NOTHING_WORDS } from './served-nothing.ts'
import { afterUnreadBodyWords, unreadBodyWords } from './unread-bodies.ts'
import { liftedBlockWords } from './lifted-block.ts'
import { unansweredWideBodies } from './wide-bodies.ts'
import { answerOfAnother, otherAnswersWords, outOfStep, sentNames, servedForAnother } from './other-answers.ts'
import { answeredOnlyRedirects, metNotHttp, REDIRECTED_EVERY_REQUEST } from './misdirected.ts'

export type FaultCause = 'other-answers' | 'server-error' | 'no-answer' | 'differing-answers' | 'unreadable-json' | 'type-changed' | 'validation-status' | 'key-not-checked' | 'key-case-ignored' | 'redirected'

/** Every exchange of the run's checks (lifted-block.ts reads which connection each went on). */
const runExchanges = (result: RunResult) => result.rules.flatMap((r) => r.checks.flatMap((c) => c.exchanges))

/**
 * A body that must be refused with 400 (§4.2 rule 1, §7), answered 422 instead: a framework's
 * validation status (FastAPI, Laravel, LoopBack, Rails), one setting behind every refusal rule it
 * fails, whichever of them a body's fault falls under.
 */
const refusedWith422 = (rule: string, check: CheckResult) => rule.startsWith('create-rejects-') && check.failure?.code === 'UNEXPECTED_STATUS' && check.failure.observed === 'status 422'
/** Such a 422's body, not the Error record (FastAPI's {"detail": […]}): the same handler's answer, one fault with its status. */
const bodyOfRefused422 = (rule: string, check: CheckResult, refused422: ReadonlySet<string>) =>
  rule === 'error-body-is-error-record' && check.exchanges.some((e) => e.response?.status === 422 && refused422.has(e.id))

/**
 * A request without a valid key served (§5: a request without one, or with one not issued, gets
 * 401): answered 2xx, or the list or the record it asked for given out. A service whose
 * authentication is not mounted on a route (a middleware registered after it, a gateway's route
 * without its authorizer) serves both the request without a key and the one with a wrong key: one
 * fault across the two rules.
 */
const AUTH_RULES: ReadonlySet<string> = new Set(['auth-missing-key-401', 'auth-invalid-key-401'])
const servedWithoutKey = (rule: string, check: CheckResult) =>
  AUTH_RULES.has(rule) && (check.failure?.code === 'SERVED_WITHOUT_KEY' || (check.failure?.code === 'UNEXPECTED_STATUS' && /^status 2\d\d$/.test(check.failure.observed ?? '')))

/**
 * A request redirected instead of answered (a client does not follow a redirect with its POST
 * body): a router that serves the collection at another path (Go's ServeMux subtree pattern,
 * Django's APPEND_SLASH) redirects every request to it, whichever rule judged the answer.
 */
const redirected = (check: CheckResult) => check.failure?.code === 'UNEXPECTED_STATUS' && /^status 30[12378]$/.test(check.failure.observed ?? '')

/**
 * A create taken whose body held a field's name in another case ("Name"), which JSON does not take
 * for it (RFC 8259 §8.3): answered 201 without name (create-rejects-missing-name), or a record
 * whose name is the later "Name"'s (create-echoes-fields). A binder that matches keys in any case
 * (Go's encoding/json, ASP.NET Core's web defaults) is one fault across the two rules.
 */
function caseFoldedKeySent(rule: string, check: CheckResult): boolean {
  const missingNameTaken = rule === 'create-rejects-missing-name' && check.failure?.code === 'UNEXPECTED_STATUS' && /^status 2\d\d$/.test(check.failure.observed ?? '')
  if (!missingNameTaken && !(rule === 'create-echoes-fields' && check.failure?.observed === '"name" changed')) return false
  const membersOf = (text: string | undefined): Record<string, unknown> => {
    try {
      const value = JSON.parse(text ?? '') as unknown
      return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
    } catch {
      return {}
    }
  }
  return check.exchanges.some((e) => {
    const sent = membersOf(e.request.body)
    const folded = Object.keys(sent).filter((k) => k !== 'name' && k.toLowerCase() === 'name')
    // a record whose name is what the later "Name" held; or a body without name taken
    return missingNameTaken ? folded.length > 0 : folded.some((k) => sent[k] === membersOf(e.response?.body).name)
  })
}

/**
 * The field a failure shows given back as another type than the string sent (§2: name and
 * description are strings): the create's answer or the list failing the schema on it
 * (SCHEMA_MISMATCH, `body.name must be string`), or the answer's value changed into a number, a
 * boolean or null (FIELD_CHANGED). A store that turns numeric text into a number (SQLite's numeric
 * affinity, PHP's JSON_NUMERIC_CHECK) is one fault across the three rules that see it.
 */
function typeChangedField(check: CheckResult): string | undefined {
  const failure = check.failure
  if (failure?.code === 'SCHEMA_MISMATCH') return /^body(?:\[\])?\.(name|description) must be string$/.exec(failure.observed ?? '')?.[1]
  if (failure?.code !== 'FIELD_CHANGED') return undefined
  const field = /^"(name|description)" changed$/.exec(failure.observed ?? '')?.[1]
  // a string shows quoted ("…"); a number, a boolean or null does not
  return field !== undefined && failure.actual.startsWith(`${field}: `) && !failure.actual.startsWith(`${field}: "`) ? field : undefined
}

/**
 * Whether the answers the checks judged hold their field as null wherever it is not a string (a
 * field with no value written so, not a value retyped); answers cut as evidence (a long list) are
 * not read, and at least one must show it.
 */
function nullWhereText(judged: readonly { check: CheckResult; field: string }[]): boolean {
  const values = judged.flatMap(({ check, field }) =>
    check.exchanges.flatMap((e) => {
      try {
        const body = JSON.parse(e.response?.body ?? '') as unknown
        return (Array.isArray(body) ? body : [body]).filter((r) => r !== null && typeof r === 'object' && field in r).map((r) => (r as Record<string, unknown>)[field])
      } catch {
        return []
      }
    }),
  )
  const retyped = values.filter((v) => typeof v !== 'string')
  return retyped.length > 0 && retyped.every((v) => v === null)
}

/**
 * What makes every JSON answer unreadable the same way, whichever rule judged it (NOT_JSON's
 * `observed`): one writer that puts a byte order mark in front (a .NET or PowerShell UTF-8
 * encoder), or one that writes Latin-1, is one fault across the list, the creates and the errors.
 */
const UNREADABLE_ALIKE: Readonly<Record<string, string>> = {
  'a byte order mark': 'began with a UTF-8 byte order mark, which RFC 8259 §8.1 forbids in JSON text',
  'bytes that are not UTF-8': 'held bytes that are not UTF-8 (RFC 8259 §8.1: JSON text is UTF-8)',
}

export interface FaultGroup {
  cause: FaultCause
  /** The finding in one line: kind, rate, rules, re-probes. */
  line: string
  /** What happened, at what rate, without the rules or the re-probes ("170 of 170 requests answered 502 (100 %)"). */
  what: string
  /** The rules it failed, in catalogue order. */
  rules: string[]
  checks: number
}

const percent = (part: number, whole: number) => (whole === 0 ? '0' : ((100 * part) / whole).toFixed(part * 100 < whole ? 1 : 0))

/**
 * A failure told by its rule, its code and the answer it met: the same fault, whichever of the
 * rule's checks met it. Never across rules: a wrong answer as common as "status 201" met on every
 * probe of another rule (a binder that takes an array for a string) is a fault of its own, not the
 * replica another rule's checks met now and then.
 */
const faultKey = (rule: string, check: CheckResult) => `${rule}\u0000${check.failure?.code}\u0000${check.failure?.actual}`

/**
 * A check that failed on every probe is the same fault as an intermittent one of its rule when both
 * met the same failure (code and actual answer): one replica of four behind a random balancer meets a
 * check's three probes one time in 64, so a run with a few such checks often had one "deterministic"
 * among them, which read as a second fault.
 */
function causeOf(rule: string, check: CheckResult, intermittent: ReadonlySet<string>, refused422: ReadonlySet<string>): FaultCause | undefined {
  if (check.failure?.code === 'SERVER_ERROR') return 'server-error'
  if (check.failure?.code === 'NOT_JSON' && UNREADABLE_ALIKE[check.failure.observed ?? ''] !== undefined && check.recurrence?.kind !== 'intermittent') return 'unreadable-json'
  if (check.recurrence?.kind !== 'intermittent' && typeChangedField(check) !== undefined) return 'type-changed'
  if (check.recurrence?.kind !== 'intermittent' && (refusedWith422(rule, check) || bodyOfRefused422(rule, check, refused422))) return 'validation-status'
  if (check.recurrence?.kind !== 'intermittent' && servedWithoutKey(rule, check)) return 'key-not-checked'
  if (check.recurrence?.kind !== 'intermittent' && caseFoldedKeySent(rule, check)) return 'key-case-ignored'
  if (check.recurrence?.kind !== 'intermittent' && redirected(check)) return 'redirected'
  if (check.failure?.code === 'NO_RESPONSE') return 'no-answer'
  if (check.recurrence?.kind === 'intermittent') return 'differing-answers'
  if (check.recurrence?.kind === 'deterministic' && intermittent.has(faultKey(rule, check))) return 'differing-answers'
  return undefined
}

/** A check found on a read of the category list (its first exchange). */
const isListRead = (check: CheckResult) => {
  const request = check.exchanges[0]?.request
  return request?.method === 'GET' && /\/categories$/.test(request.url)
}

/**
 * Why failures were not probed again, when their re-probes were skipped for causes the reports can
 * name; others keep the general words. A slow replica behind a load balancer that missed --timeout
 * stalls its operation: its failures stay unconfirmed, and saying "--confirm 0" of them sent the
 * reader to the wrong option. Several causes are each said: a group whose re-probes were stalled
 * for some and not needed for others read "(--confirm 0, the write budget or the deadline)", none
 * of which had happened.
 */
const NOT_PROBED_AGAIN: Partial<Record<SkipCause, string>> = {
  stalled: 'its operation had left a request unanswered past --timeout, so no more of its requests were sent (a longer --timeout probes it again)',
  'write-budget': 'the write budget (--max-writes) left no POST for it',
  'read-only': '--read-only sends no POST',
  deadline: 'the deadline came first',
  'not-needed': 'the run needed no request of it again (no selected rule judges it, or the first answers made it unnecessary)',
  // a re-probe is refused so only once the port's first answers were no HTTP/1.1 (lib/runner/tls-port.ts)
  misdirected: "the port's first answers were not HTTP/1.1, so the run sent nothing more there",
}
/** The causes the unconfirmed checks' re-probes were skipped for, in words, if the reports can name every one. */
function notProbedAgain(checks: readonly CheckResult[]): string | undefined {
  const causes = [...new Set(checks.filter((c) => c.recurrence?.kind === 'unconfirmed').map((c) => c.recurrence?.cause))]
  const words = causes.map((cause) => (cause === undefined ? undefined : NOT_PROBED_AGAIN[cause]))
  return words.length > 0 && words.every((w) => w !== undefined) ? words.join('; or ') : undefined
}

/** What the re-probes of a group's checks showed, in words, and its kind. `answeredNothing`: why none was probed again when the server answered no request but with a fault (served-nothing.ts), or redirected every one (misdirected.ts). */
function reprobes(checks: readonly CheckResult[], answeredNothing: string | undefined): { kind: string; words: string } {
  const kinds = new Set(checks.map((c) => c.recurrence?.kind ?? 'unconfirmed'))
  // counted per check: one request sent again may judge several checks (a line read "240 of 240" of a
  // run that made 203 requests), so the words say checks' re-runs, not requests
  const again = checks.reduce((n, c) => n + (c.recurrence ? c.recurrence.attempts - 1 : 0), 0)
  const failedAgain = checks.reduce((n, c) => n + (c.recurrence ? c.recurrence.failures - 1 : 0), 0)
  if (kinds.size === 1 && kinds.has('unconfirmed')) {
    const why = notProbedAgain(checks) ?? answeredNothing
    return { kind: 'unconfirmed', words: why ? `not probed again: ${why}` : 'not probed again (--confirm 0, the write budget or the deadline)' }
  }
  if (kinds.size === 1 && kinds.has('deterministic')) return { kind: 'deterministic', words: `every re-probe failed the same way (${again} of ${again} checks' re-runs)` }
  // some confirmed on every probe, the rest not probed again (their operation stalled): nothing intermittent
  // was seen (an Express 4 handler whose rejection is never answered read "partly intermittent; 5 of 5 re-probes failed again")
  if (!kinds.has('intermittent') && kinds.has('deterministic')) {
    const notProbed = checks.filter((c) => (c.recurrence?.kind ?? 'unconfirmed') === 'unconfirmed').length
    const why = notProbedAgain(checks) ?? answeredNothing
    return { kind: 'deterministic', words: `every re-probe failed the same way (${again} of ${again} checks' re-runs); ${notProbed} other check${notProbed === 1 ? '' : 's'} not probed again${why ? `: ${why}` : ''}` }
  }
  if (failedAgain === 0) return { kind: 'intermittent', words: 'every re-probe was answered correctly' }
  return { kind: kinds.has('deterministic') ? 'partly intermittent' : 'intermittent', words: `${failedAgain} of ${again} checks' re-runs failed again` }
}

/** How a group of failed checks recurred when probed again, in a few words ('' when none was confirmed). */
export function recurrenceWords(checks: readonly CheckResult[]): string {
  const confirmed = checks.filter((c) => c.recurrence !== undefined && c.recurrence.kind !== 'unconfirmed')
  if (confirmed.length === 0) {
    if (!checks.some((c) => c.recurrence?.kind === 'unconfirmed')) return ''
    const why = notProbedAgain(checks)
    return why ? `unconfirmed: ${why}` : 'unconfirmed'
  }
  const attempts = confirmed.reduce((n, c) => n + c.recurrence!.attempts, 0)
  const failures = confirmed.reduce((n, c) => n + c.recurrence!.failures, 0)
  const kind = confirmed.every((c) => c.recurrence!.kind === 'deterministic') ? 'deterministic' : 'intermittent'
  return `${kind}: failed ${failures} of ${attempts} probes`
}

/** The run's faults that share a cause, largest first; none when no failure has one of these causes. */
export function faultGroups(result: RunResult): FaultGroup[] {
  const failures = result.rules.flatMap((rule) => rule.checks.filter((c) => c.status === 'fail').map((check) => ({ rule: rule.id, check })))
  // every group is of failed checks: a run that failed none has none, and its POSTs' bodies (the names they sent) are not parsed for it, once per report
  if (failures.length === 0) return []
  const intermittent = new Set(failures.filter((f) => f.check.recurrence?.kind === 'intermittent').map((f) => faultKey(f.rule, f.check)))
  const journal = (result.journal ?? []).filter((e) => e.onWire)
  // every answer of the run 404: nothing is served at the base URL (a wrong path before /v1), one finding, said first
  // answers written for other requests: told before any other cause, which each would misname
  const exchanges = result.rules.flatMap((rule) => rule.checks.flatMap((c) => c.exchanges))
  const names = sentNames(exchanges)
  const written = (check: CheckResult) => check.exchanges.map((e) => answerOfAnother(e, names)).find((words) => words !== undefined)
  // a request without the key served, in a run shown out of step: an answer of another request too, not a key not checked
  const stepped = outOfStep(exchanges, names)
  const shifted = (check: CheckResult) => written(check) ?? (stepped ? check.exchanges.map(servedForAnother).find((words) => words !== undefined) : undefined)
  const refused422 = new Set(failures.filter((f) => refusedWith422(f.rule, f.check)).flatMap((f) => f.check.exchanges.map((e) => e.id)))
  const failed = failures.map((f) => ({ ...f, cause: shifted(f.check) ? ('other-answers' as const) : causeOf(f.rule, f.check, intermittent, refused422) }))
  const total = result.summary.requests
  const groups: FaultGroup[] = []
  for (const cause of ['other-answers', 'server-error', 'no-answer', 'differing-answers', 'unreadable-json', 'type-changed', 'validation-status', 'key-not-checked', 'key-case-ignored', 'redirected'] as const) {
    const members = failed.filter((f) => f.cause === cause)
    if (members.length === 0) continue
    const rules = [...new Set(members.map((m) => m.rule))]
    // one rule's answers unreadable, retyped, refused or served alike are that rule's finding: the group says what spans rules
    if (cause !== 'other-answers' && cause !== 'server-error' && cause !== 'no-answer' && cause !== 'differing-answers' && rules.length < 2) continue
    const confirming = (result.options.confirm ?? 0) > 0
    // a server that answered nothing, or redirected every request, is not probed again (confirmation.ts): said so, not "--confirm 0"
    const notAgain = !confirming ? undefined : servedNothing(journal) ? SERVED_NOTHING_WORDS : answeredOnlyRedirects(journal) > 0 ? REDIRECTED_EVERY_REQUEST : undefined
    const { kind, words } = reprobes(members.map((m) => m.check), notAgain)
    const across = `across ${rules.length === 1 ? `1 rule (${rules[0]})` : `${rules.length} rules`}`
    let rate: string
    if (cause === 'other-answers') {
      // the example an answer shown written for another request, before a request without the key served
      rate = otherAnswersWords(members.length, members.map((m) => written(m.check)).find((w) => w !== undefined) ?? shifted(members[0]!.check)!)
    } else if (cause === 'server-error') {
      const faults = journal.filter((e) => serverFaultStatus(e.status ?? 0) && !(e.status === 503 && e.retryAfter !== undefined))
      const statuses = [...new Set(faults.map((e) => e.status))].sort().join(' or ') || '5xx'
      // answers to the body of an earlier request on the connection: the request at fault is that one
      const unread = unreadBodyWords(members.map((m) => m.check), result.journal ?? []) || afterUnreadBodyWords(members.map((m) => m.check), result.journal ?? [])
      rate = `${faults.length} of ${total} requests answered ${statuses} (${percent(faults.length, total)} %)${unread}`
    } else if (cause === 'no-answer') {
      const lost = journal.filter((e) => e.outcome === 'failed')
      const errors = [...new Set(lost.map((e) => e.error).filter(Boolean))].join(', ')
      // a connection refused never put its request on the wire: said apart ("0 of 185 requests got no answer" said a restart's refusals)
      const refused = (result.journal ?? []).filter((e) => !e.onWire && e.error === 'CONNECTION_REFUSED').length
      const refusedWords = `${refused} ${refused === 1 ? 'attempt was' : 'attempts were'} refused a connection (nothing listened on the port then)`
      // an answer whose body could not be decoded from its Content-Encoding was an answer: said so, not "got no answer"
      const undecodable = lost.filter((e) => e.error === 'UNDECODABLE_BODY').length
      // every request put on the wire answered in bytes that are not HTTP: a wrong port, where another service (a database, a cache) listens
      // (no status line: an answer framed wrong is an HTTP server's, misdirected.ts)
      const garbled = members.flatMap((m) => m.check.exchanges).filter((e) => e.error?.code === 'PROTOCOL_ERROR' && e.response === undefined)
      const notHttp = lost.length === journal.length && lost.every((e) => e.error === 'PROTOCOL_ERROR') && garbled.every(metNotHttp) ? " (nothing the port answered was HTTP: another service's port, a database's or a cache's, or a server that does not speak HTTP/1.1)" : ''
      // …and one whose body broke off was answered too: its status came, its body was cut short
      const cut = lost.filter((e) => e.error === 'INCOMPLETE_BODY').length
      const lostWords =
        undecodable > 0 && undecodable === lost.length
          ? `${lost.length} of ${total} requests were answered with a body the client could not decode from its Content-Encoding (${errors}) (${percent(lost.length, total)} %)`
          : cut > 0 && cut === lost.length
          ? `${lost.length} of ${total} requests were answered with a body cut short (${errors}) (${percent(lost.length, total)} %)`
          : `${lost.length} of ${total} requests got no answer${errors ? ` (${errors})` : ''} (${percent(lost.length, total)} %)${notHttp}`
      const wide = unansweredWideBodies(result.journal ?? [])
      rate = (refused === 0 ? lostWords : lost.length === 0 ? refusedWords : `${lostWords}, and ${refusedWords}`) + (wide ? `: ${wide}` : '')
    } else if (cause === 'key-not-checked') {
      rate = `${members.length} requests without a valid key (none, or one not issued) were served (${keyNotCheckedHint(members.flatMap((m) => m.check.exchanges))})`
    } else if (cause === 'redirected') {
      const answers = members.flatMap((m) => m.check.exchanges.map((e) => e.response)).filter((r) => r !== undefined && r.status >= 300 && r.status < 400)
      // where to, without a query string (the run's own values, which a redirect keeps)
      const to = [...new Set(answers.map((r) => `${r!.status} to ${r!.headers.location?.replace(/\?.*$/, '') ?? 'no Location'}`))].slice(0, 3).join(', ')
      const collection = answers.every((r) => /\/categories\/(?:\?|$)/.test(r!.headers.location ?? '')) ? ' (the collection routed at another path?)' : ''
      rate = `${members.length} checks met requests redirected (${to}) instead of answered, which a client does not follow with its body${collection}`
    } else if (cause === 'key-case-ignored') {
      rate = `${members.length} creates were taken whose body held "Name", which is not name (RFC 8259 §8.3 compares names exactly), as name (keys bound in any case: Go's encoding/json, ASP.NET Core's web defaults)`
    } else if (cause === 'validation-status') {
      const bodies = members.filter((m) => m.rule === 'error-body-is-error-record').length
      rate = `${members.length - bodies} bodies that must be refused with 400 were answered 422 (a framework's validation status: FastAPI, Laravel, LoopBack)${bodies > 0 ? ', and not with the Error record (§7)' : ''}`
    } else if (cause === 'type-changed') {
      const fields = [...new Set(members.map((m) => typeChangedField(m.check)))].map((f) => `"${f}"`).join(' and ')
      rate = nullWhereText(members.map((m) => ({ check: m.check, field: typeChangedField(m.check)! })))
        ? `${members.length} checks met ${fields} written as null (a serialiser that writes a field with no value: Jackson's default inclusion, System.Text.Json's, Go's *string without omitempty)`
        : `${members.length} checks met ${fields} given back as another type than the string sent (numeric text stored as a number?)`
    } else if (cause === 'unreadable-json') {
      const ways = [...new Set(members.map((m) => UNREADABLE_ALIKE[m.check.failure!.observed!]))].join('; or ')
      rate = `${members.length} checks met JSON answers that ${ways}`
    } else {
      // a list read first on the store as the run found it (empty, say) and probed again after the
      // run's creates asked another question: its answer may depend on what the store holds
      const differing = members.filter((m) => m.check.recurrence?.kind === 'intermittent')
      const every = members.length - differing.length
      const checks = `${differing.length} ${differing.length === 1 ? 'check was' : 'checks were'}`
      // a check that failed every probe with the failure another passed on met the same replica each time
      const alike = every === 0 ? '' : `, and ${every} more met the same failure on every probe`
      // creates answered with one another's records (the newest row read back after the insert): a race between the run's own creates, which a second probe need not meet
      const raced = differing.some((m) => (m.check.failure?.message ?? '').includes("the answer is another create's record"))
      // a body left unread before each failed answer on its connection: no replica's, whichever request came next failed (early13)
      const unread = unreadBodyWords(differing.map((m) => m.check), result.journal ?? []) || afterUnreadBodyWords(differing.map((m) => m.check), result.journal ?? [])
      // answers written for other requests, shown by some: the differing others are no replica's nor race's, as far as the run can tell
      rate = failed.some((f) => f.cause === 'other-answers')
        ? `${checks} answered differently on a second probe${alike} (answers written for other requests, as one finding shows?)`
        : unread
        ? `${checks} answered wrongly on some probes only${alike}${unread}`
        : raced
        ? `${checks} answered differently on a second probe${alike}: creates answered with one another's records, which depends on which of the creates sent at once the service stored last`
        : differing.every((m) => isListRead(m.check)) && result.summary.recordsCreated > 0
        ? `${checks} answered differently when the list was read again, after the run's creates had changed the store${alike} (a list that breaks on some content, an empty store or a record, or one replica behind a load balancer?)`
        : liftedBlockWords(differing.map((m) => m.check), result.journal ?? [], runExchanges(result))
        ? `${checks} answered differently on a second probe${alike}${liftedBlockWords(differing.map((m) => m.check), result.journal ?? [], runExchanges(result))}`
        : `${checks} answered differently on a second probe${alike} (one replica behind a load balancer?)`
    }
    groups.push({ cause, line: `${kind}: ${rate}, ${across}; ${words}`, what: rate, rules, checks: members.length })
  }
  return groups.sort((a, b) => b.checks - a.checks)
}
