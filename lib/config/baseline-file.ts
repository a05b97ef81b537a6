/**
 * A baseline file of known failures (--baseline FILE), read and checked with the options before
 * the run (lib/config/config.ts); lib/result/baseline.ts applies it to a run's result and writes
 * it (--update-baseline).
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs'
import { parseJsonQuietly, readUserText, UserFileTooLarge, whyUnreadable } from './user-file.ts'
import { dirname } from 'node:path'
import { findRule, ruleCatalogue } from '../spec/rule-catalogue.ts'
import { FAILURE_CODES, isFailureCode, isRetiredFailureCode } from '../spec/failure-codes.ts'
import { closestName } from './closest-name.ts'
import { retiredRule } from '../spec/retired-rules.ts'
import { toolVersion } from '../project-root.ts'

/** An entry of a baseline of known failures. */
export interface BaselineEntry {
  rule: string
  code: string
  /**
   * The check's name. Left out: the entry is the rule's, and excuses its code (showing what it
   * observed) on every check of the rule, one deviation wherever it shows, on checks a later version
   * of the suite adds too. --update-baseline writes one such entry for a failure that two or more
   * checks of a rule show alike.
   */
  check?: string
  reason: string
  /** YYYY-MM-DD: from that day on the entry excuses nothing. */
  expires?: string
  /**
   * What the failure showed when it was recorded (the failure's `observed`: a status, a media type,
   * where the body breaks its schema): the entry excuses the failure only while it shows the same.
   * Entries written without it (before it was recorded) excuse the check's code whatever it shows.
   */
  observed?: string
  /**
   * Of a body of another shape: its other problems when it was recorded ([] for none). With it, the
   * entry excuses a body only while it shows no problem beyond `observed` and these; without it (an
   * entry written by hand), a body that shows `observed` alone, as with [].
   */
  alsoObserved?: string[]
}

/**
 * An entry of a run's problem that no rule owns and that fails the run of itself (lib/result/known-problems.ts):
 * stray answers, HTTP's framing broken on a kept-alive connection. A team that lives with one
 * names it here, with its reason, as it names a rule's failure in knownFailures.
 */
export interface ProblemEntry {
  /** The problem's kind, as results.json gives it (`problems[].kind`): `stray-answer`. */
  problem: string
  reason: string
  /** YYYY-MM-DD: from that day on the entry excuses nothing. */
  expires?: string
  /** What the problem showed when it was recorded (`problems[].observed`); without it, the kind whatever it shows. */
  observed?: string
}

export interface Baseline {
  knownFailures: BaselineEntry[]
  /** Run problems a team lives with (stray answers); absent in files that name none. */
  knownProblems?: ProblemEntry[]
}

export class BaselineError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/

/** The fields an entry may have; a key near one of them (`expire`, `Observed`) is a typo, read as absent it changed what the entry excused. */
const ENTRY_FIELDS = ['rule', 'code', 'check', 'reason', 'expires', 'observed', 'alsoObserved'] as const
const PROBLEM_FIELDS = ['problem', 'reason', 'expires', 'observed'] as const
const FIELD_ALIASES: Record<string, RegExp> = { expires: /^(expir|valid_?until$|until$)/i, rule: /^rule_?id$/i, check: /^check_?name$/i, code: /^failure_?code$/i }
const FILE_FIELDS = ['knownFailures', 'knownProblems'] as const

/**
 * The run problems a baseline may excuse (lib/result/run-problems.ts's kinds): those that fail a run
 * with no rule failed and are the service's. Stray answers alone: the others end a run without a
 * verdict (exit 2) or are faults of the suite or of the machine it runs on.
 */
export const EXCUSABLE_PROBLEMS: readonly string[] = ['stray-answer']

/**
 * What an `observed` holds (a status, a media type, a body's problem, what stray answers were):
 * a key near `observed` holding one is the field mistyped (`"observer": "status 403"`, or a status
 * as a team writes it by hand, `"observer": "403"`: kept as a team's word, the entry excused any answer).
 */
const OBSERVED_TEXT = /^(status \d|\d{3}\b|Content-Type: |no media type|no "|"|an empty body|a byte order mark|bytes that|text that|body|an extra answer|answers to )/

/**
 * A team's word for a person near a field's name, `observer` (who saw it) beside `observed`: kept
 * and ignored, as `owner` is, unless it holds what the field holds. A team's baseline with
 * `"observer": "alice"` stopped every gate as a misspelled `observed`.
 */
const teamWord = (key: string, value: unknown): boolean => /^observers?$/i.test(key) && !(typeof value === 'string' && OBSERVED_TEXT.test(value))

