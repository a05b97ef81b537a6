/** Mutations of §5: every operation answers 401 without a valid bearer key, and a refused create takes no effect. */
import { randomBytes } from 'node:crypto'
import { conformingBehaviour, type Behaviour, type RequestInfo } from '../reference-server.ts'
import type { Reply } from '../reply-writer.ts'
import { errorReply, seedCategories, type Mutation } from '../server-cases.ts'

const BEARER = /^Bearer (\S+)$/

/** Authentication that compares a bearer token to the key in its own, too lenient, way. */
const tokenAccepted = (accepts: (token: string, key: string) => boolean): Pick<Behaviour, 'authorize'> => ({
  authorize: (authorization, key) => {
    const token = BEARER.exec(authorization ?? '')?.[1]
    return token !== undefined && accepts(token, key)
  },
})

/** A create route with a key check of its own, too lenient; every other operation checks the key as it should. */
const createRouteAccepts = (accepts: (token: string, key: string) => boolean): Pick<Behaviour, 'authorize'> => ({
  authorize: (authorization, key, op) => {
    if (op !== 'createCategory') return conformingBehaviour.authorize(authorization, key, op)
    const token = BEARER.exec(authorization ?? '')?.[1]
    return token !== undefined && accepts(token, key)
  },
})

/**
 * A session cookie named `name`, set on the answers to the key that `setsOn` picks, which lets a
 * later request in with no key (one set of sessions per mutation: the kill matrix starts one server each).
 */
function sessionCookieLetsIn(name: string, setsOn: (reply: Reply, request: RequestInfo) => boolean): Partial<Behaviour> {
  let theKey = ''
  const sessions = new Set<string>()
  const sent = new RegExp(`(?:^|;\\s*)${name}=([^;]+)`)
  return {
    authorize: (authorization, key, op, cookie) => {
      theKey = key
      const session = sent.exec(cookie ?? '')?.[1]
      return conformingBehaviour.authorize(authorization, key, op) || (session !== undefined && sessions.has(session))
    },
    finish: (reply, request) => {
      if (!setsOn(reply, request) || !conformingBehaviour.authorize(request.authorization, theKey, request.operation)) return reply
      const session = randomBytes(9).toString('base64url')
      sessions.add(session)
      return { ...reply, headers: { ...reply.headers, 'set-cookie': `${name}=${session}; Path=/; HttpOnly` } }
    },
  }
}

/** Letters, digits and the rest of a token reduced to their class: what a format check sees. */
const shapeOf = (token: string) => token.replace(/[0-9]/g, '9').replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A')

/** A filter that serves the list without a key to a caller whose address, as a header says it, is inside (127.x, 10.x). */
const internalCallersLetIn = (address: (request: RequestInfo) => string | undefined): Behaviour['finish'] => (reply, request, store) =>
  reply.status === 401 && request.operation === 'listCategories' && /^(127\.|10\.)/.test(address(request) ?? '') ? { status: 200, headers: {}, body: store } : reply

/** Authorization that is conforming except for one operation, which lets anyone in. */
const forgetsAuthOn = (operation: string): Behaviour['authorize'] => (authorization, key, op) =>
  op === operation || conformingBehaviour.authorize(authorization, key, op)

