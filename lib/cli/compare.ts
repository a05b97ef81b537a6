/**
 * `petstore-conform compare A B`: two runs side by side (staging and production, before and after a
 * deploy), from their report folders or results.json files. What fails in B and not in A, what B
 * fixed, what fails in both, rule by rule, and every difference in what the deployments did where
 * the document is silent. Terminal text, and Markdown for a pull request or a job summary
 * (--output FILE). Exit 1 when B fails something A did not; else 2 when a run reached no verdict,
 * or on unreadable input; else 0.
 */
import { existsSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fleetFolderProblem } from '../fleet/fleet-folder.ts'
import { whyNoResults } from '../fleet/run-folder-words.ts'
import type { RunResult } from '../result/run-result.ts'
import type { CannotRunResult } from '../runner/cannot-run-reports.ts'
import { resultFromFile } from '../result/results-file.ts'
import { noProblemBeyond } from '../result/baseline.ts'
import { EXCUSABLE_PROBLEMS } from '../config/baseline-file.ts'
import { firstRoundName } from '../result/check-rounds.ts'
import { judgesProblems } from '../result/known-problems.ts'
import { compareObserved } from './compare-observed.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import { createRedactor } from '../http/redact.ts'
import { redactorOfRuns } from '../reporters/reproduce-key.ts'
import { inertLogCommands } from '../reporters/ci-log-commands.ts'
import { escapeMarkdown } from '../reporters/markdown-summary.ts'
import { readReportJson, whyUnreadable } from '../config/user-file.ts'
import { compareArgs } from './compare-args.ts'

export const COMPARE_USAGE = `Usage: petstore-conform compare A B [--output FILE]      (npm run conform -- compare A B)

A and B are report folders (holding results.json) or results.json files of two runs. Prints the
checks that fail in B and not in A, those B fixed, those failing in A that B did not judge (a
--read-only run sends no POST), those failing in both (apart: those B fails with another answer, a
200 become a 404), and the differences in observed behaviour; --output FILE also writes it as
Markdown. Exit 1 when B fails something A did not, or otherwise than A; else 2 when A or B reached
no verdict (exit 2: a refused key, --deadline), or when an input cannot be read; else 0. A failure a --baseline excused counts as a
failure: compare shows what the deployments do, not what each run forgave. Of a fleet, give two
deployments' folders (<report-dir>/<label>), not the fleet's.`

interface Failure {
  rule: string
  code: string
  check: string
  message: string
  /** What the failure showed, as a baseline entry records it (FailureDetail.observed); absent in results.json of older runs. */
  observed?: string
  /** A body's other problems (FailureDetail.alsoObserved); absent in results.json of older runs. */
  alsoObserved?: string[]
  /** Why the other run gave this check no verdict (skipped: --read-only, the write budget, --rule …; or absent): then neither fixed nor a regression of it. */
  notJudged?: string
  /** A run problem of the service's (stray answers: `code` is its kind), not a check's failure. */
  problem?: true
  /** Failing in both under two names: A's, of a check B's version of the suite does not have (renamed). */
  renamedFrom?: string
}

/** A check failing in both under one code, with another answer in B (a 200 that became a 404). */
type ChangedFailure = Failure & { observedInA: string }

function readRun(given: string, cwd: string): RunResult {
  let path = resolve(cwd, given)
  const inFolder = existsSync(path) && statSync(path).isDirectory()
  if (inFolder) {
    // a fleet's top folder holds a folder per deployment, and no results.json of its own
    const fleet = existsSync(join(path, 'results.json')) ? undefined : fleetFolderProblem(path, given)
    if (fleet !== undefined) throw new Error(fleet)
    path = join(path, 'results.json')
  }
  let data: unknown
  try {
    data = readReportJson(path, { inFolder })
  } catch (error) {
    // a folder of a run stopped before its reports, or of reports an upload took without results.json, says so, as merge does
    const why = inFolder && (error as NodeJS.ErrnoException).code === 'ENOENT' ? whyNoResults(dirname(path)) : undefined
    throw new Error(`cannot read ${path}: ${why ?? whyUnreadable(error)}`)
  }
  const run = data as Partial<RunResult> | null
  // a run that could not be made (an unreachable deployment, a key unset) wrote why, and no rule
  const notMade = data as Partial<CannotRunResult> | null
  if (notMade?.verdict === 'error' && typeof notMade.error === 'string') throw new Error(`${path} is of a run that could not be made (exit ${notMade.exitCode ?? 2}), with nothing to compare: ${notMade.error}`)
  if (!run || !Array.isArray(run.rules) || typeof run.runId !== 'string') throw new Error(`${path} is not the results.json of a run`)
  return resultFromFile(run as RunResult)
}

