/**
 * A run made inside a test runner whose timers are faked (vi.useFakeTimers() or jest.useFakeTimers()
 * in a setup file, sinon's fake timers): every wait of the run (its deadline, each request's
 * --timeout, pacing, the list's lag) is a setTimeout or setImmediate that fires only when the test
 * advances the fake clock, so the run would hang until the runner's hook timeout, past its own
 * deadline, with no word of why. @sinonjs/fake-timers, which vitest and Jest use, marks what it
 * installs: each faked function carries its `clock`, and its Date has `isFake`. Such a run is
 * refused before it starts, naming the way out.
 */

/** The globals a run waits on, as fake-timers names them. */
const TIMERS = ['setTimeout', 'clearTimeout', 'setImmediate', 'setInterval', 'Date', 'performance'] as const

/** The timers that are faked now, by name; empty when the clock is real. */
export function fakedTimers(global: Record<string, unknown> = globalThis as unknown as Record<string, unknown>): string[] {
  return TIMERS.filter((name) => {
    const value = global[name] as { clock?: unknown; isFake?: unknown } | undefined
    return value !== undefined && value !== null && (typeof value.clock === 'object' || value.isFake === true)
  })
}

/** Why a run cannot be made with the timers as they are, or undefined when they are real. */
export function fakeTimersProblem(global?: Record<string, unknown>): string | undefined {
  const faked = fakedTimers(global)
  if (faked.length === 0) return undefined
  return (
    `the timers are faked (${faked.join(', ')}: vi.useFakeTimers(), jest.useFakeTimers() or sinon): a run waits on real time ` +
    '(its deadline, each request\'s timeout) and would never end; call vi.useRealTimers() before the run, at the top of the test file when a setup file fakes them'
  )
}
