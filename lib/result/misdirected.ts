/**
 * A base URL whose host the server does not answer for: every request of the run answered 421
 * Misdirected Request, which RFC 9110 §15.5.20 defines as "the request was directed at a server
 * that is unable or unwilling to produce an authoritative response for the target URI". Caddy
 * reached by its IP address, or by a name its TLS certificate does not hold (the SNI and the Host
 * differ), answers so; a gateway whose virtual hosts do not hold the name too. The service behind
 * it was never asked, and no rule of the document is at fault: the address is. As for a gateway
 * that refused the client certificate (certificate-refused.ts), the checks that met a 421 are not
 * verified, the run reaches no verdict (exit 2), and the first line says what to give: the host
 * name the server serves. A server that answers 421 to some requests and serves the others still
 * fails the rules those 421s broke: it was reached. So too an http:// base URL every request to
 * which is redirected to the same URL over https:// (nginx ingress's 308, Cloudflare's Always Use
 * HTTPS, an ALB's HTTP listener, Heroku's and Cloud Run's fronts). Measured against an
 * emulated nginx ingress: a FAIL of 8 rules and 130 checks, each "answered 308 redirecting to
 * https://…", and 434 requests with the confirmations; any other redirect (a trailing slash added,
 * another host) is the service's answer, and stays a failure. So too a base URL every request to
 * which is answered 404 (at least three, served-nothing.ts): nothing is served there, a wrong path
 * before /v1 (`/api/v1` where the service serves `/v1`) or a deployment that routes nothing; a run at
 * `/api/v1` was a FAIL of 8 rules that named no address (newuser11). A server that answers some
 * requests 404 and serves others still fails the rules those 404s broke. So too a base URL every
 * request to which is answered with a web page (an HTML document, some with 2xx): a front end's dev
 * server on the port given (a single-page application's, which answers index.html to every path),
 * another site; a run was a FAIL headed "51 requests without a valid key were served (is
 * authentication mounted on every route?" (vitestplay3). A service that answers JSON, even as
 * text/html (PHP's default type), is judged: a web page is markup, sent as text/html. So too a
 * port where nothing answers in HTTP (another service's: a cache, a database, SSH): a run was a
 * FAIL of 17 rules, every request "got no answer (PROTOCOL_ERROR)" (vitestplay3). Once three
 * answers came with no status line and none with one, the run sends nothing more there
 * (lib/runner/tls-port.ts): 179 requests, 85 POSTs, had gone to a Redis port to conclude the same.
 */
import { withoutStatusLine, type Exchange } from '../http/exchange.ts'
import type { JournalEntry } from '../http/journal.ts'
import type { RunProblem } from './run-problems.ts'
import { answeredOnly404, notRoutedBehindRefusals } from './served-nothing.ts'
import { notTheServers } from '../http/transport-errors.ts'
import { keptBackWords } from './speaks-tls.ts'

/** The first words of the problem when every request was answered 404: the reports tell it from a 421's by them. */
export const NOTHING_SERVED = 'nothing is served at this base URL'

/** What the run kept back of a base URL that serves nothing (lib/runner/list-first.ts): no POST was sent, or one alone that was answered so too, and then nothing more. */
function notSentWords(notSent: number, journal: readonly JournalEntry[]): string {
  if (notSent === 0) return ''
  const sent = journal.filter((e) => e.method === 'POST' && e.onWire).length
  const posts = sent === 0 ? 'no POST sent: ' : sent === 1 ? 'one POST sent, alone: ' : ''
  return ` (${posts}the run sent no more once its first list, asked with the key, was answered so: ${notSent} ${notSent === 1 ? 'request' : 'requests'} not sent)`
}

/** The first words of the problem when every request was answered with a web page. */
export const A_WEB_PAGE = 'a web page answers at this base URL, not the API'

/** The first words of the problem when nothing the port answered was HTTP. */
export const NOT_HTTP = 'nothing at this port speaks HTTP'

/** Fewer answers than this say too little (a --rule run of one check). */
const ENOUGH = 3
const MISDIRECTED = 421

/** What the server does, in the words the problem and every check it leaves unverified start with. */
const doesNotAnswer = (baseUrl: string) => `${new URL(baseUrl).host} does not answer for this address`

const answered421 = (e: Exchange) => e.response?.status === MISDIRECTED

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * Where a redirect leads when it is the request's URL over https:// (its host, its path), else
 * undefined. A redirect to another host is no wrong scheme, and stands as a failure that names it
 * (test/hostile/redirects.test.ts).
 */
function offOrigin(e: Exchange): URL | undefined {
  const location = e.response && REDIRECTS.has(e.response.status) ? e.response.headers.location : undefined
  if (location === undefined) return undefined
  try {
    const to = new URL(location, e.request.url)
    const from = new URL(e.request.url)
    return from.protocol === 'http:' && to.protocol === 'https:' && to.hostname === from.hostname && to.pathname === from.pathname ? to : undefined
  } catch {
    return undefined
  }
}

