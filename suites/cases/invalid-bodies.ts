/**
 * §4.2 rule 1, §5.4: the invalid bodies typed by hand, because a schema cannot say them (malformed
 * JSON is suites/cases/malformed-json.ts, values of the wrong type suites/cases/wrong-types.ts).
 */
import type { WritePriority } from './write-priority.ts'

export interface InvalidBody extends WritePriority {
  key: string
  label: string
  rule: 'create-rejects-missing-name' | 'create-rejects-missing-body'
  /** The raw request body. */
  body: (prefix: string) => string
  /**
   * What the body carries that a stored record would show (the refusal checks look for it in the
   * list); one a lenient service could take for a name fits NAME_FLOOR (case-markers.ts says why).
   */
  marker?: (prefix: string) => string
  /** A query string the POST carries: §4.2 gives the operation none, so it must change nothing. */
  query?: (prefix: string) => string
  /**
   * Statuses that say the service does not serve the request as this case sends it, and why such
   * an answer leaves the case unjudged (its checks are skipped with these words).
   */
  notServed?: { statuses: readonly number[]; why: string }
  /** What a 201 to it says of the service, and how such a service is usually fixed. */
  acceptedMeans?: string
  /** Headers as other clients send them ('' leaves one out), over the suite's own: valid-create.ts `sentAs`. */
  sentAs?: Record<string, string>
}

/**
 * curl's Accept. §7: every error carries the Error record, §4: as JSON, whatever the client
 * accepts; a service that negotiates its errors (Rails renders public/400.html for any format but
 * JSON) answers the suite's Accept: application/json with the record and curl with a page.
 */
export const CURL_ACCEPT = { accept: '*/*' }

/** A body without name taken: the binder made a record of it and nothing checked it before the store. */
const NO_VALIDATION =
  'the service stored a body without name: nothing checked it before the store (Spring: @Valid missing on the @RequestBody parameter, or no @NotNull/@NotBlank on name; ' +
  'FastAPI: name declared Optional; Express: no schema on the route)'

/** A body without name taken because the binder matched "Name" to the name field. */
const KEY_CASE_IGNORED =
  'the service matched the key "Name" to the field name, as Go\'s encoding/json does (so gin\'s ShouldBindJSON and echo\'s Bind) and ASP.NET Core\'s web defaults (PropertyNameCaseInsensitive); ' +
  "RFC 8259 §8.3 compares names exactly (Go: decode into a map[string]json.RawMessage first and look name up there; ASP.NET Core: PropertyNameCaseInsensitive = false)"

/** A body without name taken because a binder read the record under a root key. */
const ROOT_KEY_READ =
  'the service read the record under the key "category", as the Rails scaffold\'s params.require(:category).permit(:name, :description) does ' +
  '(wrap_parameters copies the top-level keys under it only when the body has none): read the top-level keys instead ' +
  '(wrap_parameters false and params.permit(:name, :description), with a 400 when name is missing)'

/** A name taken from the query string: the framework's params merge it with the body's fields. */
const QUERY_MERGED =
  "the service took the name from the query string: frameworks whose params merge the query with the body's fields do so, and a handler that reads them finds it there: " +
  "Grape's params (measured: 1.6), Sinatra's params.merge(body), PHP's $_REQUEST, Slim 3's $request->getParam(), restify's queryParser({ mapParams: true }) with a handler reading req.params, Phoenix's conn.params (the query's, the path's and the body's together); " +
  "§4.2 declares no query parameters: read the body's fields alone (Grape: env['api.request.body']; Slim: getParsedBody(); restify: req.body; Phoenix: conn.body_params)"

export const INVALID_BODIES: readonly InvalidBody[] = [
  { key: 'missing-name', label: 'a body without name', rule: 'create-rejects-missing-name', priority: 3,
    body: (p) => JSON.stringify({ description: `${p}-noname` }), marker: (p) => `${p}-noname`, acceptedMeans: NO_VALIDATION },
  // a framework that merges the query into the body's fields (Sinatra's params.merge, PHP's
  // $_REQUEST) creates a record named by the query
  { key: 'missing-name-named-in-query', label: 'a body without name, and a name in the query string (§4.2: no query parameters)', rule: 'create-rejects-missing-name',
    body: (p) => JSON.stringify({ description: `${p}-inquery` }), query: (p) => `?name=${p}-inquery`, marker: (p) => `${p}-inquery`,
    acceptedMeans: QUERY_MERGED,
    // a route matched against the whole request target (Python's http.server self.path, Node's
    // req.url) serves no path with a query: the case is about a query taken as a field, not routing
    notServed: { statuses: [404], why: "§4.2 declares no query parameters, so a service may serve the path without a query string only (a router that compares the whole request target, as Python's http.server or Node's req.url does, answers 404): the query form says nothing of the body's refusal, which the other cases judge" } },
  { key: 'empty-body', label: 'an empty body', rule: 'create-rejects-missing-body', priority: 6, body: () => '' },
  { key: 'empty-object', label: 'an empty object', rule: 'create-rejects-missing-name', body: () => '{}', acceptedMeans: NO_VALIDATION, sentAs: CURL_ACCEPT },
  // the record under a root key named after the resource, as Rails' scaffold reads it
  // (params.require(:category)): the body has no name of its own (§4.2 rule 1)
  { key: 'name-under-root-key', label: 'a body without name, holding a NewCategory under the key "category"', rule: 'create-rejects-missing-name',
    body: (p) => JSON.stringify({ category: { name: `${p}-rootkey`, description: `${p}-rootkey` } }), marker: (p) => `${p}-rootkey`, acceptedMeans: ROOT_KEY_READ },
  // JSON names compare code unit by code unit (RFC 8259 §8.3): "Name" is not name,
  // though Go's encoding/json and ASP.NET Core's web defaults bind it to name
  { key: 'name-key-capitalised', label: 'the name under the key "Name"', rule: 'create-rejects-missing-name',
    body: (p) => JSON.stringify({ Name: `${p}-namekey` }), marker: (p) => `${p}-namekey`, acceptedMeans: KEY_CASE_IGNORED },
]
