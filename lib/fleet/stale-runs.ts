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
