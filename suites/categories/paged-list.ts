/**
 * §8: "The list operation returns all categories in one array and declares no paging parameters."
 * A list that lacks created records and says itself that it is one page (a Link header with
 * rel="next", or a count of all the records above the ones it holds) is a page of a paged list,
 * not a list behind the writes: the failure says so, beside what the re-reads found.
 */
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'

/** Headers that carry the count of all the records of a paged list (Rails' api-pagination, json-server, Yii, Laravel's and Django's header paginators). */
const TOTAL_HEADERS = ['x-total-count', 'total', 'x-total', 'x-pagination-total-count']

/** What the list's headers say of paging, in words; undefined when they say nothing. */
export function pageOf(list: HttpResult, listed: number): string | undefined {
  const headers = list.exchange.response?.headers ?? {}
  const next = (headers.link ?? '').split(',').find((link) => /;\s*rel\s*=\s*"?(?:[^"]*\s)?next(?:\s[^"]*)?"?/i.test(link))
  if (next !== undefined) return `Link: ${next.trim()}`
  for (const name of TOTAL_HEADERS) {
    const total = Number(headers[name])
    if (Number.isInteger(total) && total > listed) return `${name}: ${headers[name]}, above the ${listed} records it holds`
  }
  return undefined
}

/** A MISSING_FROM_LIST failure on `list` (of `listed` records), with what its headers say of paging. */
export function withPageSaid(error: unknown, list: HttpResult, listed: number): unknown {
  if (!(error instanceof ConformanceFailure) || error.code !== 'MISSING_FROM_LIST') return error
  const page = pageOf(list, listed)
  if (page === undefined) return error
  const message = `${error.message}; the list answered one page of a paged list (${page}), where §8 returns all categories in one array and declares no paging parameters: a default page size (Kaminari's 25, Pagy's 20, a pagination class set for every view) applied to this list`
  return new ConformanceFailure({ ...error.detail(), message }, error.exchanges)
}
