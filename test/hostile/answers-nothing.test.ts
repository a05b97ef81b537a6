/**
 * A port that closes every connection with no byte of an answer (lib/runner/tls-port.ts askAlone,
 * lib/result/speaks-tls.ts answersNothingProblem): a forwarder with nothing behind it, no service
 * whose rules can be judged. Before, each GET went eleven times on fresh connections: 2,054
 * requests at the port (85 POSTs), and a FAIL of 17 rules, each "no complete response"; after,
 * the first burst and a GET alone, again for 5 s (a forwarder cuts connections while the service
 * behind it starts: one that started within 1.5 s, then 4 s, passed after 364, then failed after
 * 939 cut connections; it passes now, after 10 and 14), and an INCOMPLETE run (exit 2) that says so.
 * And a port that takes TLS and plain HTTP both (Jetty's detect mode), whose first requests were
 * cut: a TLS handshake with it succeeds, but it answers a plain GET, so it is no TLS port (before,
 * the run was stopped as "speaks TLS").
 */
import { createServer as createHttpServer, request as httpRequest } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { afterAll, describe, expect, test } from 'vitest'
import type { JournalLine } from '../../lib/http/journal.ts'
import { StoppedAnswering } from '../../lib/runner/stopped-answering.ts'
import { endProblems, TlsPortWatch } from '../../lib/runner/tls-port.ts'
import { answersNothingProblem } from '../../lib/result/speaks-tls.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runConform, runConformInProcess } from '../helpers/run-conform.ts'
import { opensslMissing, resetsConnections, selfSignedCert } from './hostile-servers.ts'
import { closesAtOncePort, closesUnansweredPort, diesBehindForwarder, startsLatePort, tlsAndPlainPort, tlsPort, type CountingPort } from './other-protocols.ts'

const KEY = { CONFORM_API_KEY: 'answers-nothing-key-8d2e41f7' }
/** The first burst of connections (six, then six more while none answered), the GET alone, and room for a loaded machine. */
const FIRST_REQUESTS = 30
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe.concurrent('a port that closes every connection with no byte of an answer', { timeout: 120_000 }, () => {
  const starts: [string, () => Promise<{ baseUrl: string; close(): Promise<void> | void }>][] = [['closed as accepted', closesAtOncePort], ['closed once the request was read', closesUnansweredPort], ['reset (RST) once the request was read', resetsConnections]]
  for (const [name, start] of starts) {
    test(`${name}: exit 2 "answers nothing", at most ${FIRST_REQUESTS} requests (2,054 before), no rule failed`, async () => {
      const port = await start()
      closers.push(() => port.close())
      const run = await runConformInProcess(['--base-url', port.baseUrl], { env: KEY })
      closers.push(() => run.cleanup())
      expect(run.code, run.stdout).toBe(2)
      const host = new URL(port.baseUrl).host
      expect(run.results?.problems[0]?.kind).toBe('answers-nothing')
      expect(run.results?.problems[0]?.message).toMatch(new RegExp(`^${host} answers nothing: \\d+ requests had their connection closed with no byte of an answer, and a GET alone on a connection of its own too, for \\d+ s \\(the run sent no more: \\d+ requests not sent\\); nothing behind the port answers`))
      expect(run.stdout).toContain(`✗ ${host} answers nothing: `)
      expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 2)')
      expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
      const journal = run.results?.journal ?? []
      expect(journal.filter((e) => e.onWire).length).toBeLessThanOrEqual(FIRST_REQUESTS)
      if (typeof (port as Partial<CountingPort>).requests === 'function') expect((port as CountingPort).requests()).toBeLessThanOrEqual(FIRST_REQUESTS)
      expect(run.results?.summary.writesAgain ?? 0).toBe(0)
    })
  }
})

describe('a service that dies behind its forwarder during the run (docker-proxy keeps taking connections)', { timeout: 120_000 }, () => {
  test('exit 2 "answers nothing any more", no rule failed, far fewer requests (4,499 before, a FAIL of 16 rules)', async () => {
    const service = await startReferenceServer({ apiKey: KEY.CONFORM_API_KEY })
    closers.push(() => service.close())
    const port = await diesBehindForwarder(Number(new URL(service.baseUrl).port), 8)
    closers.push(() => port.close())
    const run = await runConformInProcess(['--base-url', port.baseUrl], { env: KEY })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(2)
    expect(run.results?.problems[0]?.kind).toBe('answers-nothing')
    expect(run.results?.problems[0]?.message).toMatch(/^127\.0\.0\.1:\d+ answers nothing any more during the run: after \d+ answers, \d+ requests had their connection closed with no byte of an answer, and a GET alone too, for 5 s/)
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
    expect((run.results?.journal ?? []).filter((e) => e.onWire).length).toBeLessThan(1_500)
  })
})

