/**
 * merge joins folders whoever wrote them: a folder left from an older run (a label dropped from
 * the matrix, a workspace that keeps its files) brings last week's verdict into today's gate. Its
 * verdict stands (it is what that run found), but the page says how much older it is than the
 * newest run joined, as a note on that deployment. A CI matrix's jobs start within minutes of each
 * other, or hours when queued: a day apart is no longer one round of runs.
 */
import type { FleetDeployment, RunFile } from './fleet-result.ts'

/** How much older than the newest run a run may be before the page says so. */
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000

const inDays = (ms: number) => {
  const days = ms / (24 * 60 * 60 * 1000)
  return days >= 2 ? `${Math.floor(days)} days` : `${Math.floor(ms / 3_600_000)} hours`
}

/** Adds a note to each deployment whose run started more than STALE_AFTER_MS before the newest (`runs` in the order of `deployments`). */
export function noteStaleRuns(deployments: FleetDeployment[], runs: readonly RunFile[]): void {
  const started = runs.map((run) => Date.parse(run.startedAt))
  // a run not judged for want of its files has no start of its own (merge dates it now)
  const dated = started.filter((at, i) => Number.isFinite(at) && runs[i]?.verdict !== 'error')
  if (dated.length === 0) return
  const newest = Math.max(...dated)
  deployments.forEach((d, i) => {
    const at = started[i] as number
    if (runs[i]?.verdict === 'error' || !Number.isFinite(at) || newest - at <= STALE_AFTER_MS) return
    const note = `its run started ${inDays(newest - at)} before the newest run joined here (${new Date(at).toISOString()} against ${new Date(newest).toISOString()}): a folder left from an older run? Its verdict is that run's`
    d.notes = [...(d.notes ?? []), note]
  })
}

/**
 * Adds a note to each deployment whose run another version of the suite made than most runs joined
 * (a folder kept from before an upgrade, a job that pins another version). The page said nothing:
 * a rule one version has and the other not reads "—" in the matrix, and a rule of both may hold
 * other checks, so verdicts side by side were not of the same gate. Its verdict stands (it is what
 * that run found). Most runs' version is the one the others are told against (the merge's own, `version`, on a tie).
 */
export function noteOtherVersions(deployments: FleetDeployment[], runs: readonly RunFile[], version: string): void {
  const of = (run: RunFile | undefined) => (run?.verdict === 'error' ? undefined : typeof run?.tool?.version === 'string' ? run.tool.version : undefined)
  const counts = new Map<string, number>()
  runs.forEach((run) => {
    const v = of(run)
    if (v !== undefined) counts.set(v, (counts.get(v) ?? 0) + 1)
  })
  if (counts.size < 2) return
  const top = Math.max(...counts.values())
  const most = counts.get(version) === top ? version : [...counts.entries()].find(([, n]) => n === top)![0]
  const same = deployments.filter((_, i) => of(runs[i]) === most).map((d) => d.label)
  const alike = `${same.slice(0, 5).join(', ')}${same.length > 5 ? ` and ${same.length - 5} more` : ''}`
  deployments.forEach((d, i) => {
    const other = of(runs[i])
    if (other === undefined || other === most) return
    d.notes = [...(d.notes ?? []), `its run was made by version ${other} of the suite, ${alike}'s by ${most}${most === version ? ' (this merge\'s)' : ''}: its verdict rests on that version's checks, a rule only one of the two has reads — in the matrix, and a rule of both may hold other checks; run every deployment with one version for one gate`]
  })
}
