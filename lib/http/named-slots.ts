/**
 * One of the --concurrency slots (lib/http/request-slots.ts) for all the requests naming one
 * connection of their own (SendOptions.connection): the first takes it as any request does, those
 * sent while it is held share it at once, and the last one's end frees it.
 *
 * Shared, not waited for again: the case-swapped key after the key (suites/areas/authentication.ts)
 * waited for a slot of its own behind the run's other requests, past the second the client keeps
 * a connection idle, and went on a new connection (hostile12). Held, not beside the slots: a pair
 * beside them went first to a server that serves one connection at a time, and while it served
 * them, the slots' requests, unanswered, opened wave after wave of connections its backlog could
 * not hold (the P90 on the wire against Python's http.server over HTTP/1.0, 100 ms an answer: 5
 * with a slot, 12 to 16 beside them on a loaded machine; test/http/one-connection-at-a-time.test.ts).
 */
import type { Release, RequestPriority, RequestSlots } from './request-slots.ts'

interface Shared {
  granted: Promise<Release>
  users: number
}

export class NamedSlots {
  private readonly held = new Map<string, Shared>()

  constructor(private readonly slots: RequestSlots) {}

  /** The slot of the requests naming `name`: taken by the first (under its priority and signal), shared by the rest while held. */
  async acquire(name: string, priority: RequestPriority, signal: AbortSignal): Promise<Release> {
    let shared = this.held.get(name)
    if (shared === undefined) this.held.set(name, (shared = { granted: this.slots.acquire(priority, signal), users: 0 }))
    shared.users++
    let release: Release
    try {
      release = await shared.granted
    } catch (error) {
      // the first one's wait ended with its own signal: the rest wait again, for a slot of their own
      if (this.held.get(name) === shared) this.held.delete(name)
      if (signal.aborted) throw error
      return this.acquire(name, priority, signal)
    }
    let left = false
    return () => {
      if (left) return
      left = true
      if (--shared.users > 0) return
      if (this.held.get(name) === shared) this.held.delete(name)
      release()
    }
  }
}