/**
 * A key of `given` that is not one of `fields` but near one: a misspelled field, which was read as
 * absent (`expire` left the entry excusing for ever, `Observed` excused any answer). Keys far from
 * every field (`ticket`, `owner`, a comment of the team's) are kept and ignored; so are a key near a
 * field the entry has (`role` or `node` beside its `rule` and `code`: read as absent, it changed
 * nothing, and a required field missing is refused as missing), and a field's name with a word after
 * it (`observedBy`, `check_note`), a note of the team's about it, not a field mistyped.
 */
function misspelledField(given: object, fields: readonly string[]): { key: string; meant: string } | undefined {
  for (const key of Object.keys(given)) {
    if (fields.includes(key) || teamWord(key, (given as Record<string, unknown>)[key])) continue
    // other words for a field, too far for an edit or two: "expiry" (as this project's own help words it), "expiresAt", "ruleId"
    const alias = Object.entries(FIELD_ALIASES).find(([field, pattern]) => fields.includes(field) && pattern.test(key))?.[0]
    if (alias !== undefined) return { key, meant: alias }
    const meant = closestName(key, fields)
    if (meant === undefined || Object.hasOwn(given, meant) || (key.startsWith(meant) && /^[A-Z_-]./.test(key.slice(meant.length)))) continue
    return { key, meant }
  }
  return undefined
}

/** Many times a baseline of every check (about 600 entries); /dev/zero or a growing log is refused at it. */
const BASELINE_MAX_BYTES = 64 * 1024 * 1024

