/**
 * Freedoms found by the audit of 2026-11-21: servers that conform to spec/interface.md (some by a
 * reading the lead must confirm, said in each description) and that the suite failed (exit 1) when
 * they were written. Not wired into VARIANTS: the lead adds them once the suite passes them.
 */
import { conformingBehaviour } from '../reference-server.ts'
import { errorReply, type Variant } from '../server-cases.ts'

/** Blocks the event loop without using the CPU: the server answers one request at a time. */
const sleepBlocking = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

const SERIAL_MS = 300
const RATE_LIMIT = 20
const LAG_MS = 300

/** Per server (keyed by its store, so cases run side by side do not share it): requests answered in the last second. */
const answeredAt = new WeakMap<object, number[]>()
/** Per server: when each created record was written, for the lagging list. */
const writtenAt = new WeakMap<object, Map<bigint, number>>()
const perServer = <T>(table: WeakMap<object, T>, store: object, make: () => T): T => {
  let value = table.get(store)
  if (value === undefined) table.set(store, (value = make()))
  return value
}

const holdsNul = (body: unknown) =>
  body !== null && typeof body === 'object' && Object.values(body as object).some((v) => typeof v === 'string' && v.includes('\u0000'))

export const AUDIT_VARIANTS: readonly Variant[] = [
  {
    name: 'one-request-at-a-time',
    description:
      `one worker answers one request at a time, ${SERIAL_MS} ms each (gunicorn's default: one sync worker): each answer is slow but correct, ` +
      'the queue is the one the suite builds by sending its requests at once, so the last wait longer than --timeout (slow answers are a freedom). A run takes about 25 s',
    behaviour: {
      finish: (reply) => {
        sleepBlocking(SERIAL_MS)
        return reply
      },
    },
  },
  {
    name: 'rate-limited-429',
    description: `more than ${RATE_LIMIT} requests in a second are answered 429 with Retry-After: 1 and nothing is stored (rate limits are not shown, §8)`,
    behaviour: {
      finish: (reply, request, store) => {
        const now = Date.now()
        const recent = perServer(answeredAt, store, () => [])
        while (recent.length > 0 && now - recent[0] >= 1000) recent.shift()
        recent.push(now)
        if (recent.length <= RATE_LIMIT) return reply
        if (request.operation === 'createCategory' && reply.status === 201) {
          const id = (reply.body as { id: bigint }).id
          store.splice(store.findIndex((r) => r.id === id), 1)
        }
        return errorReply(429, 'rate_limited', 'Too many requests; retry later.', { 'retry-after': '1' })
      },
    },
  },
  {
    name: 'refuses-nul-with-400',
    description:
      'a string holding U+0000 is refused with 400 and an Error record, as a PostgreSQL-backed service must (text cannot hold NUL). ' +
      'CONTESTED: conforms if "contains an invalid value" (§4.2 rule 1) may cover characters a store cannot hold, as the suite already grants for empty names',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? (holdsNul(body) ? 'invalid byte sequence for encoding "UTF8": 0x00' : null),
    },
  },
  {
    name: 'list-lags-behind-writes',
    description:
      `the list is read from a replica (or a search index) that shows a category ${LAG_MS} ms after it was created. ` +
      'CONTESTED: conforms if "all categories available" (§4.1) allows eventual consistency; a suite that re-reads the list for a few seconds passes it',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201) perServer(writtenAt, store, () => new Map()).set((reply.body as { id: bigint }).id, Date.now())
        return reply
      },
      listBody: (store) => {
        const written = perServer(writtenAt, store, () => new Map<bigint, number>())
        return store.filter((r) => Date.now() - (written.get(r.id) ?? 0) >= LAG_MS)
      },
    },
  },
  {
    name: 'deprecated-pet-gone-after-sunset',
    description:
      'GET /pets/{petId} answers 410 Gone in text/plain to everyone: its sunset date (whose value is not shown, §9.4) has passed and the operation is removed. ' +
      'CONTESTED: the suite demands 401 there without a key',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'getPet' ? { status: 410, headers: { 'content-type': 'text/plain; charset=utf-8', sunset: 'Wed, 01 Jan 2025 00:00:00 GMT' }, body: 'Gone' } : reply,
    },
  },
]
