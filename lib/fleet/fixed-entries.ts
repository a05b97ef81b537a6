/**
 * Baseline entries that no longer fail, in a fleet. A single run names each (its terminal, a
 * ::warning under GitHub Actions): a stale entry would excuse its failure should it come back. A
 * fleet's page said nothing of them, so a team that fixed a known deviation on its deployments kept
 * the entry. The page notes them on the deployment whose run found them fixed, once every run that
 * read the same file (a fleet's shared --baseline) found them fixed too: an entry eu-production's
 * run still needed, or did not judge, is not stale because us-production never had the deviation.
 * A deployment whose run could not be made read no baseline, and says nothing here. An entry that
 * expired, of a rule the deployment failed, is noted on it too: its line read "failed: …" of a
 * deviation the team knew the day before, the reason in its own report only.
 */
import type { BaselineEntry, ProblemEntry } from '../config/baseline-file.ts'
import { entryCheck } from '../result/baseline.ts'
import type { RunResult } from '../result/run-result.ts'
import type { CannotRunResult } from '../runner/cannot-run-reports.ts'

/** What of a fleet's deployment a note needs (FleetDeployment, whose module calls these). */
interface NotedDeployment {
  label: string
  failedRules: string[]
  notes?: string[]
}
type RunFile = RunResult | CannotRunResult

/** As many as a single run's terminal names. */
const NAMED = 5

const isEntry = (e: unknown): e is BaselineEntry => typeof e === 'object' && e !== null && typeof (e as BaselineEntry).rule === 'string' && typeof (e as BaselineEntry).code === 'string'

const isProblemEntry = (e: unknown): e is ProblemEntry => typeof e === 'object' && e !== null && typeof (e as ProblemEntry).problem === 'string'

/** An entry found fixed, of knownFailures or of knownProblems: what tells two apart, and its words. */
interface FixedEntry {
  key: string
  words: string
}

const keyOf = (e: BaselineEntry) => JSON.stringify([e.rule, e.code, e.check ?? null, e.observed ?? null, e.alsoObserved ?? null, e.reason, e.expires ?? null])

const named = (e: BaselineEntry) => `${e.rule} ${e.code} › ${entryCheck(e)}${typeof e.observed === 'string' ? ` as ${e.observed}` : ''}`

/**
 * The file a run's baseline was read from and the entries it found fixed, of its knownFailures and
 * of its knownProblems (stray answers no longer met: such an entry, left, would excuse them should
 * they come back, and the page named only the others); undefined without one (or a results.json
 * edited, that merge reads).
 */
function fixedOf(run: RunFile | undefined): { file: string; fixed: FixedEntry[] } | undefined {
  const outcome = run?.verdict === 'error' ? undefined : run?.baseline
  if (typeof outcome?.file !== 'string' || !Array.isArray(outcome.fixed)) return undefined
  const problems = Array.isArray(outcome.fixedProblems) ? outcome.fixedProblems.filter(isProblemEntry) : []
  return {
    file: outcome.file,
    fixed: [
      ...outcome.fixed.filter(isEntry).map((e) => ({ key: keyOf(e), words: named(e) })),
      ...problems.map((e) => ({ key: JSON.stringify(['problem', e.problem, e.observed ?? null, e.reason, e.expires ?? null]), words: `the known problem ${e.problem}${typeof e.observed === 'string' ? ` as ${e.observed}` : ''} (knownProblems)` })),
    ],
  }
}

/** Adds a note to the first deployment of each baseline file whose every run found entries of it fixed (`runs` in the order of `deployments`). */
export function noteFixedEntries(deployments: NotedDeployment[], runs: readonly RunFile[]): void {
  const outcomes = runs.map(fixedOf)
  const readers = new Map<string, number[]>()
  outcomes.forEach((o, i) => o && readers.set(o.file, [...(readers.get(o.file) ?? []), i]))
  for (const [file, indexes] of readers) {
    const fixedIn = indexes.map((i) => new Set(outcomes[i]!.fixed.map((e) => e.key)))
    const stale = outcomes[indexes[0]!]!.fixed.filter((e) => fixedIn.every((keys) => keys.has(e.key)))
    const d = deployments[indexes[0]!]
    if (stale.length === 0 || d === undefined) continue
    const where = indexes.length === 1 ? '' : ` on any of the ${indexes.length} deployments that read it (${indexes.map((i) => deployments[i]?.label).join(', ')})`
    const more = stale.length > NAMED ? `; and ${stale.length - NAMED} more in its report` : ''
    const list = stale.slice(0, NAMED).map((e) => e.words).join('; ')
    const note = `its baseline ${file} holds ${stale.length === 1 ? 'an entry' : `${stale.length} entries`} no longer failing${where}: ${list}${more}. Remove ${stale.length === 1 ? 'it' : 'them'} (${indexes.length === 1 ? '--update-baseline with its --base-url does' : "by hand: --update-baseline writes one deployment's failures, not the others'"}): until then each would excuse its failure, should it come back`
    d.notes = [...(d.notes ?? []), note]
  }
}

/** Adds a note to each deployment that failed a rule of an entry of its baseline that expired: why a known deviation fails again. */
export function noteExpiredEntries(deployments: NotedDeployment[], runs: readonly RunFile[]): void {
  runs.forEach((run, i) => {
    const d = deployments[i]
    const outcome = run.verdict === 'error' ? undefined : run.baseline
    if (d === undefined || !Array.isArray(outcome?.expired)) return
    const expired = outcome.expired.filter(isEntry).filter((e) => d.failedRules.includes(e.rule))
    if (expired.length === 0) return
    const list = expired.slice(0, NAMED).map((e) => `${named(e)} (expired ${e.expires}; reason: "${e.reason}")`).join('; ')
    const more = expired.length > NAMED ? `; and ${expired.length - NAMED} more in its report` : ''
    d.notes = [...(d.notes ?? []), `its baseline ${outcome.file} holds ${expired.length === 1 ? 'an entry' : `${expired.length} entries`} of a rule it failed that expired, and excuse${expired.length === 1 ? 's' : ''} nothing: ${list}${more}`]
  })
}
