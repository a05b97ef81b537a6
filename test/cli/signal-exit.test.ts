/**
 * SIGINT and SIGTERM: the first stops the run and promises reports; a second, or reports not
 * written within 3 s, exits at once. That exit said nothing: a fleet's folders then held only
 * their journals, no fleet page, after a line that had said "the reports will say what ran". Now
 * each says the reports were not written, and where every request sent is listed. In process, with
 * the process's exit and timer given by the test.
 */
import { describe, expect, test } from 'vitest'
import { REPORTS_WITHIN_MS, signalHandler } from '../../lib/cli/signal-exit.ts'

const EXITS = { SIGINT: 130, SIGTERM: 143 } as const
const WITHOUT = 'exiting now, without the reports; journal.ndjson in the report folder (in a fleet, in each deployment\'s) lists every request sent\n'

function harness() {
  const lines: string[] = []
  const exits: number[] = []
  const timers: { ms: number; then: () => void }[] = []
  const interrupt = new AbortController()
  const handler = signalHandler(interrupt, EXITS, { write: (line) => void lines.push(line), exit: (code) => void exits.push(code), later: (ms, then) => void timers.push({ ms, then }) })
  return { lines, exits, timers, interrupt, handler }
}

describe('the signals that stop a run', () => {
  test('the first stops the run and says a second exits without the reports; no exit yet', () => {
    const { lines, exits, timers, interrupt, handler } = harness()
    handler.onSignal('SIGINT')
    expect(interrupt.signal.reason).toBe('SIGINT')
    expect(lines).toEqual(['conform: SIGINT: stopping; the reports will say what ran (SIGINT again: exit at once, without them)\n'])
    expect(exits).toEqual([])
    expect(timers.map((t) => t.ms)).toEqual([REPORTS_WITHIN_MS])
  })

  test('a second exits at once with the signal\'s code, saying the reports were not written and where the journal is', () => {
    const { lines, exits, handler } = harness()
    handler.onSignal('SIGTERM')
    handler.onSignal('SIGTERM')
    expect(lines[1]).toBe(`conform: SIGTERM again: ${WITHOUT}`)
    expect(exits).toEqual([143])
    // Ctrl-C, then a kill: the second is named after the first, not "again"
    const mixed = harness()
    mixed.handler.onSignal('SIGINT')
    mixed.handler.onSignal('SIGTERM')
    expect(mixed.lines[1]).toBe(`conform: SIGTERM after SIGINT: ${WITHOUT}`)
    expect(mixed.exits).toEqual([143])
  })

  test('reports not written within 3 s: the exit says so; written in time, the timer exits without a word', () => {
    const late = harness()
    late.handler.onSignal('SIGINT')
    late.timers[0]!.then()
    expect(late.lines[1]).toBe(`conform: the reports were not written within 3 s of SIGINT: ${WITHOUT}`)
    expect(late.exits).toEqual([130])
    const written = harness()
    written.handler.onSignal('SIGINT')
    written.handler.finished()
    written.timers[0]!.then()
    expect(written.lines).toHaveLength(1)
    expect(written.exits).toEqual([130])
  })

  test('a signal once the reports are written exits without a word: not "without the reports" of reports there', () => {
    const again = harness()
    again.handler.onSignal('SIGINT')
    again.handler.finished()
    again.handler.onSignal('SIGINT')
    expect(again.lines).toHaveLength(1)
    expect(again.exits).toEqual([130])
    // a first signal after them: nothing to stop, no reports to promise
    const after = harness()
    after.handler.finished()
    after.handler.onSignal('SIGTERM')
    expect(after.lines).toEqual([])
    expect(after.exits).toEqual([143])
  })

  test('a signal the entry point held while the program loaded stops the run without a second line, its reports given the 3 s from then', () => {
    const held = harness()
    held.handler.caught('SIGTERM')
    expect(held.interrupt.signal.reason).toBe('SIGTERM')
    expect(held.lines).toEqual([])
    expect(held.timers.map((t) => t.ms)).toEqual([REPORTS_WITHIN_MS])
    // a second signal is a second: it exits at once
    held.handler.onSignal('SIGTERM')
    expect(held.lines).toEqual([`conform: SIGTERM again: ${WITHOUT}`])
    expect(held.exits).toEqual([143])
  })
})
