/**
 * A server that serves one connection at a time (lib/http/one-connection-at-a-time.ts): how the
 * client tells it, how it tells a handshake the server dropped (lib/http/handshakes.ts), and a run
 * against Python's http.server as a Python team would use it, which failed 10 of 20 rules on
 * timeouts before (its backlog of 5 dropped the handshakes of the connections the slots opened
 * while it read an idle one) and passes now.
 */
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import type { Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { Handshakes } from '../../lib/http/handshakes.ts'
import { ConnectionTurns, OVERTAKEN, WAIT_MS, WAIT_TIMES_TYPICAL } from '../../lib/http/one-connection-at-a-time.ts'
import { CLOSING_SLOTS } from '../../lib/http/request-slots.ts'
import { runConform, runConformInProcess } from '../helpers/run-conform.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'

describe('ConnectionTurns', () => {
  it(`tells a server that answered ${OVERTAKEN} later requests while the oldest waited ${WAIT_MS} ms`, () => {
    const turns = new ConnectionTurns()
    const oldest = turns.wrote(0)
    turns.wrote(1) // one on another connection, left unread too
    for (let i = 0; i < OVERTAKEN; i++) turns.ended(turns.wrote(10 + i), true, 12 + i)
    expect(turns.oneAtATime(WAIT_MS - 1)).toBe(false) // not waited long enough
    expect(turns.oneAtATime(WAIT_MS)).toBe(true)
    turns.ended(oldest, true, WAIT_MS)
    expect(turns.oneAtATime(WAIT_MS)).toBe(false) // nothing unanswered
  })

  it('takes failed requests for no answer, and a slow request overtaken by too few for one at a time', () => {
    const turns = new ConnectionTurns()
    turns.wrote(0)
    turns.wrote(1) // one on another connection, left unread too
    for (let i = 0; i < OVERTAKEN; i++) turns.ended(turns.wrote(10 + i), i > 0, 12 + i)
    expect(turns.oneAtATime(5 * WAIT_MS)).toBe(false)
    turns.ended(turns.wrote(40), true, 42)
    expect(turns.oneAtATime(5 * WAIT_MS)).toBe(true)
  })

  it('counts only the answers of requests written after the oldest: a slow server answering in waves is not one at a time', () => {
    const turns = new ConnectionTurns()
    const before = Array.from({ length: 40 }, (_, i) => turns.wrote(i))
    const oldest = turns.wrote(50)
    for (const [i, written] of before.entries()) turns.ended(written, true, 900 + i) // the first wave, answered while the oldest waits
    expect(turns.oneAtATime(5 * WAIT_MS)).toBe(false)
    turns.ended(oldest, true, 5 * WAIT_MS)
  })

  it(`waits ${WAIT_TIMES_TYPICAL} times as long as answers take, when that is longer than ${WAIT_MS} ms`, () => {
    const turns = new ConnectionTurns()
    const oldest = turns.wrote(0)
    turns.wrote(1) // one on another connection, left unread too
    for (let i = 0; i < OVERTAKEN; i++) turns.ended(turns.wrote(10 + i), true, 10 + i + 1_100) // each answer takes 1.1 s
    expect(turns.oneAtATime(WAIT_TIMES_TYPICAL * 1_100 - 1)).toBe(false)
    expect(turns.oneAtATime(WAIT_TIMES_TYPICAL * 1_100 + 1)).toBe(true)
    expect(oldest.ended).toBe(false)
  })

  it('a slow operation is not one connection at a time: its later requests answered no faster than the oldest, the others at once', () => {
    const turns = new ConnectionTurns()
    turns.wrote(0, 'GET /categories')
    turns.wrote(1, 'GET /categories without the key') // one on another connection, left unread too
    for (let i = 0; i < OVERTAKEN; i++) turns.ended(turns.wrote(10 + i, 'POST /categories'), true, 12 + i) // the creates, at once
    turns.ended(turns.wrote(40, 'GET /categories'), true, 1_540) // a later list, as slow
    expect(turns.oneAtATime(1_600)).toBe(false)
    expect(turns.nextLookIn(1_600)).toBe(4 * 1_500 - 1_600) // when a list that quick would tell
    expect(turns.oneAtATime(4 * 1_500)).toBe(true) // waited four times as long as its own operation takes: unread
  })

  it('a later request of its operation answered at once tells one connection at a time', () => {
    const turns = new ConnectionTurns()
    turns.wrote(0, 'GET /categories')
    turns.wrote(1, 'GET /categories without the key') // one on another connection, left unread too
    for (let i = 0; i < OVERTAKEN; i++) turns.ended(turns.wrote(10 + i, 'POST /categories'), true, 12 + i)
    expect(turns.oneAtATime(WAIT_MS)).toBe(false) // only creates overtook it
    turns.ended(turns.wrote(WAIT_MS, 'GET /categories'), true, WAIT_MS + 3)
    expect(turns.oneAtATime(WAIT_MS + 3)).toBe(true)
  })

  it('one slow request alone is not one connection at a time: the others, written beside it, were all answered', () => {
    // a create answered 2 s late while the service answered every other request at once, side by side: the run kept its 48 connections
    const turns = new ConnectionTurns()
    const slow = turns.wrote(0, 'POST /categories')
    for (let i = 0; i < 3 * OVERTAKEN; i++) turns.ended(turns.wrote(1 + i, 'POST /categories'), true, 3 + i)
    expect(turns.oneAtATime(2 * WAIT_MS)).toBe(false)
    turns.wrote(2 * WAIT_MS - 10, 'GET /categories') // one written just now, not left unread yet
    expect(turns.oneAtATime(2 * WAIT_MS)).toBe(false)
    turns.ended(slow, true, 2_000)
  })

  it('looks again when the oldest unanswered will have waited long enough, and not before nor after', () => {
    const turns = new ConnectionTurns()
    expect(turns.nextLookIn(0)).toBeUndefined()
    const first = turns.wrote(100)
    turns.wrote(300)
    expect(turns.nextLookIn(100)).toBe(WAIT_MS)
    turns.ended(first, true, 101)
    expect(turns.nextLookIn(400)).toBe(WAIT_MS - 100)
    expect(turns.nextLookIn(300 + WAIT_MS)).toBeUndefined() // only a further answer can tell more
  })
})

describe('Handshakes', () => {
  it('counts a handshake four times as long as the fastest (and past the floor) as one the server dropped', () => {
    let now = 0
    const handshakes = new Handshakes(10, () => now)
    const callbacks: ((error: Error | null, socket: Socket | null) => void)[] = []
    const connect = handshakes.timing((_options, callback) => void callbacks.push(callback as never))
    const made: unknown[] = []
    const open = () => connect({ hostname: 'h', host: 'h', protocol: 'http:', port: '1' }, (error, socket) => made.push(error ?? socket))
    open()
    now = 50
    expect(handshakes.stalled()).toBe(0) // none done yet: nothing to compare with
    callbacks[0]?.(null, {} as Socket)
    expect(made).toHaveLength(1) // the callback still gets the socket
    open()
    now = 50 + 4 * 50
    expect(handshakes.stalled()).toBe(0)
    now += 1
    expect(handshakes.stalled()).toBe(1)
    callbacks[1]?.(new Error('refused'), null)
    expect(handshakes.stalled()).toBe(0)
  })
})

const python = spawnSync('python3', ['--version']).status === 0

/** The Python server of single-threaded-server.py, started on a port of its own; stopped after the test. */
async function pythonServer(key: string, env: Record<string, string> = {}): Promise<string> {
  const server = spawn('python3', [join(import.meta.dirname, 'single-threaded-server.py')], { env: { ...process.env, ...env, SERVER_KEY: key }, stdio: ['ignore', 'pipe', 'inherit'] })
  stop = () => server.kill()
  return new Promise<string>((resolve, reject) => {
    server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
    server.once('exit', (code) => reject(new Error(`python3 exited ${code}`)))
  })
}
let stop: (() => void) | undefined

/**
 * How many requests were on the wire at once as nine in ten of a journal's requests were written.
 * Not the most: requests given a slot in the first waves, whose handshakes the full backlog
 * dropped, are written only as the kernel sends them again, seconds later.
 */
function onTheWireP90(journal: string): number {
  const onWire = new Set<string>()
  const seen: number[] = []
  for (const line of journal.split('\n').filter(Boolean)) {
    const { id, phase } = JSON.parse(line) as { id?: string; phase?: string }
    if (id === undefined) continue
    if (phase === 'on-wire') seen.push(onWire.add(id).size)
    else if (phase === 'ended') onWire.delete(id)
  }
  return seen.sort((a, b) => a - b)[Math.floor(seen.length * 0.9)] ?? 0
}

describe.skipIf(!python)("Python's http.server, one thread", () => {
  afterEach(() => stop?.())

  it('over HTTP/1.1, passes: the run goes on with one connection and says so, within the deadline', async () => {
    const key = 'py-single-threaded-key-0123'
    const port = await pythonServer(key)
    const run = await runConform(['--base-url', `http://127.0.0.1:${port}/v1`, '--deadline', '60000'], { env: { CONFORM_API_KEY: key }, killAfterMs: 80_000 })
    try {
      expect(run.stdout).toContain('the server served one connection at a time')
      expect(run.results?.verdict, run.stdout).toBe('pass')
      expect(run.code).toBe(0)
    } finally {
      run.cleanup()
    }
  }, 90_000)

  // a connection per request, taken from its backlog of 5 one at a time, 100 ms an answer: the
  // kernel's retries of the handshakes it dropped (1, 3, 7 s) can outlast --timeout (10 s). Those
  // requests never left and are sent again with fewer at once; without the resends, 4 rules failed
  // on TIMEOUT whenever a handshake was dropped so long (in about two runs of three here)
  it('over HTTP/1.0, 100 ms an answer, passes: requests whose connection was not taken in time are sent again, and it says so', async () => {
    const key = 'py-single-threaded-key-1010'
    const port = await pythonServer(key, { PROTOCOL: 'HTTP/1.0', DELAY: '0.1' })
    // run once more when only its P90 on the wire is past the slots: with two cores busy with the
    // rest of npm test it was 13 once (5 by itself, and in every other full run). Every run's verdict
    // is held to: a retry of the whole test would pass a conforming server failed in one run of two
    for (let attempt = 1; ; attempt++) {
      const run = await runConform(['--base-url', `http://127.0.0.1:${port}/v1`, '--deadline', '60000'], { env: { CONFORM_API_KEY: key }, killAfterMs: 80_000 })
      try {
        expect(run.results?.verdict, run.stdout).toBe('pass')
        expect(run.code).toBe(0)
        const resent = (run.files['journal.ndjson'] ?? '').split('\n').filter((line) => line.includes('"connectionNotTaken":'))
        if (resent.length > 0) expect(run.stdout).toContain('the server took no new connection within --timeout')
        // each answer closed its connection: five in flight from then on (request-slots.ts); before, up
        // to 48 (9 to 23 on the wire as nine in ten were written), and the backlog's dropped handshakes came back up to 13 s late
        const p90 = onTheWireP90(run.files['journal.ndjson'] ?? '')
        if (p90 > CLOSING_SLOTS && attempt < 2) continue
        expect(p90).toBeLessThanOrEqual(CLOSING_SLOTS)
        return
      } finally {
        run.cleanup()
      }
    }
  }, 170_000)
})

describe('servers that are slow, not one connection at a time: no such note', () => {
  const cases = [
    // a list computed slowly (1.5 s before its status line), the creates at once: the creates overtook the lists
    { name: 'lists answered 1.5 s late', start: () => startReferenceServer({ apiKey: 'slow-lists-key-0123', behaviour: { transport: { delayMs: 0, chunked: false, connectionClose: false, listDelayMs: 1_500 } } }), key: 'slow-lists-key-0123', args: [] as string[] },
    // a list whose body takes 2.5 s to come (a gateway's bandwidth limit): its status line came at once
    // a first create answered 2 s late, every other request at once: it read "served one connection at a time" and went on with one
    { name: 'a first create answered 2 s late', start: () => startCase(VARIANTS.find((v) => v.name === 'first-create-slow')!, { apiKey: 'first-slow-key-0123' }), key: 'first-slow-key-0123', args: [] as string[] },
    { name: 'lists whose bodies take 2.5 s to come', start: () => startCase(VARIANTS.find((v) => v.name === 'answers-at-a-bandwidth-limit')!, { apiKey: 'bandwidth-key-0123' }), key: 'bandwidth-key-0123', args: VARIANTS.find((v) => v.name === 'answers-at-a-bandwidth-limit')!.args ?? [] },
  ]
  it.each(cases)('$name: passes, and the run kept its connections', async ({ start, key, args }) => {
    const server = await start()
    const run = await runConformInProcess(['--base-url', server.baseUrl, ...args], { env: { CONFORM_API_KEY: key } })
    try {
      expect(run.code, run.stdout).toBe(0)
      expect(run.results?.observed?.oneConnectionAtATime).toBeUndefined()
      expect(run.stdout).not.toContain('one connection at a time')
    } finally {
      run.cleanup()
      await server.close()
    }
  }, 60_000)
})

describe('the observed note on connections', () => {
  it('says one connection at a time, the refused connections, or both', async () => {
    const { connectionLimitNote } = await import('../../lib/result/observed-behaviour.ts')
    const base = { lengths: {}, freedoms: {}, compression: {}, rateLimits: { answers: {}, retryAfter: [] }, wwwAuthenticate: [], mediaTypes: [] } as never as Parameters<typeof connectionLimitNote>[0]
    expect(connectionLimitNote(base)).toBeUndefined()
    const one = connectionLimitNote({ ...base, oneConnectionAtATime: { sent: 12 } })
    expect(one).toBe('Connections (a freedom, not a failure): the server served one connection at a time, and left requests written on the others unread meanwhile; the run went on with one connection, 12 requests on it (--concurrency 1 does so from the start)')
    const both = connectionLimitNote({ ...base, oneConnectionAtATime: { sent: 1 }, connectionLimit: { resent: 3, atMost: 6 } })
    expect(both).toMatch(/^Connections \(a limit is not shown, a freedom, not a failure\): the server closed fresh connections before any answer; 3 requests were sent again .* down to 6 at once .*; and the server served one connection at a time, .* 1 request on it/)
    const notTaken = connectionLimitNote({ ...base, connectionsNotTaken: { resent: 1, atMost: 12 } })
    expect(notTaken).toBe('Connections (a limit is not shown, a freedom, not a failure): the server took no new connection within --timeout while it served others (a full listen backlog), to requests that had not left yet; 1 request was sent again with fewer in flight, down to 12 at once (--concurrency 12 sends no more than that from the start)')
  })
})
