/**
 * A Rack service under Puma 5.6 (Ruby 3.1, json 2.6), as measured on 2026-11-27 (docs/adoption.md):
 * what its defaults do that the document does not allow, where the finding once named another
 * stack's default.
 */
import { conformingBehaviour, type StoredCategory } from '../reference-server.ts'
import { errorReply, isPlainObject, type Mutation } from '../server-cases.ts'
import { depthOf } from './poison.ts'

/** Ruby's JSON.parse refuses a value nested deeper than this (its max_nesting option). */
const RUBY_MAX_NESTING = 100

/** 2^53 + 1: the first id of each worker, no double (a JavaScript number cannot hold it). */
const FIRST_ID = 2n ** 53n + 1n

/** Per server: the records and the turn of the second worker (the first keeps the server's store). */
const secondWorker = new WeakMap<StoredCategory[], { store: StoredCategory[]; turn: number }>()

export const PUMA_MUTATIONS: readonly Mutation[] = [
  {
    name: 'nesting-limit-error-unhandled',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      "the body is parsed with Ruby's JSON.parse, whose max_nesting of 100 raises JSON::NestingError for a deeper value, which the handler lets through (it rescues nothing, or a " +
      "class of its own): Puma answers its development page, the error's text in text/plain, 500",
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201 || !isPlainObject(request.body) || depthOf(request.body) <= RUBY_MAX_NESTING) return reply
        store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return {
          status: 500,
          headers: { 'content-type': '' },
          body: `Puma caught this error: nesting of ${RUBY_MAX_NESTING + 1} is too deep (JSON::NestingError)\n/usr/lib/ruby/3.1.0/json/common.rb:216:in \`parse'\n`,
        }
      },
    },
  },
  {
    name: 'bare-key-taken-orders-unrouted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "the token is read as header.sub(/\\ABearer /, ''), which gives back the bare key too, before the route is looked up; the service routes no GET /store/orders, " +
      'which it answers 404 once the key is taken (401 to a request without one)',
    behaviour: {
      authorize: (authorization, key, op) => authorization === key || conformingBehaviour.authorize(authorization, key, op),
      finish: (reply, request) => (request.operation === 'listStoreOrders' && reply.status === 200 ? errorReply(404, 'not_found', 'no such resource') : reply),
    },
  },
  {
    name: 'workers-with-stores-of-their-own',
    breaks: 'ids-unique',
    code: 'DUPLICATE_ID',
    // created-in-list with it in one run of a busy matrix, not in the next (review44)
    alsoFailsVarying: 'whether the list after the creates goes to the worker that lacks some of them, which depends on the turns the run\'s requests took',
    description:
      'an in-memory store under two worker processes (puma -w 2): each request goes to one worker in turn, which keeps its own records and counts its own ids from 2^53 + 1, ' +
      'so two creates get one id and each list shows one worker\'s records',
    behaviour: {
      nextId: (store) => (store.length === 0 ? FIRST_ID : store[store.length - 1].id + 1n),
      finish: (reply, request, store) => {
        const worker = secondWorker.get(store) ?? { store: [], turn: 0 }
        secondWorker.set(store, worker)
        if (request.operation === undefined || worker.turn++ % 2 === 0) return reply
        if (request.operation === 'listCategories' && reply.status === 200) return { ...reply, body: worker.store }
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const record = reply.body as StoredCategory
        store.splice(store.indexOf(record), 1)
        const own = { ...record, id: worker.store.length === 0 ? FIRST_ID : worker.store[worker.store.length - 1].id + 1n }
        worker.store.push(own)
        return { ...reply, body: own }
      },
    },
  },
]