describe('a service whose list reads reset their connection once a record is stored, its keyless list too, and that answers every other request', { timeout: 120_000 }, () => {
  // valuehunt5: the GET alone the watch asks is a keyless list, which this service cuts as well; it
  // answered the POSTs and the other paths all along, so it is up, and its cut lists are its faults
  // (§4.1: a valid credential gets 200): INCOMPLETE (exit 2, "answers nothing any more") before
  test('FAIL: list-returns-200 fails with no response, and no "answers nothing"', async () => {
    const DROP = 'x-drop-this-answer'
    const service = await startReferenceServer({
      apiKey: KEY.CONFORM_API_KEY,
      behaviour: {
        finish: (reply, request, store) => {
          const list = request.operation === 'listCategories' && request.method === 'GET'
          return list && ((reply.status === 200 && store.length > 0) || request.authorization === undefined) ? { ...reply, headers: { ...reply.headers, [DROP]: '1' } } : reply
        },
        transport: { delayMs: 0, chunked: false, connectionClose: false, dropAnswer: (reply) => reply.headers?.[DROP] === '1' },
      },
    })
    closers.push(() => service.close())
    const run = await runConformInProcess(['--base-url', service.baseUrl], { env: KEY })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(1)
    expect((run.results?.problems ?? []).map((p) => p.kind)).not.toContain('answers-nothing')
    const list200 = run.results?.rules.find((r) => r.id === 'list-returns-200')
    expect(list200?.status).toBe('fail')
    expect(list200?.checks.filter((c) => c.status === 'fail').map((c) => c.failure?.code)).toContain('NO_RESPONSE')
  })
})

describe('a gateway that routes the categories to a service of their own, which dies during the run, and the pets to another', { timeout: 120_000 }, () => {
  // review47: the watch asked the pets, which the gateway still answered, and took the service for up (INCOMPLETE before valuehunt5):
  // a FAIL of 9 to 13 rules (2,505 requests, 92 % of them cut). A path that begins as the categories' goes where they go
  test('exit 2 "answers nothing any more", no rule failed', async () => {
    // two services: the categories' and the rest's
    const [service, rest] = [await startReferenceServer({ apiKey: KEY.CONFORM_API_KEY }), await startReferenceServer({ apiKey: KEY.CONFORM_API_KEY })]
    closers.push(() => service.close(), () => rest.close())
    let categories = 0
    let others = 0
    const gateway = createHttpServer((req, res) => {
      const ours = req.url!.startsWith('/v1/categories')
      if (!ours) others++
      // once the pets were asked, the categories' service dies: the gateway closes their connections, as a forwarder does
      else if (++categories > 60 && others > 0) return void req.socket.destroy()
      const port = Number(new URL((ours ? service : rest).baseUrl).port)
      const forwarded = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (answer) => (res.writeHead(answer.statusCode!, answer.headers), answer.pipe(res)))
      forwarded.on('error', () => req.socket.destroy())
      req.pipe(forwarded)
    })
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => gateway.close(resolve)))
    const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`], { env: KEY })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(2)
    expect(run.results?.problems[0]?.kind).toBe('answers-nothing')
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual([])
  })
})

// hostile11: the GETs alone (and the handshake) open their own sockets, never through a proxy. Right:
// they are asked over http:// only, and a run never sends a request for an http:// URL through a
// proxy (lib/runner/preflight.ts proxyFor: the proxy would read the key in clear), so they take the
// path the run's requests take. A proxy in the environment sees no connection, and the verdicts are
// those of a run without it.
describe('behind HTTP_PROXY and HTTPS_PROXY, an http:// port that answers nothing: the GETs alone go as the run\'s requests do, direct', { timeout: 120_000 }, () => {
  const proxied = async () => {
    let connections = 0
    const proxy = createNetServer((socket) => (connections++, socket.destroy()))
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve))
    closers.push(() => new Promise((resolve) => proxy.close(resolve)))
    const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`
    return { env: { ...KEY, HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url }, connections: () => connections }
  }
  test('from the first requests (tls-port.ts): "answers nothing", the proxy never asked', async () => {
    const { env, connections } = await proxied()
    const port = await closesUnansweredPort()
    closers.push(() => port.close())
    const run = await runConformInProcess(['--base-url', port.baseUrl], { env })
    closers.push(() => run.cleanup())
    expect(run.results?.problems[0]?.message, run.stdout).toMatch(/answers nothing: \d+ requests had their connection closed with no byte of an answer, and a GET alone on a connection of its own too/)
    expect(connections()).toBe(0)
  })
  test('during the run (stopped-answering.ts): "answers nothing any more", the proxy never asked', async () => {
    const { env, connections } = await proxied()
    const service = await startReferenceServer({ apiKey: KEY.CONFORM_API_KEY })
    closers.push(() => service.close())
    const port = await diesBehindForwarder(Number(new URL(service.baseUrl).port), 8)
    closers.push(() => port.close())
    const run = await runConformInProcess(['--base-url', port.baseUrl], { env })
    closers.push(() => run.cleanup())
    expect(run.results?.problems[0]?.message, run.stdout).toMatch(/answers nothing any more during the run: after \d+ answers?, \d+ requests had their connection closed with no byte of an answer, and a GET alone too/)
    expect(connections()).toBe(0)
  })
})