export const AUTHENTICATION_MUTATIONS: readonly Mutation[] = [
  // §5.3: a missing key is answered 401
  {
    name: 'missing-key-answers-403',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'a request without Authorization is answered 403 "Missing Authentication Token" (an API gateway)',
    behaviour: {
      finish: (reply, request) =>
        reply.status === 401 && request.authorization === undefined ? errorReply(403, 'forbidden', 'Missing Authentication Token') : reply,
    },
  },
  {
    name: 'token-compared-as-prefix',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'the token is compared as a prefix of the key, so an empty bearer token is let in',
    behaviour: {
      authorize: (authorization, key) => {
        const match = /^Bearer ?(.*)$/.exec(authorization ?? '')
        return match !== null && key.startsWith(match[1])
      },
    },
  },
  {
    name: 'get-pet-without-auth',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'GET /pets/{petId} forgets authentication: anyone, without a key, gets the pet (200)',
    behaviour: {
      authorize: forgetsAuthOn('getPet'),
      finish: (reply, request) => (request.operation === 'getPet' ? { status: 200, headers: reply.headers, body: { id: 1, name: 'Rex', status: 'available' } } : reply),
    },
  },
  {
    name: 'store-orders-without-auth',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'GET /store/orders forgets authentication (answers 200 to anyone)',
    behaviour: { authorize: forgetsAuthOn('listStoreOrders') },
  },

  // §5.2, §5.3: an invalid key, or the key not sent as a bearer token, is answered 401
  {
    name: 'any-bearer-token-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'any non-empty bearer token is accepted (the key is never compared)',
    behaviour: { authorize: (authorization) => BEARER.test(authorization ?? '') },
  },
  {
    name: 'key-checked-by-format-only',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      'authentication checks only the format of the token (its length and the class of each character, as a UUID or key-format regex does) and never looks the key up: ' +
      'any other key of the same shape is accepted',
    behaviour: tokenAccepted((token, key) => shapeOf(token) === shapeOf(key)),
  },
  {
    name: 'basic-scheme-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'the scheme is not checked: the key is accepted under Basic too',
    behaviour: { authorize: (authorization, key) => conformingBehaviour.authorize((authorization ?? '').replace(/^\S+ /, 'Bearer '), key, undefined) },
  },
  {
    name: 'bare-key-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'the key is accepted without any scheme (Authorization: <key>)',
    behaviour: {
      authorize: (authorization, key, op) => authorization === key || conformingBehaviour.authorize(authorization, key, op),
    },
  },
  {
    name: 'invalid-key-answers-403',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'a wrong key is answered 403 Forbidden instead of 401',
    behaviour: {
      finish: (reply, request) =>
        reply.status === 401 && request.authorization !== undefined ? errorReply(403, 'forbidden', 'The API key is not valid.') : reply,
    },
  },

  // the key compared loosely, and a refused create stored all the same
  {
    name: 'key-compared-case-insensitively',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'the key is compared case-insensitively (a database collation does that)',
    behaviour: tokenAccepted((token, key) => token.toLowerCase() === key.toLowerCase()),
  },
  {
    name: 'token-with-key-as-prefix-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'any bearer token that starts with the key is accepted ("Bearer <key>x")',
    behaviour: tokenAccepted((token, key) => token.startsWith(key)),
  },
  {
    name: 'key-truncated-prefix-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'a non-empty bearer token that is a prefix of the key is accepted',
    behaviour: tokenAccepted((token, key) => key.startsWith(token)),
  },
  {
    name: 'token-taken-as-second-word',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: "the token is the header's second word (header.split(' ')[1] === key), so \"Bearer <key> x\" is accepted",
    behaviour: { authorize: (authorization, key) => (authorization ?? '').split(' ')[0] === 'Bearer' && (authorization ?? '').split(' ')[1] === key },
  },
  ...(['undefined', 'null'] as const).map(
    (word): Mutation => ({
      name: `token-${word}-accepted`,
      breaks: 'auth-invalid-key-401',
      code: 'UNEXPECTED_STATUS',
      description: `keys are looked up in a map and the result compared as text, so a token "${word}" matches a missing entry`,
      behaviour: tokenAccepted((token, key) => token === key || token === word),
    }),
  ),
  {
    name: 'session-cookie-stands-in-for-key',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      'an answer to the key sets a session cookie, and a later request with that cookie and no key is let in (Spring Security\'s default session policy, not STATELESS)',
    behaviour: sessionCookieLetsIn('SESSION', () => true),
  },
  {
    name: 'session-cookie-set-on-create',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'a create with the key signs the client in: its 201 sets a session cookie, and a later request with that cookie and no key is let in (the reads set none)',
    behaviour: sessionCookieLetsIn('SID', (reply, request) => request.operation === 'createCategory' && reply.status === 201),
  },
  {
    name: 'key-last-character-ignored',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'the key is compared with an off-by-one that never looks at its last character',
    behaviour: tokenAccepted((token, key) => token.length === key.length && token.slice(0, -1) === key.slice(0, -1)),
  },
  {
    name: 'key-compared-as-number',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: "an all-digit key is compared as a number when the token reads as one too (PHP's ==), so the key with a 0 before it is taken",
    apiKey: '739201746519283746',
    behaviour: {
      authorize: (authorization, key, op) => {
        const token = /^Bearer (\d+)$/.exec(authorization ?? '')?.[1]
        return token !== undefined && /^\d+$/.test(key) ? BigInt(token) === BigInt(key) : conformingBehaviour.authorize(authorization, key, op)
      },
    },
  },
  {
    name: 'create-key-compared-loosely',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      'the create route checks the key on its own, case-insensitively and as a prefix (a write-key check apart from the middleware that guards every read): the reads refuse every near-miss, the create takes them',
    behaviour: createRouteAccepts((token, key) => token.length > 0 && key.toLowerCase().startsWith(token.toLowerCase())),
  },
  {
    name: 'create-token-starting-with-key',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'the create route checks the key on its own, as the start of the token (token.startsWith(key)): the reads refuse the key with a character added, the create takes it',
    behaviour: createRouteAccepts((token, key) => token.startsWith(key)),
  },
  {
    name: 'internal-forwarded-for-skips-auth',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'a filter lets "internal" callers in without a key, trusting X-Forwarded-For (127.0.0.1, 10.x), which any client can send',
    behaviour: { finish: internalCallersLetIn((request) => request.forwardedFor) },
  },
  {
    name: 'internal-real-ip-skips-auth',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description: "a filter lets \"internal\" callers in without a key, trusting X-Real-IP (the header nginx's proxy_set_header writes, which any client can send where no proxy replaces it)",
    behaviour: { finish: internalCallersLetIn((request) => request.realIp) },
  },
  {
    name: 'token-after-seven-characters',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: "the token is read as what follows the header's first seven characters (header.slice(7), the length of 'Bearer '), whatever the scheme: Digest <key> is let in",
    behaviour: { authorize: (authorization, key) => authorization !== undefined && authorization.slice(7) === key },
  },
  {
    name: 'example-token-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description: 'the framework example\'s token "changeme" is still accepted beside the account\'s key',
    behaviour: { authorize: (authorization, key, operation, cookie) => authorization === 'Bearer changeme' || conformingBehaviour.authorize(authorization, key, operation, cookie) },
  },
  {
    name: 'uuid-pet-route-unguarded',
    breaks: 'auth-missing-key-401',
    code: 'SERVED_WITHOUT_KEY',
    description: 'the pet route takes only UUIDs (/pets/1 is answered 404 before authentication, which a deprecated route may), and for a UUID the key is never checked: the pet is served to anyone',
    behaviour: {
      finish: (reply, request) => {
        if (request.operation !== 'getPet') return reply
        const id = request.path.split('/').pop() ?? ''
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return { ...errorReply(404, 'not_found', `no pet ${id}`), headers: reply.headers }
        return { status: 200, headers: reply.headers, body: { id, name: 'Rex' } }
      },
    },
  },
  {
    name: 'trailing-slash-skips-auth',
    breaks: 'auth-missing-key-401',
    code: 'SERVED_WITHOUT_KEY',
    description:
      'the security filter protects the exact path /categories while the router also matches /categories/, so the list is served there to anyone ' +
      "(Spring's trailing-slash match behind an exact Spring Security matcher)",
    // a service in use has categories to leak; an empty store's [] shows none (lib/checks/unauthenticated.ts)
    seed: () => seedCategories(2),
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && request.path.endsWith('/') && reply.status === 401 ? { status: 200, headers: {}, body: store } : reply,
    },
  },
  {
    name: 'create-refuses-the-valid-key',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'every create is answered 401, the valid key included, from the first request on, while the list serves that key (an account without the permission to write): a refusal on one operation from the start is no key that stopped working',
    behaviour: { authorize: (authorization, key, op) => op !== 'createCategory' && conformingBehaviour.authorize(authorization, key, op) },
  },
  {
    name: 'browser-skips-auth',
    breaks: 'auth-missing-key-401',
    code: 'SERVED_WITHOUT_KEY',
    description: 'a request whose Accept puts text/html first is taken for a signed-in browser: the list is served to it without a key',
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 401 && /^\s*text\/html/i.test(request.accept ?? '') ? { status: 200, headers: {}, body: store } : reply,
    },
  },
  {
    name: 'list-cached-before-auth',
    breaks: 'auth-missing-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      'the list is cached for a second by its URL alone, in front of the key check (nginx proxy_cache with its default key, apicache before the auth middleware): for a second after an answer to the key, a request without one gets the same list',
    timing: 'the request without a key at the exact path must come within the second after a list answered to the key; a loaded machine, checks run one at a time, may put more between them (then only the other forms of the path show it, SERVED_WITHOUT_KEY)',
    behaviour: (() => {
      // one cache per server: each has its own store
      const cached = new WeakMap<object, { at: number; reply: Reply }>()
      return {
        finish: (reply, request, store) => {
          if (request.operation !== 'listCategories' || request.method !== 'GET') return reply
          const hit = cached.get(store)
          if (reply.status === 200) cached.set(store, { at: Date.now(), reply })
          else if (reply.status === 401 && hit && Date.now() - hit.at < 1000) return hit.reply
          return reply
        },
      } satisfies Partial<Behaviour>
    })(),
  },
  {
    name: 'unauthenticated-create-stored',
    breaks: 'auth-missing-key-401',
    code: 'REFUSED_CREATE_STORED',
    description: 'a create without a valid key is answered 401, but the category is stored anyway (authentication checked after the write)',
    behaviour: (() => {
      let theKey = ''
      return {
        authorize: (a, key, op) => {
          theKey = key
          return op === 'createCategory' || conformingBehaviour.authorize(a, key, op)
        },
        finish: (reply, request) =>
          request.operation === 'createCategory' && !conformingBehaviour.authorize(request.authorization, theKey, 'createCategory')
            ? errorReply(401, 'unauthorized', 'The API key is missing or invalid.', { 'www-authenticate': 'Bearer' })
            : reply,
      } satisfies Partial<Behaviour>
    })(),
  },
]
