import { setMaxListeners } from 'node:events'

/**
 * Lifts Node's limit of listeners on `signal`. A signal that is not Node's has no such limit, and
 * node:events refuses it: vitest's happy-dom environment puts happy-dom's AbortController in the
 * global scope, and every check of a run there failed with "The "eventTargets" argument must be an
 * instance of EventEmitter or EventTarget" (test/api/foreign-abort-controller.test.ts).
 */
export function unlimitedListeners(signal: AbortSignal): void {
  try {
    setMaxListeners(0, signal)
  } catch {
    // not Node's EventTarget: nothing to lift
  }
}
