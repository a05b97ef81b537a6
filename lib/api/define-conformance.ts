/**
 * The suites inside a service's own vitest (`<package>/vitest`, entry/vitest.ts): one describe()
 * per rule, named by its id then its title, and one test() per check of the suites. The whole run
 * is made once, before the tests, by the programmatic front door (run-conformance.ts, the command
 * line's options, probes, write plan, journal, redaction and deadline), and each test then reads
 * its own check's outcome from the run's result. So the verdicts are the command line's whatever
 * order vitest runs the tests in (`sequence.shuffle`, `-t`), and a check that compares the list
 * after every create still sees every create. The one file of lib/ that imports vitest: the
 * command line and the programmatic API never load it (test/spec/layers.test.ts).
 */
import { problemEntryLines } from '../result/known-problems.ts'
import { entryCheck, RECORDED_REASON } from '../result/baseline.ts'
import { randomBytes } from 'node:crypto'
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import * as vitest from 'vitest'
import { beforeAll, describe, test, type TestContext } from 'vitest'
import { createRedactor } from '../http/redact.ts'
import { PROJECT_ROOT } from '../project-root.ts'
import { inertLogCommands } from '../reporters/ci-log-commands.ts'
import { checkFailureText } from '../reporters/terminal-summary.ts'
import { failureGroups } from '../reporters/failure-groups.ts'
import { baselineLine } from '../result/baseline.ts'
import type { BaselineOutcome, CheckResult, RuleResult } from '../result/run-result.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import type { SuiteManifest } from '../runner/conform-run.ts'
import { ruleCatalogue } from '../spec/rule-catalogue.ts'
import { collectChecks, type Suite } from '../suite-kit/check.ts'
import { newRunScope, within } from '../suite-kit/run-context.ts'
import { ConformanceConfigError, ConformanceError } from './errors.ts'
import { configBeforeAddress, inOptionWords, type ConformanceOptions } from './options.ts'
import { markRejectionHandled } from './base-url.ts'
import { responseEvidence } from './response-evidence.ts'
import { runConformanceWith, type ConformanceRun } from './run-conformance.ts'
import { collectionOver, currentSuite, projectRoot, type Vitest3Suite } from './vitest-collection.ts'

/**
 * A failed check, as the terminal shows it. Its stack is its message and one frame: where the test
 * file called defineConformance(), when known (the place in the suite helps no one reading a
 * service's failure, but a failure with no frame of the test file has no place at all: vitest's
 * github-actions reporter, on by default in GitHub Actions, annotates none, and an editor shows it
 * nowhere).
 */
export class ConformanceCheckFailure extends Error {
  constructor(quoting: string, declaredAt?: string) {
    // vitest prints it in the step's log: server text in it is no Azure or TeamCity log command
    const message = inertLogCommands(quoting)
    super(message)
    this.name = 'ConformanceCheckFailure'
    this.stack = withFrame(`${this.name}: ${message}`, declaredAt)
  }
}

const withFrame = (head: string, frame: string | undefined) => (frame === undefined ? head : `${head}\n${frame}`)

/** This package's folder, whose frames are not the caller's. */
const PACKAGE_FOLDER = PROJECT_ROOT.replace(/[\\/]+$/, '')

/**
 * The frame, unless the lines vitest prints around it (its code frame: two before, two after) may
 * hold the key: a key written in the test file beside defineConformance() would be shown as
 * written, whole in a wide terminal. Whatever the redactor would hide counts, not only the key as
 * it is: written escaped (`'sk\u005flive…'`) or in pieces (`'sk_live_3f9a' + '0c1e…'`), each
 * piece of a long key is shown as such. Without a frame the failure is shown as before, unplaced.
 */
export function frameShowingNoKey(frame: string | undefined, keys: readonly (string | undefined)[]): string | undefined {
  return frame !== undefined && keyNearFrame(frame, keys) === false ? frame : undefined
}

/** Whether the lines vitest prints around `frame` hold a key (as frameShowingNoKey reads them); undefined when they cannot be read. */
export function keyNearFrame(frame: string, keys: readonly (string | undefined)[]): boolean | undefined {
  const secrets = keys.filter((key): key is string => typeof key === 'string' && key !== '')
  if (secrets.length === 0) return false
  const place = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):\d+\)?\s*$/.exec(frame)
  if (!place) return undefined
  try {
    const file = place[1]!.startsWith('file://') ? fileURLToPath(place[1]!) : place[1]!
    const line = Number(place[2])
    const near = readFileSync(file, 'utf8').split('\n').slice(Math.max(0, line - 4), line + 3).join('\n')
    return createRedactor(...secrets)(near) !== near
  } catch {
    return undefined
  }
}

