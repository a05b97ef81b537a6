/**
 * Mutations of a service behind a front that challenges some requests only: the front's challenges
 * judge nothing (lib/result/front-answered.ts), but the service's own answers to the requests it let
 * through are the service's, and a rule they break is the verdict (exit 1), not "no verdict". A
 * firewall's block page for some requests only (a managed rule against markup in a body) is no
 * challenge a browser passes: it is what every client of the API gets, and the rules judge it,
 * whether or not the front challenged other paths.
 */
import type { Behaviour, Reply } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

/** Cloudflare's managed challenge, as a WAF custom rule with the Managed Challenge action answers a client that runs no JavaScript. */
const CHALLENGE: Reply = {
  status: 403,
  headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', server: 'cloudflare' },
  body: '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript></body></html>',
}

/** Cloudflare's block page, as a managed rule's Block action answers a body it takes for an attack. */
const BLOCK: Reply = {
  status: 403,
  headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare' },
  body: '<!DOCTYPE html><html lang="en-US"><head><title>Attention Required! | Cloudflare</title></head><body><h1>Sorry, you have been blocked</h1></body></html>',
}

/** A create of a name with markup (`<b>`) blocked by the firewall: the record is taken back, the service never saw it. */
const blockMarkup = (reply: Reply, store: { name: string }[]): Reply => {
  const record = store.at(-1)
  if (reply.status !== 201 || !record || !/<[a-z]/i.test(record.name)) return reply
  store.pop()
  return BLOCK
}

export const FRONT_MUTATIONS: readonly Mutation[] = [
  {
    name: 'list-wrapped-behind-area-challenge',
    breaks: 'list-returns-category-array',
    code: 'SCHEMA_MISMATCH',
    description:
      'the list comes wrapped in an envelope ({"items": [...]}), behind Cloudflare with a WAF custom rule that answers every request to the pets and store areas with its managed challenge ' +
      '(403, cf-mitigated: challenge): the categories are the service\'s answers, and the wrapped list fails whatever the front did to the other paths',
    behaviour: {
      listBody: (store) => ({ items: store }),
      finish: (reply, request) => (/\/(?:pets|store)\//.test(request.path) ? CHALLENGE : reply),
    },
  },
  {
    name: 'markup-blocked',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      "behind Cloudflare, a managed rule blocks a create whose name holds markup (<b>Tom & Jerry</b>) with its block page (403, \"Sorry, you have been blocked\"): every client of the API is refused a valid create",
    behaviour: { finish: (reply, request, store) => (request.method === 'POST' ? blockMarkup(reply, store) : reply) },
  },
  {
    name: 'markup-blocked-behind-area-challenge',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'markup-blocked, where the front also answers every request to the pets and store areas with its managed challenge: the block page is judged as it is without the challenge (it was "not verified", exit 2)',
    behaviour: {
      finish: (reply, request, store) => (/\/(?:pets|store)\//.test(request.path) ? CHALLENGE : request.method === 'POST' ? blockMarkup(reply, store) : reply),
    },
  },
  {
    // caught as every create refused 403 while the GETs are served; the words name the authorizer's cached policy (lib/checks/gateway-answers.ts awsPolicyCached)
    // measured (stackhunt12): a Node emulation of a REST API's Lambda authorizer returning Allow for event.methodArn, cached 300 s by the token
    name: 'authorizer-policy-cached-for-the-first-route',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      "behind AWS API Gateway's REST API, a Lambda authorizer allows the key on the method and path it was called for alone (Resource: event.methodArn), and API Gateway caches that policy by the token: " +
      'the run\'s first request with the key is a GET of the list, and every other route is then refused 403 "User is not authorized to access this resource" (a create undone); a key it does not know is answered 401',
    behaviour: (() => {
      const allowed = new Map<string, string>()
      return {
        finish: (reply, request, store) => {
          if (request.authorization === undefined || reply.status === 401) return reply
          const route = `${request.method} ${request.path}`
          if (!allowed.has(request.authorization)) allowed.set(request.authorization, route)
          if (allowed.get(request.authorization) === route) return reply
          if (request.operation === 'createCategory' && reply.status === 201) store.pop()
          return { status: 403, headers: { 'content-type': 'application/json', 'x-amzn-errortype': 'AccessDeniedException' }, body: '{"Message":"User is not authorized to access this resource"}' }
        },
      } satisfies Partial<Behaviour>
    })(),
  },
]