/**
 * Why the failures of a run whose every answer was a redirect were not probed again: a second probe
 * would meet the same (lib/runner/confirmation.ts). The reports said "--confirm 0, the write budget
 * or the deadline" of a server that redirected every request to another origin, or to itself.
 */
export const REDIRECTED_EVERY_REQUEST = 'the server redirected every request of the run, and a second probe would only meet the same redirects'

/** How many requests were answered with a redirect when the server answered every request it answered so (at least ENOUGH), else 0. */
export function answeredOnlyRedirects(journal: readonly JournalEntry[]): number {
  const statuses = journal.flatMap((e) => (e.status === undefined ? [] : [e.status]))
  return statuses.length >= ENOUGH && statuses.every((status) => REDIRECTS.has(status)) ? statuses.length : 0
}

/** How many requests were answered 421 when the server answered every request it answered so (at least ENOUGH), else 0. */
export function answeredOnly421(journal: readonly JournalEntry[]): number {
  let count = 0
  for (const e of journal) {
    if (e.status === undefined) continue
    if (e.status !== MISDIRECTED) return 0
    count++
  }
  return count >= ENOUGH ? count : 0
}

/**
 * An answer that is a web page: an HTML document sent as one (text/html). Not JSON labelled
 * text/html (PHP's default type), and not an HTML page labelled JSON, which is an API's broken
 * answer (test/hostile/garbage.test.ts: a login page as application/json fails the run).
 */
const webPage = (e: Exchange) => e.response !== undefined && /^text\/html\b/i.test(e.response.headers['content-type'] ?? '') && /^\s*<(?:!doctype\s+html|html|head|body)[\s>]/i.test(e.response.body)

/** The statuses of the requests answered with a web page when every answered request was (at least ENOUGH, one with 2xx), else none. */
export function answeredOnlyPages(exchanges: readonly Exchange[]): number[] {
  const answered = new Map(exchanges.filter((e) => e.response).map((e) => [e.id, e]))
  const all = [...answered.values()]
  return all.length >= ENOUGH && all.every(webPage) && all.some((e) => e.response!.status < 300) ? all.map((e) => e.response!.status) : []
}

/**
 * An exchange that met bytes which are not HTTP where its answer should have been: no status line.
 * An answer with one, framed wrong (Content-Length beside Transfer-Encoding, a header name with a
 * space), is an HTTP server's, whose port is the right one.
 */
export const metNotHttp = (e: Exchange) => e.response === undefined && e.error !== undefined && withoutStatusLine(e.error)

/**
 * How many requests met bytes that are not HTTP when every request put on the wire did (at least
 * ENOUGH), else 0: the port of another service (Redis's `-ERR`, SSH's banner, a database's
 * handshake). An HTTP server that garbles only some answers was reached, and fails the rules
 * those answers broke (test/hostile/garbage.test.ts); so does one that frames every answer wrong,
 * which a run told "nothing at this port speaks HTTP" (exit 2), where it was a FAIL naming the
 * framing (test/cli/base-url-not-found.test.ts).
 */
export function answeredNothingHttp(journal: readonly JournalEntry[], exchanges: readonly Exchange[]): number {
  // a request --deadline cut says nothing of the port: a run cut while the service held some was a FAIL of every rule
  const sent = journal.filter((e) => e.onWire && !(e.error !== undefined && notTheServers(e.error)))
  if (sent.length < ENOUGH || !sent.every((e) => e.status === undefined && e.error === 'PROTOCOL_ERROR')) return 0
  const garbled = exchanges.filter((e) => e.response === undefined && e.error?.code === 'PROTOCOL_ERROR')
  return garbled.length > 0 && garbled.every(metNotHttp) ? sent.length : 0
}

/**
 * The problem when the server answered every request of the run's journal that it answered with
 * 421 (at least ENOUGH of them), or undefined. `baseUrl`: the address the run was given.
 */
