/**
 * A rejection no code awaited (a probe a check started and left) is the suite's fault, shown as a
 * problem of the run it belongs to, never a crash of the process, and never another run's problem:
 * runs in one process (the kill matrix, a fleet of deployments) keep their rejections apart. One
 * listener serves every run at once; Node calls it in the async context of the promise that was
 * rejected (from Node 20), where the owner's AsyncLocalStorage tells which run it belongs to.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

type Owner = (error: unknown) => void

const owners = new AsyncLocalStorage<Owner>()
let runs = 0

function onUnhandledRejection(error: unknown): void {
  const owner = owners.getStore()
  if (owner) return owner(error)
  // not a run's: as if this listener were not here (Node's default throws it)
  if (process.listenerCount('unhandledRejection') === 1) throw error
}

/** True inside the handling of a rejection that belongs to a run (the command line's last resort leaves it to the run). */
export function rejectionOwnedByARun(): boolean {
  return owners.getStore() !== undefined
}

/**
 * Runs `start` so that every rejection left unhandled by what it starts goes to `owner`. The
 * returned `release()` stops listening for this run, a turn of the event loop later (a rejection
 * is reported after the microtasks that could still have handled it).
 */
export function ownRejections<T>(owner: Owner, start: () => T): { started: T; release: () => void } {
  if (runs++ === 0) process.on('unhandledRejection', onUnhandledRejection)
  const started = owners.run(owner, start)
  let released = false
  return {
    started,
    release: () => {
      if (released) return
      released = true
      setImmediate(() => {
        if (--runs === 0) process.off('unhandledRejection', onUnhandledRejection)
      })
    },
  }
}