// Ctrl-C, or a CI job cancelled (SIGTERM), as the GETs alone go: they went on for their 5 s, the
// run's reports waited for them, and the 3 s a stopping run is given ran out first: exit 130, no report
describe('a port that closes every connection, the run interrupted as it is asked', { timeout: 60_000 }, () => {
  test('SIGINT at the first GET alone: the asking ends with the run, the reports are written, exit 130', async () => {
    let alone = () => {}
    const asked = new Promise<void>((resolve) => (alone = resolve))
    const port = await closesUnansweredPort(() => alone())
    closers.push(() => port.close())
    const run = await runConform(['--base-url', port.baseUrl], { env: KEY, interrupt: { signal: 'SIGINT', when: asked } })
    closers.push(() => run.cleanup())
    expect(run.code, run.stdout).toBe(130)
    expect(Object.keys(run.files)).toContain('report.html')
    expect(run.results?.problems[0]?.kind).toBe('interrupted')
    // a GET alone at first, and none once the run was interrupted
    expect(port.requests()).toBeLessThanOrEqual(FIRST_REQUESTS)
  })
})

test('the deadline came as the port was found to answer nothing: both told, so its cut requests fail no rule', () => {
  const deadline = { kind: 'deadline' as const, message: 'the run did not finish within 5000 ms (--deadline)' }
  const port = answersNothingProblem('http://127.0.0.1:1/v1', 6, 4)
  expect(endProblems(deadline, port).map((p) => p.kind)).toEqual(['deadline', 'answers-nothing'])
  expect(endProblems(undefined, port)).toEqual([port])
  expect(endProblems(deadline, undefined)).toEqual([deadline])
})

/** The journal's lines of `n` requests that reached the port and were cut with no byte of an answer. */
const cut = (n: number, from = 0): JournalLine[] =>
  Array.from({ length: n }, (_, i) => [
    { id: String(from + i), phase: 'on-wire', at: '', method: 'GET', url: 'http://x/v1/categories' } as const,
    { id: String(from + i), phase: 'ended', at: '', method: 'GET', url: 'http://x/v1/categories', error: 'CONNECTION_RESET' } as const,
  ]).flat()

async function watchOf(port: CountingPort, lines: JournalLine[], later?: (watch: TlsPortWatch) => void) {
  closers.push(() => port.close())
  const watch = new TlsPortWatch(port.baseUrl, () => 30_000)
  for (const line of lines) watch.append(line)
  later?.(watch)
  return { watch, problem: await watch.ended() }
}

describe('what the watch asks before it stops the run', () => {
  test('every request cut, and a GET alone too, for 5 s: stopped, "answers nothing"', async () => {
    const port = await closesUnansweredPort()
    const { watch, problem } = await watchOf(port, cut(3))
    expect(watch.wrongPort.aborted).toBe(true)
    expect(problem?.kind).toBe('answers-nothing')
    expect(problem?.message).toContain('for 5 s')
    // a GET alone every half second: about ten
    expect(port.requests()).toBeGreaterThan(5)
    expect(port.requests()).toBeLessThanOrEqual(11)
  }, 20_000)

  test('a forwarder whose service starts 1.5 s later: a GET alone is answered then, and the run goes on', async () => {
    const port = await startsLatePort(1_500)
    const { watch, problem } = await watchOf(port, cut(3))
    expect(watch.wrongPort.aborted).toBe(false)
    expect(problem).toBeUndefined()
  }, 20_000)

  test('a request still in flight, answered while the watch waits (a server of one connection at a time, its first answer late): not stopped', async () => {
    const port = await closesUnansweredPort()
    const { watch, problem } = await watchOf(port, [{ id: 'slow', phase: 'on-wire', at: '', method: 'GET', url: 'http://x/v1/categories' }, ...cut(3)], (w) =>
      setTimeout(() => w.append({ id: 'slow', phase: 'ended', at: '', method: 'GET', url: 'http://x/v1/categories', status: 200 }), 300),
    )
    expect(watch.wrongPort.aborted).toBe(false)
    expect(problem).toBeUndefined()
    // the GET alone was never sent: the request in flight was answered first
    expect(port.requests()).toBe(0)
  })
})

