/**
 * Header lines folded onto the next line (obs-fold: a line break followed by a space or a tab),
 * unfolded before the parser reads them, as RFC 9112 §5.2 asks of every client: "A user agent that
 * receives an obs-fold in a response message that is not within a "message/http" container MUST
 * replace each received obs-fold with one or more SP octets prior to interpreting the field
 * value." A sender must not fold (same section), but old servers and proxies still do, and undici's
 * parser refuses every such answer ("Unexpected whitespace after header value"): a service behind
 * one failed 17 rules with "malformed HTTP response" though every answer it sent was the right one
 * (found by hostile6). Folding is HTTP's framing, of which the document says nothing.
 *
 * Given a whole head (lib/http/answer-head.ts holds it until its empty line), it replaces each
 * fold's CR and LF with spaces. A line break followed by a space right after the status line is no
 * fold (no field value to continue): it is left as it came, and answer-head.ts refuses it, named.
 */

const LF = 0x0a
const CR = 0x0d
const SP = 0x20
const HTAB = 0x09

/** `head` (status line, fields and the empty line) with each fold's line break made spaces; the same Buffer when it has none. */
export function unfoldHead(head: Buffer): Buffer {
  let copied: Buffer | undefined
  // the status line's own line break is never a fold
  for (let at = head.indexOf(LF, head.indexOf(LF) + 1); at >= 0; at = head.indexOf(LF, at + 1)) {
    const next = head[at + 1]
    if (next !== SP && next !== HTAB) continue
    const lineStart = at > 0 && head[at - 1] === CR ? at - 1 : at
    copied ??= Buffer.from(head)
    copied.fill(SP, lineStart, at + 1)
  }
  return copied ?? head
}
