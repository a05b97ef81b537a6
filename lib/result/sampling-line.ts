/** The reports' words on --repeat (lib/result/samples.ts). */
import type { RunResult } from './run-result.ts'
import { missedChance } from './samples.ts'

/** The reports' line on sampling, or undefined when the run had one round. */
export function samplingLine(result: RunResult): string | undefined {
  const repeat = result.options.repeat ?? 1
  if (repeat <= 1) return undefined
  const sampled = result.rules.filter((r) => r.samples && r.samples.runs > 0)
  const fewest = Math.min(...sampled.map((r) => r.samples!.runs))
  const flaky = sampled.filter((r) => r.samples!.failed > 0 && r.samples!.failed < r.samples!.runs)
  const chance = (100 * missedChance(fewest)).toFixed(fewest >= 22 ? 2 : 1)
  const failing = flaky.length > 0 ? `; failed in some rounds only: ${flaky.map((r) => `${r.id} (${r.samples!.failed} of ${r.samples!.runs})`).join(', ')}` : ''
  return `--repeat ${repeat}: each rule sampled in up to ${repeat} rounds over fresh connections (at least ${fewest}); a replica wrong on one request in ten would have gone unnoticed by a rule sampled ${fewest} times with probability 0.9^${fewest} = ${chance} %${failing}`
}
