/**
 * What the creates a service accepted prove of its limits (§8 shows none), so that a refusal (400,
 * 413) is failed only where no limit can explain it: a value is as long as one the service took
 * only by the fewest count a service may use, and a body as large only by its bytes on the wire,
 * which a body limit counts (a gateway's, express.json's limit, Go's http.MaxBytesReader).
 */
import type { HttpResult } from '../../lib/http/client.ts'
import { fail } from '../../lib/checks/failure.ts'
import { describeStatus, responseOf, statusFailure } from '../../lib/checks/response.ts'
import { statusOrigin } from '../../lib/checks/known-answers.ts'

/** Refusals of a body whose lengths the document leaves open: 400 (§7's Error record), 413 (sizes not shown, §8). */
export const LENGTH_REFUSALS = [400, 413]

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

/**
 * What the plain-ASCII control of a create refused 400 or 413 (probes.ts sameSizeAscii) may tell:
 * 201, that the values were refused for their characters; 400 or 413, a length limit (§8). Any
 * other answer tells neither, and is a valid create's failure itself (§4.2 rule 2): the refusal is
 * not taken for a length limit without a control so answered (review45: a control answered 500 let
 * a service that refused every long name pass).
 */
export function expectControlTells(control: HttpResult, refused: HttpResult): void {
  const answered = responseOf(control)
  if (answered.status === 201 || LENGTH_REFUSALS.includes(answered.status)) return
  const status = responseOf(refused).status
  // a 200 with the record (review51): the control was taken, in the wrong status; its sizes are then no length limit
  const origin = statusOrigin(answered, 201, control.exchange.request)
  const taken = `, expected 201: a create taken is answered 201 (§4.2 rule 2)${origin ? ` (${origin})` : ''}; and these sizes taken, the ${status} to the values was not for their lengths`
  fail(
    {
      ...statusFailure(answered),
      message: `POST answered ${describeStatus(answered)} to plain ASCII of the sizes of values answered ${status}${answered.status >= 200 && answered.status < 300 ? taken : `, expected 201 (or a refusal for length: 400, 413): the ${status} is not shown to be a length limit`}`,
      expected: 'status 201, or 400 or 413 because lengths are not shown (§8)',
      actual: `status ${describeStatus(answered)}; the values it stands for: ${status}`,
    },
    // the control last: its answer is the one judged
    refused.exchange,
    control.exchange,
  )
}
