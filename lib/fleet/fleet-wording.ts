/** The fleet's words, the same in every format: verdicts, matrix cells, the headline, a deployment's detail. */
import type { Status } from '../result/run-result.ts'
import type { FleetDeployment, FleetResult } from './fleet-result.ts'

/** How a deployment's verdict reads, in every format. */
export const VERDICT_WORD: Record<FleetDeployment['verdict'], string> = { pass: 'PASS', fail: 'FAIL', incomplete: 'NOT JUDGED', error: 'NOT JUDGED' }

/** How a cell of the matrix reads in Markdown and the terminal. */
export const CELL_WORD: Record<Status, string> = { pass: 'pass', fail: 'FAIL', skip: 'not verified', warn: 'advisory' }

/** A cell of the matrix in Markdown and the terminal; undefined when the deployment has no verdict on the rule. */
export function cellWord(d: FleetDeployment, ruleId: string): string | undefined {
  const status = d.rules[ruleId]
  if (status === undefined) return undefined
  return d.knownRules?.includes(ruleId) ? KNOWN_CELL : CELL_WORD[status]
}

/** A must-rule whose failures the deployment's baseline excused: failed, and known. */
export const KNOWN_CELL = 'known (baseline)'

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** A relative path as a link target: each segment percent-encoded, so that no character of a folder name acts in Markdown or HTML. */
export function linkTarget(path: string): string {
  return path.split('/').map((segment) => (segment === '..' || segment === '.' ? segment : encodeURIComponent(segment))).join('/')
}

/** The fleet's verdict in one sentence, naming the deployments that failed and those not judged. */
export function fleetHeadline(fleet: FleetResult): string {
  if (fleet.error !== undefined && fleet.deployments.length === 0) return `the fleet could not be run (exit 2): ${fleet.error}`
  const { deployments, failed, notJudged, passed } = fleet.summary
  const named = (pick: (d: FleetDeployment) => boolean) => fleet.deployments.filter(pick).map((d) => d.label).join(', ')
  const parts = [`${passed} of ${deployments} passed`]
  if (failed > 0) parts.push(`${failed} failed (${named((d) => d.exitCode === 1)})`)
  if (notJudged > 0) parts.push(`${notJudged} could not be judged (${named((d) => d.exitCode === 2)})`)
  if (fleet.error !== undefined) parts.push(fleet.error)
  return `${VERDICT_WORD[fleet.verdict]} (exit ${fleet.exitCode}): ${parts.join('; ')}`
}

/** What a deployment's line says after its verdict: its failed rules, or why it was not judged. */
export function deploymentDetail(d: FleetDeployment): string {
  // not judged: why comes first (a refused key fails every rule, which says nothing of the service)
  if ((d.verdict === 'incomplete' || d.verdict === 'error') && d.reason !== undefined) return d.failedRules.length > 0 ? `${d.reason}; failed: ${d.failedRules.join(', ')}` : d.reason
  if (d.failedRules.length > 0) return `failed: ${d.failedRules.join(', ')}`
  if (d.reason !== undefined) return d.reason
  if (d.verdict !== 'pass') return ''
  const known = d.knownRules ?? []
  return known.length === 0 ? 'every must-rule passed' : `every must-rule passed but ${plural(known.length, 'rule')} whose failures its baseline excused (${known.join(', ')})`
}