/** Failures by what stays the same from run to run (as a baseline names them); a known failure is a failure too. */
function failures(run: RunResult): Map<string, Failure> {
  const found = new Map<string, Failure>()
  for (const rule of run.rules) {
    for (const check of rule.checks) {
      if ((check.status !== 'fail' && check.known === undefined) || !check.failure) continue
      const also = check.failure.alsoObserved
      const observed = typeof check.failure.observed === 'string' ? { observed: check.failure.observed, ...(Array.isArray(also) ? { alsoObserved: also } : {}) } : {}
      // a further round of --repeat is its check again: keyed as its first round, the first failing round kept
      const key = `${rule.id}\u0000${check.failure.code}\u0000${firstRoundName(check.name)}`
      if (!found.has(key)) found.set(key, { rule: rule.id, code: check.failure.code, check: check.name, message: check.failure.message, ...observed })
    }
  }
  // stray answers fail a run of themselves, no rule's: B meeting them and A not is B failing something A did not
  const excused = (run.baseline?.knownProblems ?? []).map((k) => ({ kind: k.problem, message: k.message, observed: k.observed }))
  for (const p of [...(run.problems ?? []), ...excused]) {
    if (!EXCUSABLE_PROBLEMS.includes(p.kind)) continue
    found.set(`\u0000problem\u0000${p.kind}`, { rule: 'run', code: p.kind, check: 'run problem', message: p.message, problem: true, ...(typeof p.observed === 'string' ? { observed: p.observed } : {}) })
  }
  return found
}

/**
 * Why `run` gave the check no verdict, or undefined when it judged it. A read-only production run
 * beside a staging run that wrote sends none of the POSTs: a staging failure it never sent is not
 * "fixed in B", and a failure of B that A never judged is new to B without A having passed it.
 */
function notJudgedBy(run: RunResult, rule: string, check: string, otherVersion: string | undefined): string | undefined {
  const ran = run.rules.find((r) => r.id === rule)
  const found = ran?.checks.find((c) => firstRoundName(c.name) === firstRoundName(check))
  // a rule the run judged without a check of this name, in another version of the suite: reworded, or removed, which "not run" did not say
  if (ran !== undefined && found === undefined && run.tool?.version !== otherVersion) return `its version of the suite (${run.tool?.version ?? 'unknown'}) has no check of this name: renamed or removed?`
  if (found === undefined) return 'not run'
  if (found.status !== 'skip') return undefined
  // "not judged in B: not verified: …" says it twice
  return (found.skipReason ?? 'skipped').replace(/^not verified:\s*/i, '')
}

/** What a failure showed: its observed, and a body's other problems. */
const answerOf = (f: Failure) => [f.observed, ...(f.alsoObserved ?? [])].join(' and ')

export interface Comparison {
  a: RunResult
  b: RunResult
  /** Failing in B and not in A: those A did not judge carry `notJudged` (A's reason); each counts for exit 1. */
  introduced: Failure[]
  /** Failing in A and passing in B. */
  fixed: Failure[]
  /** Failing in A, and a check B did not judge (`notJudged`, B's reason): no verdict either way. */
  notJudgedInB: Failure[]
  both: Failure[]
  /** Failing in both, but B's answer is not A's: a change as --baseline counts one, and exit 1 as a new failure. */
  changed: ChangedFailure[]
  ruleChanges: string[]
  observed: string[]
  /** In the heading's brackets: the count of observed differences and why a run recorded less (--read-only, --rule), or why none are compared (a run cut short). */
  observedWords: string
}

/** A rule that failed and passed by its run's baseline, before the run is named. */
const EXCUSED = 'fail (excused by its baseline)'
const excusedBy = (status: string, whose: string) => (status === EXCUSED ? `fail (excused by ${whose} baseline)` : status)

