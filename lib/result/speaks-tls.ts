/**
 * A base URL of http:// to a port that speaks TLS (the service's https port, a local dev server
 * with a certificate): every request of the run met a connection closed without a byte of answer,
 * and the run's own TLS handshake with that port then succeeded (lib/runner/tls-port.ts). No rule
 * of the document is at fault: the address is. The run is incomplete (exit 2), says which address
 * to give, and the checks those unanswered requests failed are not verified. A port that answers
 * neither (it closes every connection with no byte, a GET alone too) is incomplete as well
 * (`answers-nothing`): no rule can be judged on no answer at all.
 * A port that speaks only HTTP/2 without TLS (h2c with prior knowledge: Node's http2.createServer(),
 * Go's h2c handler, a gRPC gateway) answers an HTTP/1.1 request with a SETTINGS frame and a GOAWAY,
 * which no HTTP/1.1 client can read: the same wrong address, told as `speaks-h2c` once the port
 * answered the HTTP/2 connection preface (before, a FAIL of 17 rules: 571 checks failed on "malformed HTTP response").
 */
import type { Exchange } from '../http/exchange.ts'
import type { RunProblem } from './run-problems.ts'

/** What the port does, in the words the problem and every check it leaves unverified start with. */
const speaksTls = (baseUrl: string) => `${new URL(baseUrl).host} speaks TLS`

/** The base URL the run was given (http://), as https:// on the same host and port. */
const overHttps = (baseUrl: string) => {
  const url = new URL(baseUrl)
  return `https://${url.host}${url.pathname.replace(/\/+$/, '')}`
}

/** How many requests the run kept back once it knew, in words (lib/runner/tls-port.ts): none when it knew too late. */
export const keptBackWords = (notSent: number) => (notSent > 0 ? ` (the run sent no more: ${notSent} ${notSent === 1 ? 'request' : 'requests'} not sent)` : '')

/** The problem, from the base URL the run was given (http://), and the address it should have had; `notSent`: the requests kept back once the handshake succeeded. */
export function speaksTlsProblem(baseUrl: string, notSent = 0): RunProblem {
  const https = overHttps(baseUrl)
  return { kind: 'speaks-tls', message: `${speaksTls(baseUrl)}: no request over plain HTTP got an answer, and a TLS handshake with it succeeded${keptBackWords(notSent)}; give the base URL as ${https} (the server's own address, or --ca-cert for its CA)` }
}

/** What an h2c port does, in the words its problem and every check it leaves unverified start with. */
const speaksH2c = (baseUrl: string) => `${new URL(baseUrl).host} speaks HTTP/2 only (h2c)`

/** The problem of a port that speaks HTTP/2 without TLS only: the address to give is another port of the service. */
export function speaksH2cProblem(baseUrl: string, notSent = 0): RunProblem {
  const https = overHttps(baseUrl)
  return {
    kind: 'speaks-h2c',
    message: `${speaksH2c(baseUrl)}: it answered the suite's HTTP/1.1 requests with HTTP/2 frames${keptBackWords(notSent)}; give the base URL of the service's HTTP/1.1 port, or its https:// address (${https}) if it offers HTTP/1.1 there`,
  }
}

/** What a port that closes every connection unanswered does, in the words its problem starts with (lib/runner/tls-port.ts). */
export const ANSWERS_NOTHING = 'answers nothing'

/**
 * The problem of a port that took every connection and closed it with no byte of an answer, a GET
 * alone included, speaking neither TLS nor h2c: nothing behind it answers (a forwarder such as
 * docker-proxy while the container starts, a load balancer with no healthy backend). No rule of the
 * document can be judged on no answer at all: the run is incomplete (exit 2), as for a port that
 * refuses connections, which the preflight stops at.
 */
export function answersNothingProblem(baseUrl: string, cut: number, seconds: number, notSent = 0): RunProblem {
  return {
    kind: 'answers-nothing',
    message: `${new URL(baseUrl).host} ${ANSWERS_NOTHING}: ${cut} requests had their connection closed with no byte of an answer, and a GET alone on a connection of its own too, for ${seconds} s${keptBackWords(notSent)}; nothing behind the port answers (a forwarder with no server behind it, a container still starting, a load balancer with no healthy backend?): run again once the service answers`,
  }
}

/** The checks failed on requests that got no answer, not verified: the plain HTTP/1.1 the port does not speak failed them, not the service. */
export function withoutFailuresOfPlainHttp<C extends { status: string; exchanges: readonly Exchange[] }>(checks: C[], baseUrl: string, kind: 'speaks-tls' | 'speaks-h2c' | 'answers-nothing' = 'speaks-tls'): C[] {
  const skipReason =
    kind === 'speaks-tls'
      ? `not verified: ${speaksTls(baseUrl)}, and the request over plain HTTP got no answer`
      : kind === 'speaks-h2c'
        ? `not verified: ${speaksH2c(baseUrl)}, and the request over HTTP/1.1 got no answer it could read`
        : `not verified: ${new URL(baseUrl).host} ${ANSWERS_NOTHING}, and the request's connection was closed with no byte of an answer`
  // a check whose request was not sent once the run knew (lib/runner/tls-port.ts): the same cause, its own words ("so this request was not sent")
  const notSent = (c: C) => c.status === 'skip' && (c as { cause?: string }).cause === 'misdirected'
  // a port that stopped answering mid-run (lib/runner/stopped-answering.ts): a check whose failure is no answer, on a request it cut, though another of its requests was answered
  const cutUnder = (c: C) => kind === 'answers-nothing' && (c as { failure?: { code?: string } }).failure?.code === 'NO_RESPONSE' && c.exchanges.some((e) => e.response === undefined && e.error?.code === 'CONNECTION_RESET')
  return checks.map((c) =>
    notSent(c)
      ? { ...c, cause: kind }
      : c.status === 'fail' && c.exchanges.length > 0 && (c.exchanges.every((e) => e.response === undefined) || cutUnder(c))
        ? { ...c, status: 'skip', cause: kind, skipReason, failure: undefined, reproduce: [] }
        : c,
  )
}
