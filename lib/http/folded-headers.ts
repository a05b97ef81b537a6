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
 * Fed the bytes of a final answer from its first byte (lib/http/interim-answers.ts), it replaces
 * each fold's CR and LF with spaces until the head's empty line, however the bytes are cut into
 * chunks (a line break at a chunk's end is held until the next byte tells a fold from a new line),
 * and lets everything after the head through untouched. A line break followed by a space right
 * after the status line is no fold (no field value to continue) and is left for the parser to refuse.
 */

const LF = 0x0a
const CR = 0x0d
const SP = 0x20
const HTAB = 0x09

/** Past this many bytes of head the client reads no more of it (lib/http/transport-errors.ts MAX_HEAD_BYTES): the unfolding stops there too. */
const MAX_SCANNED = 64 * 1024 + 1

export class HeadUnfolder {
  private inHead = false
  /** The status line has ended: a fold after it continues a field value. */
  private pastStatusLine = false
  /** A line break at the end of the last chunk, held until the next byte says what it is. */
  private held: Buffer | undefined
  private scanned = 0

  /** A final answer begins with the next byte. */
  answerBegins(): void {
    this.inHead = true
    this.pastStatusLine = false
    this.held = undefined
    this.scanned = 0
  }

  /** The bytes to hand on for `chunk`: folds in the head unfolded, a line break at its end held back. */
  feed(chunk: Buffer): Buffer {
    if (!this.inHead) return chunk
    const bytes = this.held ? Buffer.concat([this.held, chunk]) : chunk
    this.held = undefined
    let copied: Buffer | undefined
    for (let at = bytes.indexOf(LF); at >= 0; at = bytes.indexOf(LF, at + 1)) {
      const lineStart = at > 0 && bytes[at - 1] === CR ? at - 1 : at
      const next = bytes[at + 1]
      if (next === undefined) {
        // the chunk ends on a line break: the next chunk tells a fold, a new line or the head's end apart
        this.held = Buffer.from(bytes.subarray(lineStart))
        return this.counted((copied ?? bytes).subarray(0, lineStart))
      }
      if (!this.pastStatusLine) {
        this.pastStatusLine = true
      } else if (next === SP || next === HTAB) {
        copied ??= Buffer.from(bytes)
        copied.fill(SP, lineStart, at + 1)
        continue
      }
      // an empty line: the head ends, the rest is body
      if (next === LF || (next === CR && (bytes[at + 2] === LF || bytes[at + 2] === undefined))) {
        if (next === CR && bytes[at + 2] === undefined) {
          this.held = Buffer.from(bytes.subarray(lineStart))
          return this.counted((copied ?? bytes).subarray(0, lineStart))
        }
        this.inHead = false
        return copied ?? bytes
      }
    }
    const out = copied ?? bytes
    // a CR at the chunk's end may begin a line break
    if (out[out.length - 1] === CR) {
      this.held = Buffer.from(out.subarray(out.length - 1))
      return this.counted(out.subarray(0, out.length - 1))
    }
    return this.counted(out)
  }

  /** Counts the head's bytes handed on; past what the client reads, the rest goes through as it is (undici refuses the head). */
  private counted(out: Buffer): Buffer {
    this.scanned += out.length
    if (this.scanned > MAX_SCANNED) {
      this.inHead = false
      const held = this.held
      this.held = undefined
      return held ? Buffer.concat([out, held]) : out
    }
    return out
  }

  /** The bytes held back when the connection ends: the parser gets them, to judge them as it would have. */
  flush(): Buffer | undefined {
    const held = this.held
    this.held = undefined
    return held
  }
}