export function compareRuns(a: RunResult, b: RunResult): Comparison {
  const fa = failures(a)
  const fb = failures(b)
  // a rule that passed only by its run's baseline failed, as its checks count here: never 'warn', which reads as an advisory note
  const statusOf = (run: RunResult, id: string) => {
    const rule = run.rules.find((r) => r.id === id)
    // a rule a run left out (--rule) was not judged there: never "absent", which read as gone from the service
    if (!rule) return (run.options?.rules?.length ?? 0) > 0 ? 'not run (--rule)' : 'not run'
    if (rule.status === 'warn' && rule.checks.some((c) => c.known !== undefined)) return EXCUSED
    // as the fleet's matrix says it: "fail → skip" read as a check skipped, not a rule that run did not judge
    return rule.status === 'skip' ? 'not verified' : rule.status
  }
  const ids = [...new Set([...a.rules, ...b.rules].map((r) => r.id))]
  // what each showed is compared only when both runs recorded it (a results.json from before observed has none)
  // of a body both recorded every problem of, B otherwise is B showing a problem A did not (as a baseline entry excuses it)
  const otherwise = (key: string, f: Failure) => {
    const inA = fa.get(key)
    if (inA?.observed === undefined || f.observed === undefined) return undefined
    const within = noProblemBeyond({ observed: inA.observed, alsoObserved: inA.alsoObserved }, { observed: f.observed, alsoObserved: f.alsoObserved })
    if (within === undefined) return inA.observed !== f.observed ? inA.observed : undefined
    return within ? undefined : answerOf(inA)
  }
  const inBoth = [...fb].filter(([key]) => fa.has(key))
  const withJudgement = (f: Failure, other: RunResult): Failure => {
    // a run problem is judged by a run that reached a verdict and sent every request (stray answers to an unread body follow a POST)
    const notJudged = f.problem ? (noVerdict(other) ?? sentSome(other, other === a ? b : a)) : notJudgedBy(other, f.rule, f.check, (other === a ? b : a).tool?.version)
    return notJudged === undefined ? f : { ...f, notJudged }
  }
  const goneInB = [...fa].filter(([key]) => !fb.has(key)).map(([, f]) => withJudgement(f, b))
  const newInB = [...fb].filter(([key]) => !fa.has(key)).map(([, f]) => withJudgement(f, a))
  const renamed = renamedChecks(a, b, newInB, goneInB)
  const observed = compareObserved(a, b)
  return {
    a,
    b,
    introduced: newInB.filter((f) => !renamed.has(f)),
    fixed: goneInB.filter((f) => f.notJudged === undefined),
    notJudgedInB: goneInB.filter((f) => f.notJudged !== undefined && ![...renamed.values()].includes(f)),
    both: [...inBoth.filter(([key, f]) => otherwise(key, f) === undefined).map(([, f]) => f), ...[...renamed].map(([f, was]) => ({ ...f, notJudged: undefined, renamedFrom: was.check }))],
    changed: inBoth.flatMap(([key, f]) => {
      const observedInA = otherwise(key, f)
      return observedInA === undefined ? [] : [{ ...f, observedInA }]
    }),
    // each run's baseline named on its side only once compared: both excused by their own is no change
    ruleChanges: ids.filter((id) => statusOf(a, id) !== statusOf(b, id)).map((id) => `${id}: ${excusedBy(statusOf(a, id), "A's")} → ${excusedBy(statusOf(b, id), "B's")}`),
    observed: observed.differences,
    observedWords: observed.words,
  }
}

/**
 * Runs of two versions of the suite, one of which reworded a check: its failure in A, under a name
 * B's version does not have, and in B, under one A's does not have, the same rule, code and answer,
 * is one failure in both, not a new one in B (exit 1) beside one "not run" in B. Each B failure to
 * the first A failure alike, once.
 */
function renamedChecks(a: RunResult, b: RunResult, newInB: readonly Failure[], goneInB: readonly Failure[]): Map<Failure, Failure> {
  const lacks = (run: RunResult, f: Failure) => !f.problem && run.rules.some((r) => r.id === f.rule && !r.checks.some((c) => firstRoundName(c.name) === firstRoundName(f.check)))
  const pairs = new Map<Failure, Failure>()
  if (a.tool?.version === b.tool?.version) return pairs
  const left = goneInB.filter((f) => lacks(b, f))
  for (const f of newInB.filter((f) => lacks(a, f))) {
    const was = left.find((g) => g.rule === f.rule && g.code === f.code && g.observed === f.observed && answerOf(g) === answerOf(f))
    if (was) pairs.set(f, was), left.splice(left.indexOf(was), 1)
  }
  return pairs
}

/**
 * Why a run reached no verdict (exit 2: a refused key, a server gone, --deadline), or undefined when
 * it reached one. Such a run judged few of its checks or none: that it fails nothing the other did
 * not is no finding, and compare does not exit 0 on it.
 */
