/** The fleet's words, the same in every format: verdicts, matrix cells, the headline, a deployment's detail. */
import type { Status } from '../result/run-result.ts'
import type { FleetDeployment, FleetResult } from './fleet-result.ts'
import { plural } from '../reporters/wording.ts'

/** How a deployment's verdict reads, in every format. */
export const VERDICT_WORD: Record<FleetDeployment['verdict'], string> = { pass: 'PASS', fail: 'FAIL', incomplete: 'NOT JUDGED', error: 'NOT JUDGED' }

/** How a cell of the matrix reads in Markdown and the terminal. */
export const CELL_WORD: Record<Status, string> = { pass: 'pass', fail: 'FAIL', skip: 'not verified', warn: 'advisory' }

/**
 * A deployment's status on a rule, or undefined when its run has none. Its own entries only: a rule
 * id of a results.json merge read (edited by hand) may be `constructor` or `__proto__`, which
 * every object inherits.
 */
export function ruleStatus(d: FleetDeployment, rule: string): Status | undefined {
  return Object.hasOwn(d.rules, rule) ? d.rules[rule] : undefined
}

/** How a matrix cell reads in Markdown and the terminal: a rule passed only by the baseline's known failures says so. */
export function cellWord(d: FleetDeployment, rule: string): string | undefined {
  const status = ruleStatus(d, rule)
  if (status === undefined) return undefined
  return d.knownRules?.includes(rule) ? 'known (baseline)' : CELL_WORD[status]
}

/** A matrix cell of no status: "not run (--rule)" for a rule its run's --rule left out (beside a whole run, in a merge), else "—". */
export function noStatusWord(d: FleetDeployment): string {
  return d.selectedRules !== undefined ? 'not run (--rule)' : '—'
}

/** The matrix's legend: what a cell of "—" means. */
export const NO_VERDICT_LEGEND = '— : no verdict on that rule (its run could not be made, or was of an earlier version, which has no such rule).'

/** What a deployment's line adds for the rules its baseline (--baseline, or its targets entry's baseline:) excused, or ''. */
export function knownDetail(d: FleetDeployment): string {
  if (d.knownRules === undefined) return ''
  return d.baselineRecorded ? `failures its --update-baseline recorded, not passes: ${d.knownRules.join(', ')}` : `known failures its baseline excused: ${d.knownRules.join(', ')}`
}

/** A deployment's verdict in a word: RECORDED for a pass by the failures its --update-baseline wrote down, as its own reports say. */
export const deploymentWord = (d: FleetDeployment): string => (d.verdict === 'pass' && d.baselineRecorded ? 'RECORDED' : VERDICT_WORD[d.verdict])

/**
 * A relative path as a link target: each segment percent-encoded, so that no character of a folder
 * name acts in Markdown or HTML; `( ) ! ' *` too, which encodeURIComponent leaves, and a `)` ends a
 * Markdown link (a folder `x)(y` given to merge linked `x`).
 */
export function linkTarget(path: string): string {
  const encode = (segment: string) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
  return path.split('/').map((segment) => (segment === '..' || segment === '.' ? segment : encode(segment))).join('/')
}

/** The fleet's verdict in one sentence, naming the deployments that failed and those not judged. */
export function fleetHeadline(fleet: FleetResult): string {
  if (fleet.error !== undefined && fleet.deployments.length === 0) return `the fleet could not be run (exit 2): ${fleet.error}`
  const { deployments, failed, notJudged, passed } = fleet.summary
  const named = (pick: (d: FleetDeployment) => boolean) => fleet.deployments.filter(pick).map((d) => d.label).join(', ')
  const parts = [`${passed} of ${deployments} passed`]
  // a pass its baseline made is not a pass like the others: the headline names it
  const excused = fleet.deployments.filter((d) => d.exitCode === 0 && d.knownRules !== undefined && !d.baselineRecorded)
  // nor one by the failures its --update-baseline wrote down: recorded, not passed
  const recorded = named((d) => d.exitCode === 0 && d.baselineRecorded === true)
  // "us, eu with known failures its baseline excused" read as us's pass and eu's by its baseline
  const byBaseline = excused.length < 2 ? named((d) => excused.includes(d)) : `${excused.slice(0, -1).map((d) => d.label).join(', ')} and ${excused.at(-1)?.label}`
  // nor is a pass of the must-rules that ran (--read-only, --rule): the headline says which passed so
  const partly = fleet.deployments.filter((d) => d.exitCode === 0 && (d.notVerifiedRules !== undefined || d.selectedRules !== undefined)).map((d) => d.label)
  // a fleet run --read-only or --rule: every pass is one of them, and naming each says nothing more
  const partlyWho = partly.length > 1 && partly.length === passed ? 'each' : partly.join(', ')
  // a pass held to a write budget that ran a check of every rule is no full run's either
  const fewer = fleet.deployments.filter((d) => d.exitCode === 0 && !partly.includes(d.label) && d.partlyVerifiedRules !== undefined).map((d) => d.label)
  const fewerWho = fewer.length > 1 && fewer.length === passed ? 'each' : fewer.join(', ')
  const passNotes = [byBaseline && `${byBaseline} with known failures ${excused.length < 2 ? 'its baseline' : 'their baselines'} excused`, recorded && `${recorded} by failures --update-baseline recorded, not passes`, partlyWho && `${partlyWho} with must-rules not verified`, fewerWho && `${fewerWho} by fewer checks than a full run (a write budget)`].filter((note) => note !== '')
  if (passNotes.length > 0) parts[0] += ` (${passNotes.join('; ')})`
  if (failed > 0) parts.push(`${failed} failed (${named((d) => d.exitCode === 1)})`)
  if (notJudged > 0) parts.push(`${notJudged} could not be judged (${named((d) => d.exitCode === 2)})`)
  if (fleet.error !== undefined) parts.push(fleet.error)
  return `${VERDICT_WORD[fleet.verdict]} (exit ${fleet.exitCode}): ${parts.join('; ')}`
}