describe.skipIf(opensslMissing() !== undefined)('a port that takes TLS and plain HTTP both (Jetty detect mode)', { timeout: 30_000 }, () => {
  test('its first requests cut, a handshake succeeds, a plain GET is answered: not "speaks TLS", nothing stopped', async () => {
    const cert = selfSignedCert()
    closers.push(() => cert.cleanup())
    const { watch, problem } = await watchOf(await tlsAndPlainPort(cert, 200), cut(3))
    expect(watch.speaksTls).toBe(false)
    expect(watch.wrongPort.aborted).toBe(false)
    expect(problem).toBeUndefined()
  })

  test('a port of TLS only: still "speaks TLS" (its plain GET is cut)', async () => {
    const cert = selfSignedCert()
    closers.push(() => cert.cleanup())
    const { watch, problem } = await watchOf(await tlsPort(cert), cut(3))
    expect(watch.speaksTls).toBe(true)
    expect(problem?.kind).toBe('speaks-tls')
  })
})

describe('the watch of a port that stops answering (stopped-answering.ts)', () => {
  const answered = (id: string): JournalLine[] => [
    { id, phase: 'on-wire', at: '', method: 'GET', url: 'http://x/v1/categories' },
    { id, phase: 'ended', at: '', method: 'GET', url: 'http://x/v1/categories', status: 200 },
  ]

  test('the keep-alive race loses a burst at once: twenty cut within a moment ask nothing', async () => {
    const port = await closesUnansweredPort()
    closers.push(() => port.close())
    const watch = new StoppedAnswering(port.baseUrl, () => 30_000)
    for (const line of [...answered('a'), ...cut(20)]) watch.append(line)
    expect(watch.asking).toBeUndefined()
    expect(await watch.ended()).toBeUndefined()
    expect(port.requests()).toBe(0)
  })

  test('cuts that go on for a second, before any answer too (the first watch left it, its requests in flight not ended in time): asked, and stopped', async () => {
    const port = await closesUnansweredPort()
    closers.push(() => port.close())
    const watch = new StoppedAnswering(port.baseUrl, () => 30_000)
    for (const line of cut(5)) watch.append(line)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    for (const line of cut(1, 5)) watch.append(line)
    expect(watch.asking).toBeDefined()
    const problem = await watch.ended()
    expect(watch.stopped.aborted).toBe(true)
    expect(problem?.kind).toBe('answers-nothing')
    expect(problem?.message).toMatch(/^127\.0\.0\.1:\d+ answers nothing: 6 requests had their connection closed with no byte of an answer/)
  }, 20_000)

  test('after answers: the first request cut is named, with its id in the journal (a request that crashed the service is among the first)', async () => {
    const port = await closesUnansweredPort()
    closers.push(() => port.close())
    const watch = new StoppedAnswering(port.baseUrl, () => 30_000)
    const post = (phase: 'on-wire' | 'ended'): JournalLine => ({ id: 'crash', phase, at: '', method: 'POST', url: 'http://x/v1/categories', ...(phase === 'ended' ? { error: 'CONNECTION_RESET' as const } : {}) })
    for (const line of [...answered('a'), post('on-wire'), post('ended'), ...cut(4)]) watch.append(line)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    for (const line of cut(1, 4)) watch.append(line)
    const problem = await watch.ended()
    expect(problem?.message).toMatch(/^127\.0\.0\.1:\d+ answers nothing any more during the run: after 1 answer, 6 requests/)
    expect(problem?.message).toContain('the first cut: POST /v1/categories, crash in journal.ndjson')
  }, 20_000)

  test('the run ends (its deadline, Ctrl-C) as the GETs alone go: the asking ends with it, nothing concluded', async () => {
    const port = await closesUnansweredPort()
    closers.push(() => port.close())
    let left = 30_000
    const watch = new StoppedAnswering(port.baseUrl, () => left)
    for (const line of cut(5)) watch.append(line)
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    for (const line of cut(1, 5)) watch.append(line)
    expect(watch.asking).toBeDefined()
    setTimeout(() => (left = 0), 700)
    const from = performance.now()
    expect(await watch.ended()).toBeUndefined()
    // it went on for its 5 s, and the run's reports waited for it
    expect(performance.now() - from).toBeLessThan(2_000)
    expect(watch.stopped.aborted).toBe(false)
  }, 20_000)
})

