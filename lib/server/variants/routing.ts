/**
 * Conforming variants of routing: what a service's router and the front in front of it may do
 * with forms of a path the interface does not show (suites/cases/path-forms.ts), as long as none
 * serves an operation without the key.
 */
import type { Variant } from '../server-cases.ts'
import { LENIENT_ROUTES } from '../mutations/routing.ts'

export const ROUTING_VARIANTS: readonly Variant[] = [
  {
    name: 'lenient-router-guarded',
    description:
      'the router ignores letter case, merges slashes, resolves dot segments, decodes escapes and drops ";" parameters and ".json", and the key is checked after routing, so every form of a path is answered 401 without a key',
    behaviour: { routePath: (raw) => ({ path: LENIENT_ROUTES.reduce((path, { normalise }) => normalise(path), raw), guarded: true }) },
  },
  {
    name: 'whole-target-router',
    description:
      "the router compares the whole request target, its query string included (Python's http.server `self.path`, Node's `req.url`): a path with a query string is answered 404, a POST with one too (§4.2 declares no query parameters)",
    behaviour: { routePath: (raw) => ({ path: raw, guarded: true }) },
  },
  {
    name: 'browsers-sent-to-sign-in',
    description:
      'a request without a key whose Accept puts text/html first is redirected to a sign-in page (302, as oauth2-proxy, an ALB or Spring\'s form login do for browsers); every other client gets 401 and the Error record',
    behaviour: {
      finish: (reply, request) =>
        reply.status === 401 && request.authorization === undefined && /^\s*text\/html/i.test(request.accept ?? '')
          ? { status: 302, headers: { location: '/oauth2/start?rd=%2Fv1%2Fcategories', 'content-type': 'text/html; charset=utf-8' }, body: '<a href="/oauth2/start">Found</a>.' }
          : reply,
    },
  },
  {
    name: 'html-401-for-browsers',
    description:
      "a request whose Accept puts text/html first gets its 401 as an HTML page (Spring's BasicErrorController renders one for browsers); every other client gets the Error record",
    behaviour: {
      finish: (reply, request) =>
        reply.status === 401 && /^\s*text\/html/i.test(request.accept ?? '')
          ? { status: 401, headers: { ...reply.headers, 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><html><body><h1>Whitelabel Error Page</h1><p>Unauthorized</p></body></html>' }
          : reply,
    },
  },
  {
    name: 'catch-all-html-page',
    description: 'a single-page app in front answers every path it does not route with 200 and its HTML page (index.html), key or no key',
    behaviour: {
      finish: (reply, request) =>
        request.operation === undefined && reply.status === 404
          ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<!doctype html><html><body><div id="app"></div></body></html>' }
          : reply,
    },
  },
]
