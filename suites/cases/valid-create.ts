/**
 * One valid create of the case tables (valid-creates.ts, poison-values.ts): the body it sends, the
 * classes of value it carries, and what a service may answer instead of 201. Apart from the tables,
 * so that each imports it without importing the other.
 */
import type { NewCategory } from '../../lib/checks/category.ts'
import type { WritePriority } from './write-priority.ts'

/**
 * The statuses that refuse a create without breaking a rule: its own refusals, else a refusal for
 * length (400, 413: §8); and 409 or 422 for a name every run sends, which an earlier run's record may
 * hold. Each says the create did not happen: the list that follows must not show it.
 */
export const refusalsOf = (c: ValidCreate): readonly number[] => [...new Set([...(c.refusals ?? [400, 413]), ...(c.nameOfEveryRun ? REPEATED_NAME_REFUSALS : [])])]

/**
 * How a service may refuse a repeated name (uniqueness of names is not shown): 409 Conflict, 422
 * Unprocessable Content (RFC 9110 §15.5.10, §15.5.21: Rails' and Laravel's answer to a unique
 * validation, and many FastAPI services'), or 400 with an Error record.
 */
export const REPEATED_NAME_REFUSALS: readonly number[] = [400, 409, 422]

export interface ValidCreate extends WritePriority {
  key: string
  /** The input classes it carries, as reports name the case. */
  label: string
  body: (prefix: string) => NewCategory
  /** The request text; JSON.stringify of the body unless a case sends other escape forms. */
  text?: (body: NewCategory) => string
  /**
   * How `text` lays the body out when it is not as JSON.stringify writes it (whitespace between
   * tokens, an order of keys), as a refusal's message says it: the values are then not all a
   * refusal may be about.
   */
  writtenAs?: string
  /**
   * An id the request also sends, drawn from the run's seed, which §2 says the client never does:
   * the record's id must still be the service's. Not a field to echo: `body` leaves it out.
   */
  sendsId?: (seed: number) => string
  /**
   * The key of an earlier create whose answered id this one sends, once that one was answered with a
   * record: an id the client never sends (§2), here one the service holds. The record's id must still
   * be a new one: an ORM's save of a body bound to its entity updates the record the id names and
   * inserts a new one for an id it does not hold (TypeORM's repository.save()), which `sendsId`, an
   * id no record has, never shows. Not a field to echo: `body` leaves it out.
   */
  sendsIdOf?: string
  /**
   * Members the body also sends after the fields, under keys NewCategory does not name: a field's
   * name in another case ("Name"), which JSON does not take for it (RFC 8259 §8.3 compares names
   * code unit by code unit). Not fields to echo: `body` leaves them out; the service may ignore them,
   * keep them or refuse them (§4.2 rule 1), never read them as the fields.
   */
  alsoSends?: (prefix: string) => Record<string, string>
  /** What a created record that took the id sent (`sendsId`, `sendsIdOf`) says of the service, and how such a service is usually fixed. */
  idTakenMeans?: string
  /**
   * §8: maximum lengths and sizes are not shown, so a server may refuse this body: 400 with an
   * Error record (§7), or 413 (a status §7 does not show). A 201 must still carry it back whole.
   */
  mayRefuse?: string
  /**
   * The same class of strings in values that fit the shortest limits the suite supports (a name of
   * NAME_FLOOR, a description of DESCRIPTION_FLOOR, counted in UTF-8 bytes, which no other count
   * exceeds). Sent only when this create is refused and so is plain ASCII of the same sizes: the
   * service limits lengths (§8), and the class must still reach it within what it accepts.
   */
  shortForm?: (prefix: string) => NewCategory
  /**
   * The key of an earlier create whose name this one sends again (with another description), once
   * that one was answered: uniqueness of names is not shown, so a refusal is allowed (`refusals`),
   * but a 201 is a new record (§2: ids are assigned on creation) carrying what was sent (§4.2 rule 2).
   */
  repeats?: string
  /**
   * A name that is the same in every run, as it cannot carry the run's prefix (the empty name, "0"): on a
   * service that refuses repeated names, an earlier run's record makes this create a repeated one,
   * and its 409 holds when the list shows a record of this name that this create did not make.
   */
  nameOfEveryRun?: boolean
  /** The refusals `mayRefuse` allows; default 400 and 413. */
  refusals?: readonly number[]
  /**
   * What a server fault (5xx but 503, which says the service is unavailable) to it may say of the
   * service, and how such a service is usually fixed; a function reads the answer's text first.
   */
  faultMeans?: string | ((answer: string) => string)
  /**
   * The body goes out in two pieces, split inside its first character wider than a byte, the
   * second after a pause (lib/http/body-pieces.ts): a service that decodes each piece it reads on
   * its own cuts that character. The evidence's `splitAt` says where.
   */
  inPieces?: true
  /**
   * Headers as other clients send them (curl's Accept; '' leaves a header out), over the suite's own. Never another
   * Content-Type: the document asks clients for exactly application/json (§4.2 rule 4), so a
   * service may refuse anything else, "; charset=utf-8" included.
   */
  sentAs?: Record<string, string>
  /**
   * The body goes in two chunks (Transfer-Encoding: chunked, no Content-Length), as clients that
   * stream their body send it (Node's fetch with a stream, Go's client for a body of unknown length,
   * curl -H 'Transfer-Encoding: chunked'): every HTTP/1.1 server reads such a body (RFC 9112 §7.1),
   * or refuses it with 411 Length Required (RFC 9110 §15.5.12). For a plain create only
   * (suites/categories/create-checks.ts: 201, or 411).
   */
  chunked?: true
  /**
   * The class of value a store may accept and then be unable to give back (poison-values.ts): named
   * when the list breaks after it (suites/categories/poisoned-list.ts).
   */
  holds?: string
}
