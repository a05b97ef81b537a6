/**
 * --repeat N: how often each rule was sampled and failed, and what that says of a fault that
 * strikes one request in ten (one replica in ten behind a load balancer): a rule sampled N times
 * misses it with probability 0.9^N.
 */
/** A rule's rounds (--repeat): in how many it ran, in how many it failed. */
export interface Samples {
  runs: number
  failed: number
}

/** How likely a fault on one request in ten would have gone unnoticed by a rule sampled `runs` times. */
export function missedChance(runs: number): number {
  return 0.9 ** runs
}
