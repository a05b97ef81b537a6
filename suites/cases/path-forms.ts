/**
 * §1 rule 2, §5.1: every operation requires authentication, at whatever path reaches it. Routers
 * are often more lenient than the filter that guards them: a router that matches letter case
 * loosely, merges slashes, resolves dot segments, decodes percent-escapes, drops a `;` parameter
 * or a `.json` suffix, or that matches the path without its query string, serves the operation
 * at a form of its path that an exact-path key check never sees; so does one that normalises the
 * path otherwise than a key check that normalises it too (a ";" before a dot segment, a space after
 * the path). Each form is sent without a key (reads only); any answer is fine but the
 * operation's data (lib/checks/unauthenticated.ts).
 */
export interface PathForm {
  key: string
  /** What a router does that takes this form for the operation. */
  label: string
  /** Appended to the base URL as it is: dot segments and escapes go out unresolved. */
  path: string
  /** The operation a lenient router would take it for. */
  operation: 'listCategories' | 'getPet' | 'listStoreOrders'
}

/** The forms of one operation's path: `segments` as the interface writes them, below the base URL. */
function formsOf(operation: PathForm['operation'], segments: string[]): PathForm[] {
  const [first, ...rest] = segments as [string, ...string[]]
  const tail = rest.length > 0 ? `/${rest.join('/')}` : ''
  const exact = `/${first}${tail}`
  const escaped = `%${first.charCodeAt(0).toString(16)}${first.slice(1)}`
  return [
    { key: 'upper-case', label: 'letter case ignored', path: exact.toUpperCase() },
    { key: 'capitalised', label: 'letter case ignored', path: `/${first[0]!.toUpperCase()}${first.slice(1)}${tail}` },
    { key: 'trailing-slash', label: "a trailing slash matched (Spring's trailing-slash match)", path: `${exact}/` },
    { key: 'doubled-slash', label: 'slashes merged', path: `/${exact}` },
    { key: 'inner-doubled-slash', label: 'slashes merged', path: rest.length > 0 ? `/${first}/${tail}` : `${exact}//` },
    { key: 'dot-segment', label: 'dot segments resolved', path: `/.${exact}` },
    { key: 'dot-dot-segment', label: 'dot segments resolved', path: `/x/..${exact}` },
    { key: 'percent-encoded', label: 'percent-escapes decoded', path: `/${escaped}${tail}` },
    { key: 'matrix-parameter', label: 'a ";" parameter dropped', path: `${exact};x=1` },
    { key: 'json-suffix', label: 'a ".json" suffix dropped (suffix pattern matching)', path: `${exact}.json` },
    { key: 'query-string', label: 'a query string the route ignores and the key check does not', path: `${exact}?x=1` },
    // a key check and a router that each normalise, differently: one that cuts the path at its first ";"
    // before resolving dot segments sees /x/.. (Apache Shiro, CVE-2020-1957), one that drops each ";"
    // parameter first sees the operation (Tomcat); one that trims each segment sees it in a path that
    // ends in a space (Spring MVC's trimTokens, CVE-2016-5007), one that compares it as it is does not
    { key: 'dot-dot-path-parameter', label: 'a ";" parameter dropped, then dot segments resolved, where the key check cut the path at the ";"', path: `/x/..;${exact}` },
    { key: 'trailing-space', label: 'whitespace trimmed from each segment (Spring MVC\'s trimTokens)', path: `${exact}%20` },
  ].map((form) => ({ ...form, key: `${operation}-${form.key}`, operation }))
}

export const PATH_FORMS: readonly PathForm[] = [
  ...formsOf('listCategories', ['categories']),
  ...formsOf('getPet', ['pets', '1']),
  // the shape of petId is not shown (§4.3): a route that takes only UUIDs answers /pets/1 with 404
  // before authentication (which the suite excuses), and its key check may still be missing
  { key: 'getPet-uuid-id', label: 'a pet id of another shape (a UUID), for a route that takes only those', path: '/pets/3fa85f64-5717-4562-b3fc-2c963f66afa6', operation: 'getPet' },
  ...formsOf('listStoreOrders', ['store', 'orders']),
]