export function misdirected(journal: readonly JournalEntry[], baseUrl: string, exchanges: readonly Exchange[] = []): RunProblem | undefined {
  // the requests the run kept back once the first answers showed it (lib/runner/tls-port.ts, list-first.ts)
  const keptBack = (e: JournalEntry) => e.reason === 'misdirected' || e.error === 'WRONG_PORT'
  const redirects = answeredOnlyRedirects(journal)
  const away = redirects > 0 && exchanges.some((e) => e.response && REDIRECTS.has(e.response.status)) && exchanges.every((e) => !e.response || !REDIRECTS.has(e.response.status) || offOrigin(e))
  if (away) {
    const to = offOrigin(exchanges.find(offOrigin)!)!
    const base = new URL(baseUrl)
    const there = `${to.origin}${base.pathname.replace(/\/$/, '')}`
    return {
      kind: 'misdirected',
      message: `${base.host} redirects every request to https://: ${redirects} requests were answered with a redirect to ${to.origin} (redirects are not followed: a POST's body would not go with most), none otherwise; give the base URL they lead to, ${there}`,
    }
  }
  if (answeredOnly404(journal)) {
    const answered = journal.filter((e) => e.onWire).length
    return {
      kind: 'misdirected',
      message: `${NOTHING_SERVED}: ${answered} requests were answered 404 Not Found, none otherwise${notSentWords(journal.filter(keptBack).length, journal)}; a wrong path before /v1, or a deployment that routes nothing: give the base URL the service serves, ending in /v1 (§9)`,
    }
  }
  const refusals = notRoutedBehindRefusals(journal, exchanges)
  if (refusals !== undefined) {
    const answered = journal.filter((e) => e.status === 404 && e.onWire).length
    const counts = [...new Set(refusals)].sort((a, b) => a - b).map((status) => `${status} ×${refusals.filter((s) => s === status).length}`).join(', ')
    return {
      kind: 'misdirected',
      message: `${NOTHING_SERVED}: ${answered} requests were answered 404 Not Found, the list asked with the key among them, the others refused before routing (${counts}), none served${notSentWords(journal.filter(keptBack).length, journal)}; a wrong path before /v1? give the base URL the service serves, ending in /v1 (§9)`,
    }
  }
  const pages = answeredOnlyPages(exchanges)
  if (pages.length > 0) {
    return {
      kind: 'misdirected',
      message: `${A_WEB_PAGE}: ${pages.length} requests were answered with an HTML page (${[...new Set(pages)].join(', ')}), none otherwise; a web front end (its dev server?), or another site, at this address: give the base URL of the categories API, ending in /v1 (§9)`,
    }
  }
  const notHttp = answeredNothingHttp(journal, exchanges)
  if (notHttp > 0) {
    return {
      kind: 'misdirected',
      message: `${NOT_HTTP}: ${notHttp} requests were answered with bytes that are not an HTTP/1.1 answer, none otherwise${keptBackWords(journal.filter(keptBack).length)}; another service's port (a database's, a cache's, SSH's), or a server that does not speak HTTP/1.1: give the base URL of the categories API, with its port`,
    }
  }
  const count = answeredOnly421(journal)
  if (count === 0) return undefined
  const host = new URL(baseUrl).hostname
  const byAddress = /^[\d.]+$|^\[.*\]$/.test(host) ? ', not its IP address' : ''
  return {
    kind: 'misdirected',
    message: `${doesNotAnswer(baseUrl)}: ${count} requests were answered 421 Misdirected Request (RFC 9110 §15.5.20), none otherwise; give the base URL with a host name the server serves (its TLS certificate's, or a virtual host of the gateway)${byAddress}`,
  }
}

/** The checks of such a run: each whose evidence holds bytes that are not HTTP, a 421, a redirect to https://, a 404 or (`pages`: in a run answered only with them) a web page is not verified, whatever it found. */
export function withoutChecksOfTheMisdirectedRun<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], baseUrl: string, pages = false): C[] {
  const skipReason = `not verified: ${doesNotAnswer(baseUrl)}, and the request was answered 421`
  const page = `not verified: ${A_WEB_PAGE}, and the request was answered with an HTML page`
  const redirected = `not verified: ${new URL(baseUrl).host} redirects every request to https://, and the request was redirected`
  const notFound = `not verified: ${NOTHING_SERVED} (every request answered 404, or refused before routing), and the request was answered 404`
  const garbled = `not verified: ${NOT_HTTP}, and the request was answered with bytes that are not HTTP`
  return checks.map((c) => {
    if (c.status === 'skip') return c
    if (c.exchanges.some(metNotHttp)) return { ...c, status: 'skip', cause: 'misdirected', skipReason: garbled, failure: undefined, reproduce: [] }
    if (pages && c.exchanges.some(webPage)) return { ...c, status: 'skip', cause: 'misdirected', skipReason: page, failure: undefined, reproduce: [] }
    if (c.exchanges.some(answered421)) return { ...c, status: 'skip', cause: 'misdirected', skipReason, failure: undefined, reproduce: [] }
    if (c.exchanges.some((e) => e.response?.status === 404)) return { ...c, status: 'skip', cause: 'misdirected', skipReason: notFound, failure: undefined, reproduce: [] }
    return c.exchanges.some((e) => offOrigin(e)) ? { ...c, status: 'skip', cause: 'misdirected', skipReason: redirected, failure: undefined, reproduce: [] } : c
  })
}
