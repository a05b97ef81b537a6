/**
 * journal.ndjson as the run goes (lib/runner/journal-file.ts): lines are held and written in
 * batches, but a request's dispatched line is in the file before the request reaches the server,
 * so that a process killed at any moment leaves a line for every request that may have arrived.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { parseJournalLines, RunJournal } from '../../lib/http/journal.ts'
import { openJournalFile } from '../../lib/runner/journal-file.ts'
import { closedAfterwards, serve, withClient } from '../http/client-harness.ts'

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))
const journalPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'conform-journal-'))
  dirs.push(dir)
  return join(dir, 'journal.ndjson')
}
const linesIn = (path: string) => parseJournalLines(readFileSync(path, 'utf8'))

test('every request the server receives has its dispatched line in the file already, though lines are written in batches', async () => {
  const path = journalPath()
  const file = openJournalFile(path, (text) => text)
  // the client says when a request is about to be handed to undici; the file writes what it holds then
  let handedOver = 0
  const sink = { append: (line: Parameters<typeof file.append>[0]) => file.append(line), beforeSend: () => (handedOver++, file.beforeSend()) }
  let received = 0
  const shortOfLines: number[] = []
  const server = closedAfterwards(
    await serve((_req, res) => {
      received++
      // read when the request arrives: its line, and those of every request before it, are there
      const dispatched = linesIn(path).filter((l) => l.phase === 'dispatched').length
      if (dispatched < received || handedOver < received) shortOfLines.push(received)
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]')
    }),
  )
  await withClient({ baseUrl: server.baseUrl, journal: new RunJournal(sink), concurrency: 4 }, (client) =>
    Promise.all(Array.from({ length: 40 }, () => client.send({ method: 'GET', path: '/categories' }))),
  )
  file.close()
  expect(received).toBe(40)
  expect(shortOfLines).toEqual([])
  expect(handedOver).toBe(40)
  expect(linesIn(path).filter((l) => l.phase === 'ended')).toHaveLength(40)
})

test('held until a request is about to go, or the turn of the event loop ends: not one write per line', async () => {
  const path = journalPath()
  const file = openJournalFile(path, (text) => text)
  const line = (id: string) => ({ id, phase: 'dispatched' as const, at: '2026-01-01T00:00:00.000Z', method: 'GET', url: 'http://127.0.0.1/v1/categories' })
  file.append(line('a'))
  file.append(line('b'))
  expect(linesIn(path)).toEqual([])
  file.beforeSend()
  expect(linesIn(path).map((l) => l.id)).toEqual(['a', 'b'])
  file.append({ ...line('a'), phase: 'on-wire' })
  file.beforeSend() // no dispatched line held: nothing a request waits for
  expect(linesIn(path)).toHaveLength(2)
  await new Promise((resolve) => setImmediate(resolve))
  expect(linesIn(path)).toHaveLength(3)
  file.close()
})
