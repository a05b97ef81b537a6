/**
 * A connection the server does not take within --timeout: its listen backlog is full, so Linux
 * drops the handshake and the client's kernel would send it again only 1, 3 and 7 s later. The
 * request never left, so it is sent again (a POST too), with fewer at once (lib/http/client.ts,
 * transport-errors.ts connectionNotTaken). The server here is a child process that listens with
 * a backlog of one and does not accept for a while (its event loop blocked, as a single-threaded
 * server busy with another request is): the places in its backlog are taken by other
 * connections first, so the client's handshake is dropped until the server accepts again.
 */
import { spawn } from 'node:child_process'
import { connect } from 'node:net'
import { once } from 'node:events'
import { expect, onTestFinished, test } from 'vitest'
import { journalTotals, RunJournal } from '../../lib/http/journal.ts'
import { withClient } from './client-harness.ts'

/**
 * How long the server takes no connection, and the client's --timeout (several attempts fit in the
 * first). Long enough that a loaded machine, slow to fill the backlog, still sends the POST while
 * the server is busy (1.2 s left a loaded machine little margin for the fillers' 150 ms each).
 */
const BUSY_MS = 3_000
const TIMEOUT_MS = 300

const SERVER = `
const { createServer } = require('node:http')
const bodies = []
const server = createServer((req, res) => {
  let body = ''
  req.on('data', (c) => (body += c))
  req.on('end', () => {
    if (req.method === 'POST') bodies.push(body)
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
    res.end(req.method === 'POST' ? JSON.stringify({ id: bodies.length, name: 'x' }) : JSON.stringify({ posts: bodies.length }))
  })
})
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  process.stdout.write(String(server.address().port) + '\\n')
  process.stdin.once('data', () => {
    // busy: nothing is accepted while the event loop is blocked
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${BUSY_MS})
  })
})
`

async function busyServer(): Promise<{ baseUrl: string; startBusy: () => Promise<void> }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['pipe', 'pipe', 'inherit'] })
  onTestFinished(() => void child.kill())
  const [line] = (await once(child.stdout, 'data')) as [Buffer]
  const port = Number(line.toString().trim())
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    // the server turns busy, then other clients' connections take the places in its backlog: until one is not taken
    startBusy: async () => {
      child.stdin.write('go\n')
      await new Promise((resolve) => setTimeout(resolve, 100))
      for (let fillers = 0; fillers < 16; fillers++) {
        const filler = connect(port, '127.0.0.1')
        filler.on('error', () => undefined)
        onTestFinished(() => void filler.destroy())
        const taken = await Promise.race([once(filler, 'connect').then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 150))])
        if (!taken) return
      }
      throw new Error('the server took every connection: its backlog never filled')
    },
  }
}

test('a POST whose connection was not taken within --timeout is sent again once the server takes connections, and counted as one write', async () => {
  const server = await busyServer()
  const journal = new RunJournal()
  const result = await withClient({ baseUrl: server.baseUrl, concurrency: 2, timeoutMs: TIMEOUT_MS, journal }, async (client) => {
    await server.startBusy()
    return client.send({ method: 'POST', path: '/categories', body: '{"name":"nt-one"}' })
  })
  expect(result.exchange.response?.status, JSON.stringify(result.exchange.error)).toBe(201)
  const posts = journal.entries().filter((e) => e.method === 'POST')
  // the first attempt never left; a later one did, tagged with how many go at once from then on
  expect(posts[0]).toMatchObject({ attempt: 1, onWire: false })
  expect(posts.at(-1)).toMatchObject({ onWire: true, status: 201 })
  expect(posts.at(-1)?.connectionNotTaken).toBeGreaterThanOrEqual(1)
  expect(journalTotals(journal.entries())).toMatchObject({ writes: 1, resentWrites: 0, unansweredWrites: 0 })
  // the server stored it once
  const list = await withClient({ baseUrl: server.baseUrl, concurrency: 1, timeoutMs: 5_000 }, (client) => client.send({ method: 'GET', path: '/categories' }))
  expect(JSON.parse(list.text ?? '{}')).toEqual({ posts: 1 })
}, 20_000)
