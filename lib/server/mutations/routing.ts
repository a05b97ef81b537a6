/**
 * Mutations of §1 rule 2 and §5.1 at forms of a path: a router more lenient than the key check in
 * front of it (which matches the exact path only) serves an operation to anyone at a form of its
 * path. Each must fail auth-missing-key-401 with SERVED_WITHOUT_KEY (suites/cases/path-forms.ts).
 */
import { seedCategories, type Mutation } from '../server-cases.ts'

/** What lenient routers do to a path before they match it; each is one framework's habit. */
export const LENIENT_ROUTES: readonly { name: string; habit: string; normalise: (path: string) => string }[] = [
  { name: 'ignores-case', habit: 'matches paths case-insensitively (ASP.NET, Express with caseSensitive off)', normalise: (p) => p.toLowerCase() },
  { name: 'merges-slashes', habit: 'merges doubled slashes and drops a trailing one (nginx merge_slashes, many routers)', normalise: (p) => p.replace(/\/{2,}/g, '/').replace(/(.)\/$/, '$1') },
  { name: 'resolves-dot-segments', habit: 'resolves dot segments after the key check saw the path as sent', normalise: (p) => new URL(`http://router${p}`).pathname },
  { name: 'decodes-percent-escapes', habit: 'decodes percent-escapes before matching, the key check compared the raw path', normalise: (p) => decodeURIComponent(p) },
  { name: 'drops-matrix-parameters', habit: 'drops ";" path parameters before matching (Java servlet containers)', normalise: (p) => p.replace(/;[^/]*/g, '') },
  { name: 'strips-json-suffix', habit: 'matches /categories.json as /categories (Spring suffix pattern matching, Rails formats)', normalise: (p) => p.replace(/\.json$/, '') },
  { name: 'ignores-query-string', habit: 'matches the path without its query string, where the key check compared the whole request target', normalise: (p) => p.replace(/\?.*$/, '') },
]

export const ROUTING_MUTATIONS: readonly Mutation[] = LENIENT_ROUTES.map(({ name, habit, normalise }) => ({
  name: `router-${name}-skips-auth`,
  breaks: 'auth-missing-key-401',
  code: 'SERVED_WITHOUT_KEY',
  description: `the router ${habit}; the key check guards the exact paths only, so a form of a path reaches the operation without a key`,
  // a service in use has categories to leak; an empty store's [] shows none (lib/checks/unauthenticated.ts)
  seed: () => seedCategories(2),
  behaviour: {
    routePath: (raw) => {
      const path = normalise(raw)
      return { path, guarded: path === raw }
    },
  },
}))

/**
 * A legacy route beside the documented one, guarded by nothing: what it serves is the list's data in
 * the shape of an older version, which no check of the list's own shape recognises.
 */
export const LEGACY_ROUTE_MUTATION: Mutation = {
  name: 'legacy-route-serves-envelope',
  breaks: 'auth-missing-key-401',
  code: 'SERVED_WITHOUT_KEY',
  description: 'GET /categories/ is a legacy route, left unguarded, that serves every category to anyone wrapped as {"items": […]}, the shape of an older version',
  behaviour: {
    routePath: (raw) => (raw === '/categories/' ? { path: '/categories', guarded: false } : { path: raw.replace(/\?.*$/, ''), guarded: true }),
    finish: (reply, request) => (request.operation === 'listCategories' && request.authorization === undefined && reply.status === 200 ? { ...reply, body: { items: reply.body } } : reply),
  },
}

/**
 * Go's ServeMux with the collection registered as a subtree pattern, mux.HandleFunc("/v1/categories/",
 * …), behind a key check that wraps the mux: the path §4 gives, without the slash, is redirected to
 * the pattern's by http.Redirect, 301, with an HTML link to a GET and no Content-Type nor body to a
 * POST, before any handler runs (measured on Go 1.19). The suite named it as Django's APPEND_SLASH.
 */
export const SUBTREE_REDIRECT_MUTATION: Mutation = {
  name: 'go-servemux-subtree-pattern-redirects',
  breaks: 'list-returns-200',
  code: 'UNEXPECTED_STATUS',
  description: 'the collection is routed at "/v1/categories/" (a Go ServeMux subtree pattern), so "/v1/categories" with a valid key is answered 301 to it',
  behaviour: {
    finish: (reply, request, store) => {
      if (request.path !== '/v1/categories' || request.operation === undefined || reply.status === 401) return reply
      if (reply.status === 201) store.pop()
      const location = '/v1/categories/'
      return request.method === 'GET'
        ? { status: 301, headers: { 'content-type': 'text/html; charset=utf-8', location }, body: `<a href="${location}">Moved Permanently</a>.\n\n` }
        : { status: 301, headers: { 'content-type': '', location }, body: '' }
    },
  },
}