function noVerdict(run: RunResult): string | undefined {
  if (run.verdict !== 'incomplete') return undefined
  // the first clause of the first problem: "the server refused the key: all 83 requests … were answered 401"
  const why = run.problems?.[0]?.message.split(/; |\n/)[0]
  return why === undefined || why === '' ? 'it was cut short (--deadline or a signal)' : why
}

/** Why a run that reached a verdict sent only some of the requests that provoked a run problem in `than`, or undefined: it sent all, or what `than` sent (the same --read-only and --rule, no write budget spent). */
function sentSome(run: RunResult, than: RunResult): string | undefined {
  const scope = (r: RunResult) => JSON.stringify([r.options?.readOnly === true, [...(r.options?.rules ?? [])].sort()])
  if (judgesProblems(run) || (judgesProblems({ ...run, options: undefined }) && scope(run) === scope(than))) return undefined
  const how = run.options?.readOnly ? '--read-only' : (run.options?.rules?.length ?? 0) > 0 ? '--rule' : '--max-writes'
  return `it sent only some of the requests a whole run sends (${how})`
}

/** The comparison's exit code: 1 when B fails something A did not, or otherwise; else 2 when either run reached no verdict; else 0. */
export function comparisonExit(c: Comparison): 0 | 1 | 2 {
  if (c.introduced.length + c.changed.length > 0) return 1
  return noVerdict(c.a) !== undefined || noVerdict(c.b) !== undefined ? 2 : 0
}

/** The comparison's last line: what B fails that A did not, new or otherwise, and the exit code; `text` makes a run's words (why it reached no verdict) safe for the output. */
function verdictLine(c: Comparison, text: (value: unknown) => string): string {
  const checks = (n: number) => `${n} ${n === 1 ? 'check' : 'checks'}`
  // a failure of A that B never judged is no pass: the last line says so beside the exit 0
  const unjudged = c.notJudgedInB.length === 0 ? '' : ` (${c.notJudgedInB.length} of A's failing checks B did not judge: neither fixed nor failing there)`
  if (c.introduced.length + c.changed.length === 0) {
    const cut = (['A', 'B'] as const).flatMap((name) => {
      const why = noVerdict(name === 'A' ? c.a : c.b)
      return why === undefined ? [] : [`${name} reached no verdict (${text(why)})`]
    })
    // a run with no verdict judged few checks or none: "fails nothing" of it is no comparison
    if (cut.length > 0) return `B fails nothing that A did not${unjudged}, but ${cut.join(' and ')}: what it did not judge is not compared: exit 2`
    return `B fails nothing that A did not${unjudged}: exit 0`
  }
  const otherwise = c.changed.length === 0 ? '' : `${c.introduced.length === 0 ? '' : ', and '}${checks(c.changed.length)} otherwise than A`
  // new to B, but A may never have sent them (a --read-only A): the count says how many A did not judge
  const notInA = c.introduced.filter((f) => f.notJudged !== undefined).length
  const unjudgedInA = notInA === 0 ? '' : ` (${notInA} of them not judged in A)`
  // a run problem (stray answers) is no check: named as what it is
  const problems = c.introduced.filter((f) => f.problem).map((f) => `the run problem ${f.code}`)
  const failed = [...(c.introduced.length > problems.length ? [checks(c.introduced.length - problems.length)] : []), ...problems].join(' and ')
  return `B fails ${c.introduced.length === 0 ? '' : `${failed} that A did not${unjudgedInA}`}${otherwise}: exit 1`
}

/** A run's verdict, and how many failures its baseline excused: a `pass` that is one only by them says so. */
function verdictWords(run: RunResult): string {
  const excused = run.baseline?.known.length ?? 0
  const failures = `${excused} ${excused === 1 ? 'failure' : 'failures'}`
  // --update-baseline's run, RECORDED in its own reports: the failures are the ones it wrote down
  if (excused > 0 && run.verdict === 'pass' && run.baseline?.recorded) return `recorded, with ${failures} its --update-baseline wrote down, not passes`
  return excused === 0 ? run.verdict : `${run.verdict}, with ${failures} excused by its baseline`
}

