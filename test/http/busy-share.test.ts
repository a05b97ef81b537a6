/**
 * The event loop's busy share the slots weigh before opening a wave (lib/http/request-slots.ts):
 * counted only while other clients of the process are at work (a fleet's runs). A file of its own:
 * the count is the module's, and other files' slots left waiting would be counted.
 */
import { describe, expect, test } from 'vitest'
import { eventLoopBusySince, RequestSlots } from '../../lib/http/request-slots.ts'

describe("the event loop's busy share, counted only while other runs share the process", () => {
  const busyFor = (ms: number) => {
    const until = performance.now() + ms
    while (performance.now() < until) {
      // the event loop is busy: what a fleet's other runs do to it
    }
  }

  test('a client alone: its own busy start (building requests, compiling its code) holds back no wave', async () => {
    const slots = new RequestSlots(20)
    const release = await slots.acquire('other', new AbortController().signal) // this client is at work
    const busy = eventLoopBusySince()
    busyFor(20)
    expect(busy()).toBe(0)
    release()
  })

  test('two clients at work (a fleet): the share the loop was busy', async () => {
    const [a, b] = [new RequestSlots(20), new RequestSlots(20)]
    const releases = await Promise.all([a, b].map((slots) => slots.acquire('other', new AbortController().signal)))
    const busy = eventLoopBusySince()
    busyFor(20)
    expect(busy()).toBeGreaterThan(0.5)
    releases.forEach((release) => release())
    // both idle again: a client alone from then on
    await new Promise((resolve) => setImmediate(resolve))
    const after = eventLoopBusySince()
    busyFor(5)
    expect(after()).toBe(0)
  })
})
