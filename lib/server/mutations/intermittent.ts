/**
 * Intermittent faults: one replica behind a load balancer that answers wrongly to one request in N.
 * The service is broken (a client meets the fault one time in N), so the run fails; confirmation
 * (--confirm, lib/runner/confirmation.ts) probes again and says the failure is intermittent. The
 * faults count requests instead of drawing random numbers, so that the kill matrix is the same
 * from run to run: the retry of a probe that met the fault is a later request, which does not.
 */
import type { StoredCategory } from '../reference-server.ts'
import { errorReply, type Mutation } from '../server-cases.ts'

/** Per server (one store each): how many requests of a kind it has answered. */
const counters = new WeakMap<StoredCategory[], Map<string, number>>()
/** True for the Nth, 2Nth … request of `kind` this server answers. */
function oneIn(store: StoredCategory[], kind: string, n: number): boolean {
  const counts = counters.get(store) ?? new Map<string, number>()
  counters.set(store, counts)
  const count = (counts.get(kind) ?? 0) + 1
  counts.set(kind, count)
  return count % n === 0
}

const takeBack = (store: StoredCategory[], record: StoredCategory) => store.splice(store.indexOf(record), 1)

/** Per server: the ids of the records one replica keeps to itself (written there, never copied to the others). */
const keptByOne = new WeakMap<StoredCategory[], Set<bigint>>()

/** Per server: when it answered its latest requests, for a limiter's window of a second. */
const answeredAt = new WeakMap<StoredCategory[], number[]>()
/** True once more than `limit` requests came within the last second (the request counted either way). */
function overLimit(store: StoredCategory[], limit: number): boolean {
  const now = Date.now()
  const recent = (answeredAt.get(store) ?? []).filter((at) => now - at < 1000)
  recent.push(now)
  answeredAt.set(store, recent)
  return recent.length > limit
}

export const INTERMITTENT_MUTATIONS: readonly Mutation[] = [
  {
    name: 'limiter-answers-401',
    breaks: 'list-returns-200',
    code: 'UNEXPECTED_STATUS',
    description:
      'a rate limiter answers 401 where 429 is meant: past 5 requests in a second every request is refused, the valid key included, until the second has passed; no key was revoked',
    behaviour: {
      finish: (reply, _request, store) => (overLimit(store, 5) ? errorReply(401, 'unauthorized', 'Too many requests') : reply),
    },
  },
  {
    name: 'replica-500-on-one-create-in-5',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    recurrence: 'intermittent',
    description: 'one replica of five fails creates: every 5th valid create is answered 500 and not stored; the others are created',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201 || !oneIn(store, 'create', 5)) return reply
        takeBack(store, reply.body as StoredCategory)
        return errorReply(500, 'internal', 'upstream replica failed')
      },
    },
  },
  {
    name: 'replica-drops-description-on-one-create-in-3',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    recurrence: 'intermittent',
    description: 'one replica of three runs old code: every 3rd create with a description answers the record without it (the record is stored whole)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const { description, ...rest } = reply.body as StoredCategory
        if (description === undefined || !oneIn(store, 'described', 3)) return reply
        return { ...reply, body: rest }
      },
    },
  },
  {
    name: 'replica-without-auth-on-one-request-in-3',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    recurrence: 'intermittent',
    description:
      'one replica of three has authentication switched off: every 3rd list request without an Authorization header is served the list (a request with a cookie goes to the primary: the balancer pins sessions by cookie)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'listCategories' || reply.status !== 401 || request.authorization !== undefined || request.cookie !== undefined || !oneIn(store, 'anonymous-list', 3)) return reply
        return { status: 200, headers: {}, body: store }
      },
    },
  },
  {
    name: 'replica-keeps-every-4th-create',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    description:
      'one replica of four never replicates the records it creates (a lost write on the others): every 4th create is listed only by it, which answers every 4th list read; a re-read that reaches it shows every record',
    slow: 'the list is read again past --list-lag (5 s) in each of its 3 probes',
    behaviour: {
      finish: (reply, request, store) => {
        const kept = keptByOne.get(store) ?? new Set<bigint>()
        keptByOne.set(store, kept)
        if (request.operation === 'createCategory' && reply.status === 201 && oneIn(store, 'create-kept', 4)) kept.add((reply.body as StoredCategory).id)
        if (request.operation !== 'listCategories' || reply.status !== 200 || oneIn(store, 'list-on-keeper', 4)) return reply
        return { ...reply, body: store.filter((r) => !kept.has(r.id)) }
      },
    },
  },
]