function lines(c: Comparison, markdown: boolean): string[] {
  // every text but the fixed words comes from results.json: the servers' words (observed values,
  // failure messages) or a hand's (a file edited). In the terminal it is one line of visible
  // characters; in the Markdown, which goes to a pull request or a job summary, no markup either
  const text = (value: unknown) => (markdown ? escapeMarkdown(String(value), 2000) : visibleLine(String(value)))
  const code = (value: string) => (markdown ? `\`${visibleLine(value).replaceAll('`', "'")}\`` : visibleLine(value))
  // why the other run did not judge it comes before the failure's message, which can run to hundreds of characters
  const item = (f: Failure, run?: 'A' | 'B') =>
    `- ${f.problem ? `run problem ${code(f.code)}` : `${code(f.rule)} ${code(f.code)} ${text(f.check)}`}${f.renamedFrom !== undefined ? ` (in A: "${text(f.renamedFrom)}", which B's version of the suite does not have: renamed)` : ''}${run !== undefined && f.notJudged !== undefined ? ` (not judged in ${run}: ${text(f.notJudged)})` : ''}: ${text(f.message)}`
  // two versions of the suite name some checks otherwise: said once, above what it explains
  const versions = c.a.tool?.version === c.b.tool?.version ? [] : [`A and B ran two versions of the suite (A ${text(c.a.tool?.version ?? 'unknown')}, B ${text(c.b.tool?.version ?? 'unknown')}): a check one of them does not have is not judged there, and one failing alike under a new name is failing in both`]
  const head = (words: string) => (markdown ? `### ${words}` : `${words}:`)
  const out = [
    markdown ? '## Pet Store categories conformance: comparison' : 'Pet Store categories conformance: comparison',
    `A: ${text(c.a.baseUrl)} (run ${text(c.a.runId)}, ${text(verdictWords(c.a))})`,
    `B: ${text(c.b.baseUrl)} (run ${text(c.b.runId)}, ${text(verdictWords(c.b))})`,
    ...versions,
    '',
    head(`Failing in B, not in A (${c.introduced.length})`),
    ...c.introduced.map((f) => item(f, 'A')),
    head(`Fixed in B (${c.fixed.length})`),
    ...c.fixed.map((f) => item(f)),
    head(`Failing in A, not judged in B: neither fixed nor failing there (${c.notJudgedInB.length})`),
    ...c.notJudgedInB.map((f) => item(f, 'B')),
    head(`Failing in both, otherwise in B (${c.changed.length})`),
    ...c.changed.map((f) => `${item(f)} (A: ${text(f.observedInA)}; B: ${text(answerOf(f))})`),
    head(`Failing in both (${c.both.length})`),
    ...c.both.map((f) => item(f)),
    head(`Rules whose status changed (${c.ruleChanges.length})`),
    ...c.ruleChanges.map((r) => `- ${text(r)}`),
    // its words name a run's settings as results.json holds them (writesFrom, maxWrites): a file's text, made safe as the rest
    head(`Observed behaviour that differs (${text(c.observedWords)})`),
    ...c.observed.map((o) => `- ${text(o)}`),
    '',
    verdictLine(c, text),
  ]
  return out
}

/** Runs `compare`; returns the exit code. Never throws. What it prints and writes is redacted with CONFORM_API_KEY's key and those of the variables the runs name (redactorOfRuns: whole forms only, of variables named like keys), as merge's: an older version's results.json may hold a key a server echoed, which compare quotes. */
export function compareMain(argv: string[], given: { out(text: string): void; err(text: string): void }, cwd: string, env: NodeJS.ProcessEnv = process.env): number {
  let redact = createRedactor(env.CONFORM_API_KEY)
  const io = { out: (text: string) => given.out(redact(text)), err: (text: string) => given.err(redact(text)) }
  const args = compareArgs(argv, cwd)
  if ('help' in args) return io.out(COMPARE_USAGE + '\n'), 0
  if ('problem' in args) return io.err(`conform compare: ${visibleLine(args.problem)}\n`), 2
  const { paths, output } = args
  let comparison: Comparison
  let text: string
  try {
    comparison = compareRuns(readRun(paths[0], cwd), readRun(paths[1], cwd))
    redact = redactorOfRuns([comparison.a, comparison.b], env)
    // a file edited by hand (a baseline without its list) fails here as well as in compareRuns: one line, exit 2
    text = lines(comparison, false).join('\n') + '\n'
  } catch (error) {
    return io.err(`conform compare: ${visibleLine((error as Error).message)}\n`), 2
  }
  io.out(text)
  if (output !== undefined) {
    try {
      // a step may print it (cat, a PR comment's log): a rule id or code of a file edited by hand, in a code span, is no CI log command there either
      writeFileSync(resolve(cwd, output), inertLogCommands(redact(lines(comparison, true).join('\n') + '\n')))
    } catch (error) {
      return io.err(`conform compare: cannot write ${output}: ${(error as Error).message}\n`), 2
    }
  }
  return comparisonExit(comparison)
}
