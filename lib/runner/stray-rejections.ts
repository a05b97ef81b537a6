/**
 * A rejection no code awaited (a probe a check started and left) is the suite's fault, shown as a
 * problem of the run it belongs to, never a crash of the process. One listener serves every run
 * under way in the process; which run a rejection belongs to is told one of two ways, chosen by
 * whoever starts the run:
 *
 * - `async-context`: Node calls the listener in the async context of the promise that was rejected
 *   (from Node 20), where an AsyncLocalStorage says which run it belongs to. Exact however many
 *   runs are under way, and never another run's problem (a library caller's runs at once, the
 *   vitest entry). The price: on Node 20 and 22 an AsyncLocalStorage in use puts a hook on every
 *   promise of the process, about a fifth of a run's CPU time (docs/performance.md).
 * - `runs-under-way`: the rejection belongs to the runs under way that have no async context of
 *   their own. The command line's run is alone in its process: exactly that run. A fleet's
 *   deployments share one process and one suite: each of them is told, with the words that say it
 *   cannot be told which of them left it (a fault of the suite, which makes every verdict of the
 *   fleet suspect).
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** How a run is told its stray rejections; `shared`: other runs under way were told the same one. */
type Owner = (error: unknown, shared: { runs: number } | undefined) => void

export type StrayOwnership = 'async-context' | 'runs-under-way'

const owners = new AsyncLocalStorage<Owner>()
const underWay = new Set<Owner>()
let runs = 0

function onUnhandledRejection(error: unknown): void {
  const owner = owners.getStore()
  if (owner) return owner(error, undefined)
  if (underWay.size === 1) for (const only of underWay) return only(error, undefined)
  if (underWay.size > 1) {
    for (const each of underWay) each(error, { runs: underWay.size })
    return
  }
  // not a run's: as if this listener were not here (Node's default throws it)
  if (process.listenerCount('unhandledRejection') === 1) throw error
}

/** True inside the handling of a rejection that belongs to a run (the command line's last resort leaves it to the run). */
export function rejectionOwnedByARun(): boolean {
  return owners.getStore() !== undefined || underWay.size > 0
}

/**
 * Runs `start` so that every rejection left unhandled by what it starts goes to `owner`, told as
 * `how` says. The returned `release()` stops listening for this run, a turn of the event loop
 * later (a rejection is reported after the microtasks that could still have handled it).
 */
export function ownRejections<T>(owner: Owner, start: () => T, how: StrayOwnership = 'async-context'): { started: T; release: () => void } {
  if (runs++ === 0) process.on('unhandledRejection', onUnhandledRejection)
  let started: T
  if (how === 'async-context') started = owners.run(owner, start)
  else {
    underWay.add(owner)
    started = start()
  }
  let released = false
  return {
    started,
    release: () => {
      if (released) return
      released = true
      setImmediate(() => {
        underWay.delete(owner)
        if (--runs === 0) process.off('unhandledRejection', onUnhandledRejection)
      })
    },
  }
}
