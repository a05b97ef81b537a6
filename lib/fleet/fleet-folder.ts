/**
 * What `compare` says of a folder a fleet wrote at its top (fleet.json, no results.json): it holds
 * a folder per deployment, and compare takes two of those, not the fleet's. Read leniently: the
 * labels are only named, as examples of what to give.
 */
import { join } from 'node:path'
import { visibleLine } from '../reporters/visible-text.ts'
import { readReportJson } from '../config/user-file.ts'

/** The labels a fleet's folder lists, or undefined when the folder holds no fleet.json that lists any. */
function fleetLabels(dir: string): string[] | undefined {
  try {
    const fleet = readReportJson(join(dir, 'fleet.json')) as { deployments?: unknown } | null
    if (!Array.isArray(fleet?.deployments)) return undefined
    return fleet.deployments.map((d: { label?: unknown } | null) => String(d?.label))
  } catch {
    return undefined
  }
}

/** Why a fleet's folder is not a run's, naming its deployments' folders; undefined when `dir` is no fleet's folder. */
export function fleetFolderProblem(dir: string, given: string): string | undefined {
  const labels = fleetLabels(dir)
  if (labels === undefined) return undefined
  const shown = labels.slice(0, 5).map((label) => `${given.replace(/\/+$/, '')}/${visibleLine(label).slice(0, 64)}`)
  const more = labels.length > shown.length ? ` and ${labels.length - shown.length} more` : ''
  return `${given} is a fleet's report folder (fleet.json), not a run's: give the folder of one of its deployments${shown.length > 0 ? `, ${shown.join(', ')}${more}` : ''}`
}
