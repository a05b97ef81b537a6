/**
 * How many of an answer's headers the reports keep. The checks read every header of an answer
 * (exchange.response.headers, whole in memory); the reports keep the first SHOWN_HEADERS of it,
 * and the headers any check or report reads by name wherever they came, and count the rest. A
 * server whose every answer carried 2,500 headers (each "0a1:", none the interface names) made a
 * results.json of 22 MB and a report.html of 6.5 MB, 395 MB of memory to write them. Whole headers
 * are left out, never a piece of a value: what redaction made of a value is what is shown.
 */
import type { Exchange, RecordedResponse } from '../http/exchange.ts'

/** The headers of an answer the reports show at most, in the order they came (a real answer has a few dozen). */
export const SHOWN_HEADERS = 100

/** Headers the checks, the fault groups and the reports read by name: kept wherever they came in the answer. */
const READ_BY_NAME: ReadonlySet<string> = new Set([
  'content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'location', 'retry-after', 'www-authenticate',
  'x-amzn-remapped-www-authenticate', 'server', 'via', 'set-cookie', 'cf-mitigated', 'x-amz-cf-id', 'x-content-type-options',
  'connection', 'allow', 'link', 'deprecation', 'sunset', 'vary', 'cache-control', 'date',
])

/** The headers the reports show of `headers`, and how many they leave out. */
export function shownHeaders(headers: Record<string, string>): { shown: Record<string, string>; leftOut: number } {
  const names = Object.keys(headers)
  if (names.length <= SHOWN_HEADERS) return { shown: headers, leftOut: 0 }
  const shown: Record<string, string> = {}
  let kept = 0
  for (const name of names) {
    if (kept >= SHOWN_HEADERS && !READ_BY_NAME.has(name)) continue
    shown[name] = headers[name] as string
    kept++
  }
  return { shown, leftOut: names.length - kept }
}

/** The words for the headers left out, as the reports put them under the ones shown. */
export const headersLeftOutText = (leftOut: number) => `… and ${leftOut.toLocaleString('en')} more ${leftOut === 1 ? 'header' : 'headers'} (the reports show the first ${SHOWN_HEADERS})`

/** The exchange as the reports keep it: its answer with the headers shown and the count of the rest (`headersLeftOut`); the same object when nothing is left out. */
export function exchangeAsShown(exchange: Exchange): Exchange {
  if (exchange.response === undefined) return exchange
  const { shown, leftOut } = shownHeaders(exchange.response.headers)
  if (leftOut === 0) return exchange
  const response: RecordedResponse = { ...exchange.response, headers: shown, headersLeftOut: leftOut }
  return { ...exchange, response }
}