/** Reads and checks a baseline file; a file that is not one is a BaselineError naming the problem. */
export function readBaseline(path: string, mayBeMissing: boolean): Baseline {
  if (!existsSync(path)) {
    if (mayBeMissing) return { knownFailures: [] }
    // a fleet refuses --update-baseline: "--update-baseline writes one" beside --targets sent the user to a refusal
    throw new BaselineError(`cannot read the baseline ${path}: no such file (a run of one deployment, its --base-url with --baseline and --update-baseline, writes it)`)
  }
  let text: string
  try {
    text = readUserText(path, BASELINE_MAX_BYTES)
  } catch (error) {
    const why = whyUnreadable(error) + (error instanceof UserFileTooLarge ? '; a baseline of every check the suite has is under 1 MiB' : '')
    throw new BaselineError(`cannot read the baseline ${path} (${why})`)
  }
  // an empty file to be written (`touch baseline.json`, then --update-baseline): as a missing one
  if (mayBeMissing && text.trim() === '') return { knownFailures: [] }
  let data: unknown
  try {
    // a byte order mark, as Windows PowerShell 5.1's Out-File -Encoding utf8 and older Notepad write one: a file of the team's, not a networked text (RFC 8259 §8.1 lets a parser ignore it)
    data = parseJsonQuietly(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    throw new BaselineError(`the baseline ${path} is not JSON: ${(error as Error).message.split('\n')[0]}`)
  }
  const entries = (data as { knownFailures?: unknown } | null)?.knownFailures
  if (data === null || typeof data !== 'object' || !Array.isArray(entries)) throw new BaselineError(`the baseline ${path} is not a baseline: it needs {"knownFailures": [ … ]}`)
  const typoAtTop = misspelledField(data, FILE_FIELDS)
  if (typoAtTop) throw new BaselineError(`the baseline ${path} has "${typoAtTop.key}" (did you mean "${typoAtTop.meant}"?): read as absent, its entries would excuse nothing`)
  const problems = readProblemEntries((data as { knownProblems?: unknown }).knownProblems, path)
  entries.forEach((entry: unknown, i) => {
    const where = `the baseline ${path}, knownFailures[${i}]`
    const e = entry as Partial<BaselineEntry> | null
    const typo = e !== null && typeof e === 'object' ? misspelledField(e, ENTRY_FIELDS) : undefined
    if (typo) throw new BaselineError(`${where} has "${typo.key}", no field of an entry (did you mean "${typo.meant}"?): read as absent, it would change what the entry excuses`)
    for (const field of ['rule', 'code', 'reason'] as const) {
      if (typeof e?.[field] !== 'string' || e[field] === '') throw new BaselineError(`${where} has no ${field} (a non-empty string)`)
    }
    if (e!.check !== undefined && (typeof e!.check !== 'string' || e!.check === '')) {
      throw new BaselineError(`${where} has a check that is not a non-empty string; leave it out for an entry of the whole rule`)
    }
    // a rule an earlier version had is read, excuses nothing and is named as retired (lib/result/baseline.ts)
    if (!findRule(e!.rule!) && retiredRule(e!.rule!) === undefined) {
      const near = closestName(e!.rule!, ruleCatalogue().map((rule) => rule.id))
      // far from every rule: no typo to name, and "unknown" alone left a team guessing whether its file or the suite was wrong
      const other = near ? '' : `, which this version of the suite (${toolVersion()}) does not have: a rule of another version (the one that wrote the entry, or a later one), or an id mistyped. Remove the entry, or run the version that knows the rule`
      throw new BaselineError(`${where} names the unknown rule "${e!.rule}"${near ? ` (did you mean ${near}?)` : other}; --list-rules prints the catalogue`)
    }
    if (e!.observed !== undefined && (typeof e!.observed !== 'string' || e!.observed === '')) {
      throw new BaselineError(`${where} has an observed that is not a non-empty string; --update-baseline writes what the failure showed, or leave it out`)
    }
    const also = e!.alsoObserved
    if (also !== undefined && (!Array.isArray(also) || also.some((p) => typeof p !== 'string' || p === '') || e!.observed === undefined)) {
      throw new BaselineError(`${where} has an alsoObserved that is not a list of non-empty strings beside an observed; --update-baseline writes a body's other problems, or leave it out`)
    }
    if (e!.expires !== undefined && (typeof e!.expires !== 'string' || !DATE.test(e!.expires) || Number.isNaN(Date.parse(e!.expires)))) {
      throw new BaselineError(`${where} has expires "${String(e!.expires)}"; give a date as YYYY-MM-DD`)
    }
    // a code mistyped or unknown never matched: the run went red on its known failure, the entry read as "changed";
    // one an earlier version gave is read, and matches nothing (an upgrade does not turn the gate red)
    if (!isFailureCode(e!.code!) && !isRetiredFailureCode(e!.code!)) {
      const near = closestName(e!.code!, Object.keys(FAILURE_CODES))
      throw new BaselineError(`${where} names the unknown failure code "${e!.code}"${near ? ` (did you mean ${near}?)` : ''}; each failure's code is in results.json and before its message in every report ([UNEXPECTED_STATUS] …)`)
    }
  })
  return { knownFailures: entries as BaselineEntry[], ...(problems ? { knownProblems: problems } : {}) }
}

/** Checks a baseline's knownProblems (absent: none); a list that is not one is a BaselineError. */
function readProblemEntries(list: unknown, path: string): ProblemEntry[] | undefined {
  if (list === undefined) return undefined
  if (!Array.isArray(list)) throw new BaselineError(`the baseline ${path} has a knownProblems that is not a list: [{"problem": "stray-answer", "reason": "…"}]`)
  list.forEach((entry: unknown, i) => {
    const where = `the baseline ${path}, knownProblems[${i}]`
    const e = entry as Partial<ProblemEntry> | null
    const typo = e !== null && typeof e === 'object' ? misspelledField(e, PROBLEM_FIELDS) : undefined
    if (typo) throw new BaselineError(`${where} has "${typo.key}", no field of an entry (did you mean "${typo.meant}"?): read as absent, it would change what the entry excuses`)
    for (const field of ['problem', 'reason'] as const) {
      if (typeof e?.[field] !== 'string' || e[field] === '') throw new BaselineError(`${where} has no ${field} (a non-empty string)`)
    }
    const kind = e!.problem!
    if (!EXCUSABLE_PROBLEMS.includes(kind)) {
      const near = closestName(kind, EXCUSABLE_PROBLEMS)
      throw new BaselineError(`${where} names the problem "${kind}"${near ? ` (did you mean ${near}?)` : ''}: a baseline excuses only ${EXCUSABLE_PROBLEMS.join(', ')}, the one problem that fails a run of itself and is the service's (a run that reached no verdict has none to excuse; a fault of the suite or of this machine is no deviation of the service)`)
    }
    if (e!.observed !== undefined && (typeof e!.observed !== 'string' || e!.observed === '')) throw new BaselineError(`${where} has an observed that is not a non-empty string; --update-baseline writes what the problem showed, or leave it out`)
    if (e!.expires !== undefined && (typeof e!.expires !== 'string' || !DATE.test(e!.expires) || Number.isNaN(Date.parse(e!.expires)))) {
      throw new BaselineError(`${where} has expires "${String(e!.expires)}"; give a date as YYYY-MM-DD`)
    }
  })
  return list as ProblemEntry[]
}


/**
 * Why --update-baseline could not write `path`, or undefined when it can: checked before any
 * request, for a run that found it could not write the file only at its end would have made its
 * writes for nothing, and reported none of them (exit 2, an empty ledger).
 */
export function baselineWriteProblem(path: string): string | undefined {
  const folder = dirname(path)
  if (!existsSync(folder) || !statSync(folder).isDirectory()) return `cannot write the baseline ${path}: there is no folder ${folder} (--update-baseline writes the file, not its folder)`
  try {
    accessSync(existsSync(path) ? path : folder, constants.W_OK)
    return undefined
  } catch {
    return `cannot write the baseline ${path}: permission denied`
  }
}
