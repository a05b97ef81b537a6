/**
 * A run in a test environment whose AbortController is not Node's: vitest's happy-dom environment
 * (a front-end monorepo's default, `environment: 'happy-dom'`) puts happy-dom's AbortController,
 * AbortSignal and EventTarget in the global scope, and node:events' setMaxListeners() refuses a
 * signal that is no Node EventTarget. Every check then failed with CHECK_ERROR ('The "eventTargets"
 * argument must be an instance of EventEmitter or EventTarget'), 687 of 744 tests blaming the
 * service for the suite's environment (userplay4, a Fastify service under happy-dom). Such a
 * signal has no listener limit to lift; the run is the same.
 */
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { mainEntry } from './api-entry.ts'

/** An abort signal as a DOM library writes it: its own event target, not Node's. */
class ForeignSignal {
  aborted = false
  reason: unknown = undefined
  onabort: ((event: { type: string }) => void) | null = null
  readonly #listeners = new Set<(event: { type: string }) => void>()
  addEventListener(type: string, listener: (event: { type: string }) => void): void {
    if (type === 'abort') this.#listeners.add(listener)
  }
  removeEventListener(type: string, listener: (event: { type: string }) => void): void {
    if (type === 'abort') this.#listeners.delete(listener)
  }
  dispatchEvent(event: { type: string }): boolean {
    if (event.type === 'abort') for (const listener of [this.onabort, ...this.#listeners]) listener?.call(this, event)
    return true
  }
  throwIfAborted(): void {
    if (this.aborted) throw this.reason
  }
  abortWith(reason: unknown): void {
    if (this.aborted) return
    this.aborted = true
    this.reason = reason ?? new DOMException('This operation was aborted', 'AbortError')
    this.dispatchEvent({ type: 'abort' })
  }
  static any(signals: ForeignSignal[]): ForeignSignal {
    const joined = new ForeignSignal()
    const gone = signals.find((s) => s.aborted)
    if (gone) joined.abortWith(gone.reason)
    else for (const s of signals) s.addEventListener('abort', () => joined.abortWith(s.reason))
    return joined
  }
  static abort(reason?: unknown): ForeignSignal {
    const signal = new ForeignSignal()
    signal.abortWith(reason)
    return signal
  }
  static timeout(ms: number): ForeignSignal {
    const signal = new ForeignSignal()
    setTimeout(() => signal.abortWith(new DOMException('The operation timed out', 'TimeoutError')), ms).unref()
    return signal
  }
}
class ForeignController {
  readonly signal = new ForeignSignal()
  abort(reason?: unknown): void {
    this.signal.abortWith(reason)
  }
}

const API_KEY = 'foreign-abort-key-7c2e19'
let server: RunningServer
beforeAll(async () => {
  server = await startReferenceServer({ apiKey: API_KEY })
})
afterEach(() => {
  vi.unstubAllGlobals()
})
afterAll(async () => {
  await server?.close()
})

test('a run whose global AbortController is a DOM library\'s (happy-dom) gives the verdicts of a run under Node\'s', async () => {
  const { runConformance } = await mainEntry()
  const options = { baseUrl: server.baseUrl, apiKey: API_KEY, seed: 7, environment: {} }
  vi.stubGlobal('AbortController', ForeignController)
  vi.stubGlobal('AbortSignal', ForeignSignal)
  const result = await runConformance(options)
  vi.unstubAllGlobals()
  const checkErrors = result.rules.flatMap((r) => r.checks).filter((c) => c.failure?.code === 'CHECK_ERROR')
  expect(checkErrors.map((c) => c.failure?.actual).slice(0, 3)).toEqual([])
  expect(result.verdict).toBe('pass')
  expect(result.problems).toEqual([])
}, 60_000)
