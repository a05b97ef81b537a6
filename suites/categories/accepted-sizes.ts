/**
 * What the creates a service accepted prove of its limits (§8 shows none), so that a refusal (400,
 * 413) is failed only where no limit can explain it: a value is as long as one the service took
 * only by the fewest count a service may use, and a body as large only by its bytes on the wire,
 * which a body limit counts (a gateway's, express.json's limit, Go's http.MaxBytesReader).
 */
import type { HttpResult } from '../../lib/http/client.ts'

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' })

/**
 * Grapheme clusters: the fewest any count gives (Ecto's validate_length, Elixir's String.length and
 * Swift's String.count count them; code points, UTF-16 units and UTF-8 bytes give as many or more).
 * `e` + U+0301 is one, and so is CR LF: an accepted value proves a limit of this many at least.
 */
export const graphemes = (text: string | undefined): number => [...segmenter.segment(text ?? '')].length

/** UTF-8 bytes: the most any count gives (Oracle's VARCHAR2 counts them; an emoji is 4, a zero-width joiner 3, a precomposed é 2). */
export const utf8Bytes = (text: string | undefined): number => Buffer.byteLength(text ?? '')

/** A create's values in UTF-8 bytes and characters (code points), for text other than plain ASCII. */
export const byteSizesOf = (sent: { name: string; description?: string | undefined }): string =>
  `a ${utf8Bytes(sent.name)}-byte name (${[...sent.name].length} characters)${sent.description === undefined ? '' : ` and a ${utf8Bytes(sent.description)}-byte description`}`

/** The bytes a request's body took on the wire. */
export function bodyBytes(result: HttpResult): number {
  const { body, bodyBase64 } = result.exchange.request
  return bodyBase64 !== undefined ? Buffer.from(bodyBase64, 'base64').length : Buffer.byteLength(body ?? '')
}

/** True when the service accepted a body at least as large as `refused`'s: a limit on the body's size does not explain its refusal. */
export const acceptedABodyAsLarge = (accepted: readonly { result: HttpResult }[], refused: HttpResult): boolean =>
  accepted.some((a) => bodyBytes(a.result) >= bodyBytes(refused))