/**
 * Said by a failure that is not placed because of the key: with no code frame and no annotation,
 * and nothing saying why, a team took it for the suite's fault (docs/library.md's own examples
 * wrote the key in the defineConformance() line).
 */
export const KEY_NEAR_NOTE = 'not placed at the defineConformance() line (no code frame, no GitHub Actions annotation): the API key is written within three lines of it, which vitest would print there; declare it further up the file (const apiKey = … above the hooks) or read it from the environment'

/**
 * The stack line of the call to defineConformance() in the test file: the first frame outside this
 * package and outside Node's own code, or undefined when the stack shows none.
 */
export function callerFrame(stack: string | undefined = new Error('declared here').stack): string | undefined {
  return stack
    ?.split('\n')
    .slice(1)
    .find((line) => /^\s+at /.test(line) && !line.includes(PACKAGE_FOLDER) && !line.includes(pathToFileURL(PACKAGE_FOLDER).href) && !/\(?node:/.test(line))
}

/** Beyond the run's deadline: the time a test waits for the run (it ends by its deadline plus about a second). */
const RUN_MARGIN_MS = 15_000
/**
 * The timeout of each declared test. A test only reads its check's outcome and, for notes, hands
 * vitest an annotation, whose round trip to vitest's main process is the one wait; a service's
 * testTimeout is set for its own unit tests (--testTimeout=1 failed tests whose checks had passed,
 * "Test timed out in 1ms"), and is not this test's to keep.
 */
const CHECK_TEST_MS = 30_000
/** Said when no address was given: the run checked the suite's own reference server, which passes whatever a service does. */
export const embeddedNote = (url: string) => `defineConformance(): no baseUrl given (nor CONFORM_BASE_URL), so the embedded reference server at ${url} was checked, not a service of yours; give baseUrl (() => service.baseUrl for one the test file starts)`

/** The name of the test that holds what went wrong outside any check (the deadline, a key refused). */
export const RUN_TEST_NAME = 'conformance run: complete, with no problem outside a check'

/** The names of the checks the suites declare, by rule: collected once in a scope of their own, which sends nothing. */
function declaredChecks(suites: readonly Suite[]): Map<string, string[]> {
  const runId = 'collect-00000'
  const scope = newRunScope({ baseUrl: 'http://127.0.0.1/v1', apiKey: '', runId, timeoutMs: 1, maxResponseBytes: 1, readOnly: true, rules: [], seed: 0, listLagMs: 0, concurrency: 1, traceId: '0'.repeat(32), identity: { version: '', runId }, extraHeaders: [] })
  const byRule = new Map<string, string[]>()
  for (const check of within(scope, () => collectChecks(suites))) byRule.set(check.rule.id, [...(byRule.get(check.rule.id) ?? []), check.name])
  return byRule
}

/**
 * The run's words as the test file writes its options: `(--list-lag 5000)` is `(listLag: 5000)`,
 * `--read-only` is `readOnly: true` (a flag the test file has not, and may not know, named the
 * setting to change). The curl line is a command, and stays as it is; so does the reason
 * --update-baseline writes in a baseline, quoted as the file holds it.
 */
export const inTestFileWords = (text: string): string =>
  // the reason --update-baseline writes in a baseline's entries is quoted as the file holds it: "give each its reason: 1 of them still say …" sent a team looking for words the file has not
  text.split('\n').map((line) => (line.startsWith('reproduce') ? line : line.split(RECORDED_REASON).map(inOptionWords).join(RECORDED_REASON))).join('\n')
const failureText = (rule: RuleResult, check: CheckResult) => inTestFileWords(checkFailureText(rule, check))

/**
 * What a test's annotations say, in its task's meta too: vitest's json reporter writes a test's
 * meta (`meta.conformance.notes`, `meta.conformance.skipped`), but neither its annotations nor a
 * skip's reason, and a skipped check there read as unexplained as in a bare `<skipped/>`.
 */
function remember(ctx: TestContext, said: { notes: string[] } | { skipped: string }): void {
  const meta = ctx.task?.meta as { conformance?: { notes?: string[]; skipped?: string } } | undefined
  if (meta === undefined) return
  if ('skipped' in said) (meta.conformance ??= {}).skipped = said.skipped
  // this attempt's notes, not added to those of a retried or repeated test's earlier attempts (--retry=2 listed the run's notes three times); none, no key
  else if (said.notes.length > 0) (meta.conformance ??= {}).notes = said.notes
  else delete meta.conformance?.notes
}

/** Notes shown beside a test that passed (annotations where vitest has them, else the console), and in its meta. */
async function annotate(ctx: TestContext, said: readonly string[]): Promise<void> {
  // vitest writes it as it is (its JUnit reporter, a CI step that prints the file): no log command
  const shown = said.map((note) => inertLogCommands(inTestFileWords(note)))
  remember(ctx, { notes: shown })
  for (const note of shown) {
    if (typeof ctx.annotate === 'function') await ctx.annotate(note, 'notice')
    else console.info(`${ctx.task.name}: ${note}`)
  }
}

/**
 * What the baseline did, as the command line's summary says it: how many failures it excused, and
 * each entry that expired (it excused nothing) or whose failure no longer happens (to remove), so
 * that a stale baseline is seen in vitest too, where no test fails for it.
 */
function baselineNotes(outcome: BaselineOutcome | undefined): string[] {
  if (!outcome) return []
  const entry = (e: { rule: string; check?: string }) => visibleLine(`${e.rule} › ${entryCheck(e)}`)
  return [
    visibleLine(baselineLine(outcome)),
    ...outcome.expired.map((e) => `expired ${visibleLine(e.expires ?? '')}, excused nothing: ${entry(e)}`),
    ...outcome.fixed.map((e) => `fixed, no longer failing (remove it from the baseline): ${entry(e)}`),
    ...(outcome.noSuchCheck ?? []).map((e) => `no such check in this version of the suite (renamed or removed?): ${entry(e)}`),
    ...problemEntryLines(outcome).map(visibleLine),
  ]
}

/** A check whose test fails: it failed, on a must-rule, and no baseline excused it. */
const failsItsTest = (rule: RuleResult, check: CheckResult) => check.status === 'fail' && check.known === undefined && rule.level !== 'advisory'

/**
 * The first check of the rule whose test failed the same way (failure-groups.ts: the same code,
 * message, expected and actual), and how many did, when `check` is not that first: one fault is
 * one placed failure, as it is one entry of the command line's summary. vitest's github-actions
 * reporter annotates every placed failure, and GitHub shows 10 error annotations a step: a status
 * field wrong in every Error record failed 52 tests, whose 52 annotations hid any other rule's.
 */
export function earlierSameFailure(rule: RuleResult, check: CheckResult): { first: CheckResult; count: number } | undefined {
  const group = failureGroups({ ...rule, checks: rule.checks.filter((c) => failsItsTest(rule, c)) }).find((g) => g.checks.includes(check))
  return group && group.checks[0] !== check ? { first: group.checks[0]!, count: group.checks.length } : undefined
}

/**
 * One check's outcome as a test's: pass, skip with the reason, fail with the terminal's text and
 * the answer it judged; advisory rules never fail. A failure an earlier check of its rule already
 * showed says so, with its own curl line, and is not placed (no annotation, no code frame).
 */
async function judge(ctx: TestContext, rule: RuleResult, check: CheckResult, runId: string, declaredAt: string | undefined, unplaced: string[]): Promise<void> {
  if (check.status === 'skip') {
    // it may quote the server (a redirect's Location): no log command, as a note's (annotate)
    const reason = inertLogCommands(inTestFileWords(check.skipReason ?? 'not verified'))
    // vitest's junit reporter writes <skipped/> without the reason, and a CI test tab showed 38 skips unexplained: an annotation is a property there
    if (typeof ctx.annotate === 'function') await ctx.annotate(reason, 'skipped')
    remember(ctx, { skipped: reason })
    ctx.skip(reason)
  }
  if (check.known !== undefined) return annotate(ctx, [`known failure (baseline): ${check.known}`, checkFailureText(rule, check)])
  if (check.status === 'fail' && rule.level === 'advisory') return annotate(ctx, [`advisory rule, never a failure: ${checkFailureText(rule, check)}`])
  const same = check.status === 'fail' ? earlierSameFailure(rule, check) : undefined
  if (same) {
    const [head = '', ...rest] = failureText(rule, check).split('\n')
    const others = same.count - 1 === 1 ? 'one other check' : `${same.count - 1} other checks`
    throw new ConformanceCheckFailure([head, `the same failure as ${others} of this rule: the answer it judged is shown under the first, "${visibleLine(same.first.name)}"`, ...rest].join('\n'))
  }
  if (check.status === 'fail') throw new ConformanceCheckFailure([failureText(rule, check), ...responseEvidence(check, runId), ...unplaced].join('\n'), declaredAt)
  // a note quotes the server (a member name it repeated) as it is: on one line, its controls marked, as the terminal shows it
  await annotate(ctx, check.notes.map(visibleLine))
}

/**
 * vitest's calls that declare, refused in the words of defineConformance(): called inside a test
 * (vitest: "Calling the test function inside another test function is not allowed") or from a
 * script that vitest does not run (vitest: "Vitest failed to find the current suite", with causes
 * that are not this one), it says where it goes instead.
 */
function refusedWhereMisplaced(declaredAt: string | undefined, declare: () => void): void {
  const where = "defineConformance() declares vitest's tests and hooks: call it at the top level of a test file that vitest runs (npx vitest run), or inside a describe(), not inside a test or a hook; from a script, runConformance() from the main entry makes the run"
  const refuse = (why: string, cause?: unknown): never => {
    const misplaced = new ConformanceConfigError(`${where} (${why})`, cause === undefined ? undefined : { cause })
    misplaced.stack = withFrame(`${misplaced.name}: ${misplaced.message}`, declaredAt)
    throw misplaced
  }
  // inside a hook vitest says nothing: what it is given after the file's collection is never run (a beforeAll that starts the service, then declares: a green file without one check)
  if (collectionOver(vitest)) refuse('called in a hook: vitest has collected the file, and tests declared now would never run; to check a service a hook starts, call it at the top level with baseUrl as a function, defineConformance({ baseUrl: () => service.baseUrl })')
  // a second suite in the same describe: every test of it named as one of the first's (two services in one file)
  const suite = currentSuite(vitest, vitest3Suite)
  if (suite !== undefined && declaredIn.has(suite)) {
    const twice = new ConformanceConfigError("defineConformance() is called a second time in the same describe (or at the file's top level again): its tests would have the first one's names, in every reporter, and one service's failures would read as the other's; wrap each call in a describe() named for its service, describe('orders v2', () => { defineConformance({ … }) })")
    twice.stack = withFrame(`${twice.name}: ${twice.message}`, declaredAt)
    throw twice
  }
  try {
    declare()
    if (suite !== undefined) declaredIn.add(suite)
  } catch (error) {
    // its first sentence: what follows is vitest's list of other causes, or its own way out (a describe)
    const said = /^[^\n]*?[.!](?=\s|$)/.exec(String((error as Error)?.message ?? error))?.[0].slice(0, -1) ?? String(error)
    refuse(`vitest said: ${said}`, error)
  }
}

/** The describe (or file) where defineConformance() declared its suite already. */
const declaredIn = new WeakSet<object>()

/** vitest 3's `vitest/suite` (vitest 5 has none; read only where vitest has no TestRunner, vitest 3). */
function vitest3Suite(): Vitest3Suite | undefined {
  try {
    return createRequire(import.meta.url)('vitest/suite') as Vitest3Suite
  } catch {
    return undefined
  }
}

/**
 * Declares the conformance suite in the calling test file; `suites` and `manifest` come from the
 * package entry. Options with bad values throw here, at collection, with the command line's
 * message; the base URL (a function or a promise) is asked for when the run starts.
 */
export function declareConformance(suites: readonly Suite[], manifest: SuiteManifest, options: ConformanceOptions = {}): void {
  const environment = options.environment ?? process.env
  // the vitest project's root, as vitest reads its own paths: a run from a monorepo's top (projects: ['packages/*']) read another baseline than one from the package
  const cwd = options.cwd ?? projectRoot() ?? process.cwd()
  // a promise of the address is awaited in the beforeAll: rejected before then, it is the run's failure, not an unhandled rejection
  markRejectionHandled(options.baseUrl)
  // every option but the address, checked now: a bad one fails the file before any test
  let config: ReturnType<typeof configBeforeAddress>
  try {
    config = configBeforeAddress(options, environment, cwd)
  } catch (error) {
    // placed as a check's failure is: its own stack's frame of the test file would have vitest print a key written beside the call
    if (error instanceof ConformanceError) error.stack = withFrame(`${error.name}: ${error.message}`, frameShowingNoKey(callerFrame(), [typeof options.apiKey === 'string' ? options.apiKey.trim() : undefined, environment.CONFORM_API_KEY?.trim()]))
    throw error
  }
  const frame = callerFrame()
  const keys = [config.apiKey, environment.CONFORM_API_KEY?.trim()]
  const declaredAt = frameShowingNoKey(frame, keys)
  const unplaced = frame !== undefined && keyNearFrame(frame, keys) === true ? [KEY_NEAR_NOTE] : []
  // one seed for the run (the option's, CONFORM_SEED's, else a new one), chosen here so that the run's test names the seed that repeats it
  const seed = config.seed ?? randomBytes(4).readUInt32BE() % 2 ** 31
  const checks = declaredChecks(suites)
  const rules = ruleCatalogue().filter((rule) => config.rules.length === 0 || config.rules.includes(rule.id))
  const timeout = config.deadlineMs + RUN_MARGIN_MS
  let run: ConformanceRun | undefined
  let cannotRun: unknown
  refusedWhereMisplaced(declaredAt, () => {
    beforeAll(async () => {
      try {
        run = await runConformanceWith(manifest, { ...options, cwd, seed })
        // the command line says so first; here a green file said nothing of checking the suite's own server (defineConformance() with no options)
        if (run.result.embeddedServer) console.warn(embeddedNote(run.result.baseUrl))
        // a file written in the service's repository: said where the default reporter shows it, not only in the run's test's annotation (--reporter=verbose)
        if (run.baselineWritten) console.warn(inTestFileWords(run.baselineWritten))
      } catch (error) {
        // the run's own refusal (the service unreachable, a baseUrl that gave nothing) placed where the suite was declared, as a check's failure is
        if (error instanceof ConformanceError) error.stack = withFrame(`${error.name}: ${error.message}`, declaredAt)
        cannotRun = error
        throw error
      }
    }, timeout)
    // the run collects the same suites in the same order: a rule's checks are found by their place
    // (names come redacted in the result, and a short key could change one)
    const outcome = (ruleId: string, at: number, name: string) => {
      if (!run) throw cannotRun ?? new Error('the conformance run has not been made')
      const rule = run.result.rules.find((r) => r.id === ruleId)
      const check = rule?.checks.length === checks.get(ruleId)?.length ? rule?.checks[at] : undefined
      if (!rule || !check) throw new Error(`the run has no outcome for ${ruleId} › ${name}`)
      return { rule, check, runId: run.result.runId }
    }
    test(RUN_TEST_NAME, async (ctx) => {
      if (!run) throw cannotRun ?? new Error('the conformance run has not been made')
      const { problems, runId, baseUrl, verdict } = run.result
      // what repeats the run: the seed of its generated inputs; its id starts the names of its records
      // updateBaseline: the failures it wrote down are recorded, not passed, as the command line says
      const said = verdict === 'pass' && run.result.baseline?.recorded && run.result.baseline.known.length > 0 ? 'recorded (the failures updateBaseline wrote down, not passes)' : verdict
      await annotate(ctx, [`${baseUrl} · run ${runId} · seed ${seed} · verdict ${said}`, ...(run.result.embeddedServer ? [embeddedNote(baseUrl)] : []), run.writePlan, ...(run.baselineWritten ? [run.baselineWritten] : []), ...baselineNotes(run.result.baseline)])
      if (problems.length > 0) throw new ConformanceCheckFailure([...problems.map((p) => inTestFileWords(p.message)), ...unplaced].join('\n'), declaredAt)
    }, CHECK_TEST_MS)
    for (const rule of rules) {
      describe(`${rule.id}: ${rule.title}`, () => {
        for (const [at, name] of (checks.get(rule.id) ?? []).entries()) {
          test(name, async (ctx) => {
            const found = outcome(rule.id, at, name)
            await judge(ctx, found.rule, found.check, found.runId, declaredAt, unplaced)
          }, CHECK_TEST_MS)
        }
      })
    }
  })
}