/**
 * The same route declared with its trailing slash in two Python frameworks, each before the key
 * check (a route dependency or a view decorator runs only once the route matched): FastAPI's
 * @router.get("/categories/"), whose Starlette Router (redirect_slashes=True) answers 307 with no
 * body (measured: FastAPI 0.92, Starlette 0.26, uvicorn 0.17), and Flask's @app.route("/categories/"),
 * whose Werkzeug answers 308 with its "Redirecting..." page (measured: Flask 2.2, Werkzeug 2.2).
 * The suite named both as Django's APPEND_SLASH, or named none. Each Location is an absolute URL.
 */
const slashRedirect = (name: string, status: 307 | 308, description: string, headers: Record<string, string>, body: string): Mutation => ({
  name,
  breaks: 'list-returns-200',
  code: 'UNEXPECTED_STATUS',
  description,
  behaviour: {
    finish: (reply, request, store) => {
      if (request.path !== '/v1/categories' || request.operation === undefined) return reply
      if (reply.status === 201) store.pop()
      // both write an absolute URL, from the Host header (Starlette's URL(scope=…), Werkzeug's make_redirect_url); Gin writes the path alone
      const location = `http://${request.host ?? 'localhost'}/v1/categories/${request.query}`
      return { status, headers: { ...headers, location }, body: body.replaceAll('LOCATION', location) }
    },
  },
})

export const SLASH_REDIRECT_MUTATIONS: readonly Mutation[] = [
  slashRedirect(
    'fastapi-route-with-trailing-slash-redirects',
    307,
    'FastAPI with the collection declared as @router.get("/categories/"): Starlette\'s redirect_slashes answers "/v1/categories" 307 to it, with no body, before the key check',
    { 'content-type': '' },
    '',
  ),
  slashRedirect(
    'flask-route-with-trailing-slash-redirects',
    308,
    'Flask with the collection declared as @app.route("/categories/"): Werkzeug answers "/v1/categories" 308 to it with its "Redirecting..." page, before the key check',
    { 'content-type': 'text/html; charset=utf-8' },
    '<!doctype html>\n<html lang=en>\n<title>Redirecting...</title>\n<h1>Redirecting...</h1>\n<p>You should be redirected automatically to the target URL: <a href="LOCATION">LOCATION</a>. If not, click the link.\n',
  ),
]

/** The paths the key check guards, as a guard that takes trailing slashes and a query string compares them. */
const GUARDED_PATH = /^\/(categories|pets\/[^/]+|store\/orders)\/*$/

/** A path with its dot segments resolved (as a URL, or a servlet container's normalisation, resolves them). */
const resolved = (path: string) => new URL(`http://router${path}`).pathname

/** The path without its query string. */
const withoutQuery = (raw: string) => raw.replace(/\?.*$/, '')

/**
 * A key check and a router that each normalise the path, differently: every form of a path that
 * either alone takes for the operation is guarded, but one the router takes and the check does not
 * is served to anyone. Both are well-known bypasses of a security filter in front of a Java router.
 */
export const NORMALISING_GUARD_MUTATIONS: readonly Mutation[] = [
  {
    name: 'guard-cuts-at-semicolon-router-drops-path-parameters',
    breaks: 'auth-missing-key-401',
    code: 'SERVED_WITHOUT_KEY',
    description:
      'the key check cuts the path at its first ";" and then resolves dot segments (Apache Shiro before 1.5.2), the router drops each ";" parameter and then resolves them (Tomcat): ' +
      '/categories;x=1 and /x/../categories are guarded, but /x/..;/categories is /x/.. to the check, a path it does not guard, and /categories to the router (CVE-2020-1957)',
    seed: () => seedCategories(2),
    behaviour: {
      routePath: (raw) => {
        const path = withoutQuery(raw)
        return { path: resolved(path.replace(/;[^/]*/g, '')), guarded: GUARDED_PATH.test(resolved(path.replace(/;.*$/, ''))) }
      },
    },
  },
  {
    name: 'router-trims-path-segments-skips-auth',
    breaks: 'auth-missing-key-401',
    code: 'SERVED_WITHOUT_KEY',
    description:
      "the router decodes the path and trims whitespace around each segment before it matches (Spring MVC's AntPathMatcher with trimTokens, its default before 4.3.1), " +
      'the key check decodes it and compares it as it is (Spring Security): /categories%20 is "/categories " to the check, a path it does not guard, and /categories to the router (CVE-2016-5007)',
    seed: () => seedCategories(2),
    behaviour: {
      routePath: (raw) => {
        const decoded = decodeURIComponent(resolved(withoutQuery(raw)))
        return { path: decoded.split('/').map((segment) => segment.trim()).join('/'), guarded: GUARDED_PATH.test(decoded) }
      },
    },
  },
]
