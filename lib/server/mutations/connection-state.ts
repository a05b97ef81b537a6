/**
 * Mutations of a service that keeps state per keep-alive connection where it must keep none: a
 * database session whose writes the other connections never see, and a key checked once for the
 * connection rather than on each request.
 */
import type { Behaviour, RequestInfo, StoredCategory } from '../reference-server.ts'
import { NEVER_LISTED, type Mutation } from '../server-cases.ts'

/** The Authorization header as sent, by its raw name and value pairs. */
const authorizationIn = (raw: readonly string[]): string | undefined => {
  for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'authorization') return raw[i + 1]
  return undefined
}

export const CONNECTION_STATE_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the list after the run's POSTs, read again for --list-lag: it comes on another connection than most creates
    name: 'creates-visible-on-their-connection-only',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: NEVER_LISTED,
    description:
      'each keep-alive connection gets a database session of its own, with autocommit off and no commit after an insert (a session per thread, PHP persistent connections): ' +
      'a create is answered 201 and its record is listed on the connection it came on, and on no other; the transaction is never committed',
    behaviour: (() => {
      const madeOn = new WeakMap<StoredCategory, object>()
      const visible = (request: RequestInfo) => (r: StoredCategory) => !madeOn.has(r) || madeOn.get(r) === request.connection
      return {
        finish: (reply, request) => {
          if (request.operation === 'createCategory' && reply.status === 201 && request.connection) madeOn.set(reply.body as StoredCategory, request.connection)
          if (request.operation !== 'listCategories' || reply.status !== 200 || !Array.isArray(reply.body)) return reply
          return { ...reply, body: (reply.body as StoredCategory[]).filter(visible(request)) }
        },
      } satisfies Partial<Behaviour>
    })(),
  },
  {
    // caught by the requests without a key that the run's pool sends on connections that carried the key (most of them, once the first were answered)
    name: 'key-remembered-for-the-connection',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "the gateway in front records a key it let through in a variable of the client's connection, not of the request (HAProxy's http-request set-var(sess.authorized), where txn. was meant), and lets in a request without an Authorization header when the variable is set: " +
      'on a keep-alive connection that carried the key, every later request without one is served; a fresh connection is refused',
    shownByVarying: 'which requests without a key the pool puts on a connection that carried the key',
    behaviour: (() => {
      const keyOf = new WeakMap<object, string>()
      return {
        authorizationOf: (raw, connection) => authorizationIn(raw) ?? keyOf.get(connection),
        finish: (reply, request) => {
          if (reply.status >= 200 && reply.status < 300 && request.connection && request.authorization !== undefined) keyOf.set(request.connection, request.authorization)
          return reply
        },
      } satisfies Partial<Behaviour>
    })(),
  },
]
