/**
 * --repeat N: how often each rule was sampled and failed, and what that says of a fault that
 * strikes one request in ten (one replica in ten behind a load balancer): a rule sampled N times
 * misses it with probability 0.9^N.
 */
import type { RunResult } from './run-result.ts'

/** A rule's rounds (--repeat): in how many it ran, in how many it failed. */
export interface Samples {
  runs: number
  failed: number
}

/** How likely a fault on one request in ten would have gone unnoticed by a rule sampled `runs` times. */
export function missedChance(runs: number): number {
  return 0.9 ** runs
}

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
