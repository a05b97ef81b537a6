/**
 * What two lists say of a cut, where records the first showed are gone from the second (the
 * interface has no delete): both of as many records (10 or more), a cut at a fixed count (a LIMIT, a
 * default page size; measured: Flask over SQLite, ORDER BY id DESC LIMIT 50), unless the records
 * gone are listed again by name under other ids (ids made anew); or both about 1 MB of JSON, a cut at
 * a size in bytes, as one DynamoDB Scan or Query call returns (measured by stackhunt12 on a Node
 * service that made one Scan call over 1.4 MB of items: 26 of 373 records said gone, nothing said why).
 */
import type { HttpResult } from '../http/client.ts'

/** The lowest and highest size in bytes of a list of JSON that one DynamoDB call's 1 MB of items makes (item sizes count names and values, JSON adds quotes and commas). */
const ONE_MB_PAGE = { lowest: 900_000, highest: 1_310_720 }

/** Whether a list's body is as large as one DynamoDB call's page written as JSON. */
export const aboutOneMb = (bytes: number | undefined): boolean => bytes !== undefined && bytes >= ONE_MB_PAGE.lowest && bytes <= ONE_MB_PAGE.highest

/** A size as the words give it: to 10 kB, so that a run's own names and ids, which move it by a few hundred bytes, leave the words alike (docs/proof.md). */
export const inMegabytes = (bytes: number): string => `${(bytes / 1_000_000).toFixed(2)} MB`

/** Why a list of about 1 MB lacks records, and what to do. */
export const ONE_MB_PAGE_WORDS =
  "a list cut at a size in bytes, as a DynamoDB Scan or Query call returns at most 1 MB of items and a LastEvaluatedKey to read on from, so a service that makes one call lists its first page alone (whichever records it holds: a Scan goes in the order of the keys' hashes); " +
  "§8 returns all categories in one array: call again with ExclusiveStartKey until no LastEvaluatedKey comes back (the SDK's paginateScan)"

/** The words to add to the failure (starting "; "), or '' where the lists say nothing of a cut. */
export function cutListWords(
  earlier: readonly { name?: unknown }[],
  later: readonly { name?: unknown }[],
  vanished: readonly { name?: unknown }[],
  results: readonly HttpResult[],
): string {
  // records gone listed again by name under other ids were made anew, not cut off (review56: the size alone said a cut)
  if (vanished.slice(0, 10).some((r) => later.some((l) => l.name === r.name))) return ''
  if (later.length >= 10 && later.length === earlier.length) {
    return `; both lists hold ${later.length} records: a list cut at a fixed size (a LIMIT, a default page size), where §8 returns all categories in one array`
  }
  const sizes = results.map((r) => r.exchange.response?.bodyBytes)
  if (sizes.length < 2 || !sizes.every(aboutOneMb)) return ''
  return `; both lists are about 1 MB of JSON (${sizes.map((size) => inMegabytes(size!)).join(' and ')}): ${ONE_MB_PAGE_WORDS}`
}