/** What comes before a deployment's failed rules: "failed: ", or the one fault they all met. */
export function failedWords(d: FleetDeployment): string {
  return d.fault === undefined ? 'failed: ' : `failed by one fault, ${d.fault}, in ${plural(d.failedRules.length, 'rule')}: `
}

/** What a deployment's line says after its verdict: its failed rules, or why it was not judged. */
export function deploymentDetail(d: FleetDeployment): string {
  const known = knownDetail(d)
  const also = known ? `; ${known}` : ''
  // not judged: why comes first (a refused key fails every rule, which says nothing of the service)
  if ((d.verdict === 'incomplete' || d.verdict === 'error') && d.reason !== undefined) return `${d.reason}${d.failedRules.length > 0 ? `; failed: ${d.failedRules.join(', ')}` : ''}${also}`
  // a failed run cut short says what cut it: the rules it did not reach are not verified
  if (d.failedRules.length > 0) return `${failedWords(d)}${d.failedRules.join(', ')}${also}${d.reason !== undefined ? `; ${d.reason}` : ''}`
  if (d.reason !== undefined) return `${d.reason}${also}`
  // a pass its baseline made says so: the rules it names failed, and were excused
  if (known) return `${d.baselineRecorded ? '' : 'passed with '}${known}${notVerifiedDetail(d)}${partlyDetail(d)}`
  if (d.verdict !== 'pass') return ''
  const selected = d.selectedRules === undefined ? '' : ` (--rule ${d.selectedRules.join(', ')})`
  // a read-only deployment given only rules about creating ran none: "every must-rule that ran passed" said a pass of nothing
  if (d.notVerifiedRules !== undefined && Object.values(d.rules).every((status) => status === 'skip')) return `no rule verified${selected}${notVerifiedDetail(d)}`
  if (d.notVerifiedRules === undefined && d.selectedRules === undefined) return `every must-rule passed${partlyDetail(d)}`
  return `every must-rule that ran passed${selected}${notVerifiedDetail(d)}`
}

/** What a pass adds for the must-rules its run verified by fewer checks than a full run (a write budget), when it verified every one (else the rules not verified say it): a full run's words said nothing of them. */
function partlyDetail(d: FleetDeployment): string {
  const rules = d.partlyVerifiedRules ?? []
  return rules.length === 0 || d.notVerifiedRules !== undefined || d.selectedRules !== undefined ? '' : `; ${plural(rules.length, 'must-rule')} verified by fewer checks than a full run, held back by ${d.writes?.readOnly === true ? 'read-only' : 'the write budget'} (its report names those not run): ${rules.join(', ')}`
}

/** What a pass adds for the must-rules its run did not verify (--read-only, --max-writes, --rule), as its own report says them, or ''. */
function notVerifiedDetail(d: FleetDeployment): string {
  const rules = d.notVerifiedRules ?? []
  return rules.length === 0 ? '' : `; ${rules.length} not verified: ${rules.join(', ')}`
}

/**
 * What a deployment's run wrote, in a few words: "6 POSTs sent; 2 records created (prefix
 * cf-xmo8e-; listed in its report)", "read-only: no POST sent", or undefined when its run holds
 * no count (it could not be made).
 */
export function writesDetail(d: FleetDeployment): string | undefined {
  const w = d.writes
  if (w === undefined) return undefined
  if (w.readOnly) return 'read-only: no POST sent'
  if (w.posts === 0 && w.recordsCreated === 0) return 'no POST sent'
  const doubt = w.inDoubt
  // "no record created" of POSTs a deployment going down left unanswered hid the records they may have left
  const records = w.recordsCreated === 0 ? (doubt ? 'no record answered as created' : 'no record created') : `${plural(w.recordsCreated, 'record')} created (${prefixWords(w.prefixes)}; listed in its report)`
  const inDoubt = doubt ? `; ${plural(doubt.posts, 'POST')} with no answer or a server fault ${doubt.posts === 1 ? 'may have' : 'may each have'} created one (${prefixWords(doubt.prefixes)}; listed in its report)` : ''
  // resends of POSTs that stored nothing are counted apart, as its own report counts them: "126 POSTs sent" beside its "86 … and 40 sent again"
  const sent = w.resent === undefined ? `${plural(w.posts, 'POST')} sent` : `${plural(w.posts - w.resent, 'POST')} sent, and ${w.resent} sent again (answered 429 or 503, or their answer lost, and the lists showed them not stored)`
  return `${sent}; ${records}${inDoubt}`
}

const prefixWords = (prefixes: readonly string[]) => (prefixes.length === 0 ? 'no prefix of the suite' : `${prefixes.length === 1 ? 'prefix' : 'prefixes'} ${prefixes.join(', ')}`)

/** The fleet page's title: how many deployments, or, for a fleet that could not be run (a key's variable unset), that, not "0 deployments" of a file that lists three. */
export function fleetTitle(fleet: FleetResult): string {
  return fleet.error !== undefined && fleet.deployments.length === 0 ? 'the fleet could not be run' : plural(fleet.deployments.length, 'deployment')
}
