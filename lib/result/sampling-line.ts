/** The reports' words on --repeat (lib/result/samples.ts). */
import type { RunResult } from './run-result.ts'
import { missedChance } from './samples.ts'

const times = (n: number) => (n === 1 ? 'once' : n === 2 ? 'twice' : `${n} times`)
const rules = (n: number) => `${n} ${n === 1 ? 'rule' : 'rules'}`

/**
 * The reports' line on sampling, or undefined when the run had one round. Rules are sampled a
 * different number of times (a rule judged on the first round's POSTs only is sampled once), so
 * the chance of missing a fault is given for each count, the most sampled first: the figure for
 * the rules sampled in every round, and the one for those sampled once.
 */
export function samplingLine(result: RunResult): string | undefined {
  const repeat = result.options.repeat ?? 1
  if (repeat <= 1) return undefined
  const sampled = result.rules.filter((r) => r.samples && r.samples.runs > 0)
  const byRuns = new Map<number, number>()
  for (const r of sampled) byRuns.set(r.samples!.runs, (byRuns.get(r.samples!.runs) ?? 0) + 1)
  const chances = [...byRuns]
    .sort(([a], [b]) => b - a)
    .map(([runs, count]) => `${rules(count)} sampled ${times(runs)}: 0.9^${runs} = ${(100 * missedChance(runs)).toFixed(runs >= 22 ? 2 : 1)} %`)
  const flaky = sampled.filter((r) => r.samples!.failed > 0 && r.samples!.failed < r.samples!.runs)
  const failing = flaky.length > 0 ? `; failed in some rounds only: ${flaky.map((r) => `${r.id} (${r.samples!.failed} of ${r.samples!.runs})`).join(', ')}` : ''
  return `--repeat ${repeat}: rules sampled in up to ${repeat} rounds over fresh connections; a replica wrong on one request in ten goes unnoticed by a rule with probability 0.9^(times sampled): ${chances.join('; ')}${failing}`
}
