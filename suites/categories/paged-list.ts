/**
 * §8: "The list operation returns all categories in one array and declares no paging parameters."
 * A list that lacks created records and says itself that it is one page (a Link header with
 * rel="next", or a count of all the records above the ones it holds) is a page of a paged list,
 * not a list behind the writes: the failure says so, beside what the re-reads found.
 */
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { aboutOneMb, inMegabytes, ONE_MB_PAGE_WORDS } from '../../lib/checks/cut-lists.ts'

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

/** Page sizes that frameworks, stores and handlers default to or write (Spring Data's 20, Kaminari's and DRF's examples' 25, a LIMIT 100 or 1000). */
const ROUND_SIZES = new Set([10, 20, 25, 30, 50, 100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000])

/** An id as a BigInt, when it is an integer; undefined otherwise. */
function idNumber(id: unknown): bigint | undefined {
  try {
    return typeof id === 'number' || typeof id === 'bigint' ? BigInt(id) : undefined
  } catch {
    return undefined
  }
}

/**
 * What a list that says nothing of paging shows of a cut: as many records as a round page size,
 * and every created record missing from it newer (a higher id) than every record it holds, where
 * the list is kept in the order of ids (measured by stackhunt11: Flask over SQLite, ORDER BY id
 * LIMIT 1000, with 990 records); undefined otherwise. `createdIds`, the run's created records': the
 * list holds one of them, so it was read after the creates (a copy kept from before them, a list
 * behind the writes, lacks only newer records too); `readLengths`, how many each read of it after
 * the creates held: all as many (a list behind the writes grows from read to read).
 */
export function cutOf(listedIds: readonly unknown[], missingIds: readonly unknown[], createdIds?: readonly unknown[], readLengths: readonly number[] = []): string | undefined {
  if (!ROUND_SIZES.has(listedIds.length) || missingIds.length === 0) return undefined
  if (readLengths.some((n) => n !== listedIds.length)) return undefined
  const listed = listedIds.map(idNumber)
  const missing = missingIds.map(idNumber)
  if (listed.some((id) => id === undefined) || missing.some((id) => id === undefined)) return undefined
  if (createdIds !== undefined && !createdIds.map(idNumber).some((id) => id !== undefined && listed.includes(id))) return undefined
  const newest = listed.reduce((a, b) => (b! > a! ? b : a))!
  if (!missing.every((id) => id! > newest)) return undefined
  return `it holds ${listedIds.length} records, a round number, and lacks only records newer than every one it holds: a list cut at ${listedIds.length} (a LIMIT, a default page size) with no header that says so`
}

/** A MISSING_FROM_LIST failure on `list` (of `listed` records), with what its headers say of paging, or `cut`, what its records show of a cut (cutOf), or its size, one DynamoDB call's 1 MB. */
export function withPageSaid(error: unknown, list: HttpResult, listed: number, cut?: string): unknown {
  if (!(error instanceof ConformanceFailure) || error.code !== 'MISSING_FROM_LIST') return error
  const page = pageOf(list, listed) ?? cut
  const bytes = list.exchange.response?.bodyBytes
  if (page === undefined && aboutOneMb(bytes)) {
    // one list's size is all the evidence here (a create never stored is missing from a whole list of 1 MB too): said as a question (review56)
    return new ConformanceFailure({ ...error.detail(), message: `${error.message}; the list is about 1 MB of JSON (${inMegabytes(bytes!)}), one DynamoDB call's page? ${ONE_MB_PAGE_WORDS}` }, error.exchanges)
  }
  if (page === undefined) return error
  const message = `${error.message}; the list answered one page of a paged list (${page}), where §8 returns all categories in one array and declares no paging parameters: a default page size (Kaminari's 25, Pagy's 20, a pagination class set for every view) applied to this list`
  return new ConformanceFailure({ ...error.detail(), message }, error.exchanges)
}
