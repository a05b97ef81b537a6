/**
 * lib/runner/not-found-first.ts on its own: when the run's POSTs wait for the first GETs' answers,
 * and when a path that serves nothing stops the run's sending before any POST.
 */
import { expect, test } from 'vitest'
import type { Exchange } from '../../lib/http/exchange.ts'
import type { JournalLine } from '../../lib/http/journal.ts'
import { KEY_AUTHORIZATION } from '../../lib/http/redact.ts'
import { NotFoundFirst } from '../../lib/runner/not-found-first.ts'

const BASE = 'http://127.0.0.1:9/api/v1'
const lines: JournalLine[] = []
const journal = { record: (line: JournalLine) => void lines.push(line), beforeSend: () => undefined }

function get(watch: ReturnType<NotFoundFirst['listening']>, id: string, path: string, status: number | undefined, withKey = true): void {
  const url = `${BASE}${path}`
  watch.record({ id, method: 'GET', url, phase: 'dispatched', at: '' })
  const exchange = { id, request: { method: 'GET', url, headers: withKey ? { authorization: KEY_AUTHORIZATION } : {} }, sent: true, ...(status === undefined ? { error: { code: 'CONNECTION_RESET', message: 'reset' } } : { response: { status, headers: {}, body: '' } }) } as unknown as Exchange
  watch.record({ id, method: 'GET', url, phase: 'ended', at: '', ...(status !== undefined ? { status } : {}) })
  watch.exchangeEnded?.(exchange)
}

test('a POST with no GET under way goes at once (a --rule run of creates, its list after them): it waited the 2 s hold out', () => {
  const gate = new NotFoundFirst()
  gate.listening(journal)
  expect(gate.writesHeld()).toBeUndefined()
})

test('a POST waits while a GET is under way, and goes once the list answers 200', async () => {
  const gate = new NotFoundFirst()
  const watch = gate.listening(journal)
  watch.record({ id: 'g1', method: 'GET', url: `${BASE}/categories`, phase: 'dispatched', at: '' })
  const held = gate.writesHeld()
  expect(held).toBeInstanceOf(Promise)
  get(watch, 'g2', '/categories', 200)
  await held
  expect(gate.writesHeld()).toBeUndefined()
  expect(gate.stopped.aborted).toBe(false)
})

test('the list asked with the key answered 404, and one more GET: nothing more is sent, no POST', async () => {
  const gate = new NotFoundFirst()
  const watch = gate.listening(journal)
  watch.record({ id: 'g0', method: 'GET', url: `${BASE}/pets/1`, phase: 'dispatched', at: '' })
  const held = gate.writesHeld()
  get(watch, 'g1', '/categories', 401, false)
  get(watch, 'g2', '/categories', 404)
  expect(gate.stopped.aborted).toBe(false)
  get(watch, 'g3', '/categories', 404)
  await held
  expect(gate.stopped.aborted).toBe(true)
  expect((gate.stopped.reason as Error).message).toMatch(/^nothing is served at this base URL: the list, asked with the key, was answered 404/)
})

test('404s without the key only (a service that hides itself from strangers), or a list refused to the key: the POSTs go, nothing stopped', () => {
  const hiding = new NotFoundFirst()
  const watch = hiding.listening(journal)
  watch.record({ id: 'h0', method: 'GET', url: `${BASE}/categories`, phase: 'dispatched', at: '' })
  hiding.writesHeld()
  for (const id of ['h1', 'h2', 'h3']) get(watch, id, '/categories', 404, false)
  get(watch, 'h4', '/categories', 200)
  expect(hiding.stopped.aborted).toBe(false)
  const refused = new NotFoundFirst()
  const other = refused.listening(journal)
  other.record({ id: 'r0', method: 'GET', url: `${BASE}/categories`, phase: 'dispatched', at: '' })
  refused.writesHeld()
  get(other, 'r1', '/categories', 401)
  expect(refused.writesHeld()).toBeUndefined()
  expect(refused.stopped.aborted).toBe(false)
})
