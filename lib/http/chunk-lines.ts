/**
 * Spaces around a chunk extension's `;` and `=` (BWS) taken out of a chunked body's size lines
 * before the parser reads them. RFC 9112 §7.1.1 writes the chunk extension as
 * `*( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`, and RFC 9110 §5.6.3 asks of a
 * recipient that it "MUST parse for such bad whitespace and remove it before interpreting the
 * protocol element": a size line `5 ;ext=1` is valid, and undici's parser refuses it ("Invalid
 * character in chunk size"), so a conforming server that writes one failed every check its
 * answers reached. What undici does with an extension once read is nothing: it never reads them.
 *
 * Only whitespace next to a `;` or an `=` outside a quoted string is taken out; any other (`5 \r\n`,
 * `5;a b`, after the last value) is left for the parser to refuse, as the grammar has no place for
 * it. Data passes untouched, counted by the size lines, until the last chunk (size 0): its trailer
 * fields are held until the empty line after them, and go on with their folded lines unfolded
 * (obs-fold, RFC 9112 §5.2, as in a head: lib/http/folded-headers.ts); the body ends there (§7.1),
 * and what follows is no part of this answer (`surplus`, lib/http/interim-answers.ts judges it).
 * A line ended by a bare LF, a size line, the end of a chunk's data or a trailer line, is given its
 * CR: RFC 9112 §2.2 lets a recipient take a bare LF for the line's end, as curl, Go and browsers
 * do, and undici's parser refuses it ("Missing expected CR after chunk size"). A size
 * line longer than MAX_LINE, or one that does not begin with hexadecimal digits, ends the work: the
 * parser judges the rest as ever, and where the body ends is not known.
 */

const LF = 0x0a
const CR = Buffer.from('\r')
const HEX = /^[0-9A-Fa-f]$/
/** A size line held back while it is incomplete is at most this long; past it the bytes go through as they are. */
const MAX_LINE = 4 * 1024
/** More hexadecimal digits than this is a size the parser refuses on its own (past 2^48). */
const MAX_SIZE_DIGITS = 12

/** The extension part of a size line (after its digits, before CR) with the whitespace next to `;` and `=` outside quotes taken out. */
export function withoutBadWhitespace(extension: string): string {
  let out = ''
  let quoted = false
  for (let i = 0; i < extension.length; ) {
    const c = extension[i] as string
    if (quoted) {
      const escaped = c === '\\' && i + 1 < extension.length
      out += escaped ? c + extension[i + 1] : c
      if (c === '"') quoted = false
      i += escaped ? 2 : 1
    } else if (c === ' ' || c === '\t') {
      let end = i
      while (extension[end] === ' ' || extension[end] === '\t') end++
      const before = out[out.length - 1]
      const after = extension[end]
      if (!(before === ';' || before === '=' || after === ';' || after === '=')) out += extension.slice(i, end)
      i = end
    } else {
      if (c === '"') quoted = true
      out += c
      i++
    }
  }
  return out
}

/** One chunked body's bytes, from the first byte after the head: size lines read, their bad whitespace taken out. */
export class ChunkLines {
  private state: 'size' | 'data' | 'data-end' | 'trailers' | 'ended' | 'rest' = 'size'
  /** Data bytes of the current chunk still to come. */
  private remaining = 0
  /** A line begun at the end of the last chunk, held back until its LF. */
  private held: Buffer | undefined
  /** Bytes past the body's end (after the empty line that ends its trailers), not handed on. */
  surplus: Buffer | undefined
  /** A line where a chunk's size was due that begins with no hexadecimal digit (the parser refused it as "Invalid character in chunk size", said as a body cut short). */
  notChunked: string | undefined
  /** The trailer section's lines so far (CR and LF taken off), held until its empty line, and their bytes. */
  private trailers: string[] = []
  private trailerBytes = 0

  /** Nothing more to read: the body ended, or its size lines are not read any more. */
  private done(): boolean {
    return this.state === 'rest' || this.state === 'ended'
  }

  /** The body ended: its last chunk and trailers came whole. */
  get ended(): boolean {
    return this.state === 'ended'
  }

  feed(chunk: Buffer): Buffer {
    if (this.state === 'rest') return chunk
    if (this.state === 'ended') {
      this.surplus = this.surplus ? Buffer.concat([this.surplus, chunk]) : chunk
      return Buffer.alloc(0)
    }
    const bytes = this.held ? Buffer.concat([this.held, chunk]) : chunk
    this.held = undefined
    const out: Buffer[] = []
    let from = 0 // the first byte not yet in `out`
    let at = 0
    while (at < bytes.length && !this.done()) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, bytes.length - at)
        at += take
        this.remaining -= take
        if (this.remaining === 0) this.state = 'data-end'
        continue
      }
      const lf = bytes.indexOf(LF, at)
      if (lf < 0) {
        // a size line begun without a hexadecimal digit is none, whatever comes after (a JSON body with no line break)
        if (this.state === 'size' && !HEX.test(String.fromCharCode(bytes[at] as number))) this.notChunked = bytes.toString('latin1', at, at + 64)
        if (bytes.length - at > MAX_LINE || this.notChunked !== undefined) {
          this.state = 'rest'
          break
        }
        this.held = Buffer.from(bytes.subarray(at))
        out.push(bytes.subarray(from, at))
        return out.length === 1 ? (out[0] as Buffer) : Buffer.concat(out)
      }
      if (this.state === 'data-end') {
        // a bare LF after the data, given its CR
        if (lf === at) {
          out.push(bytes.subarray(from, at), CR)
          from = at
        }
        this.state = 'size'
        at = lf + 1
        continue
      }
      if (this.state === 'trailers') {
        // no trailer field: the empty line ends the body, as it came
        if (this.trailers.length === 0 && lf === at + 1 && bytes[at] === 0x0d) {
          this.state = 'ended'
          at = lf + 1
          continue
        }
        // a trailer field line, or the empty line that ends the body: the section goes on mended at its end
        out.push(bytes.subarray(from, at))
        from = lf + 1
        const line = bytes.toString('latin1', at, lf).replace(/\r$/, '')
        at = lf + 1
        this.trailerBytes += line.length
        if (line !== '' && this.trailerBytes <= MAX_LINE) this.trailers.push(line)
        else out.push(this.trailerSection(line === '' ? 'ended' : 'rest', line))
        continue
      }
      const line = bytes.toString('latin1', at, lf)
      const digits = /^[0-9A-Fa-f]*/.exec(line)?.[0] ?? ''
      if (digits.length === 0 || digits.length > MAX_SIZE_DIGITS) {
        // no size where one was due: a body said chunked that does not come in chunks (a header added by hand, or by a proxy)
        if (digits.length === 0) this.notChunked = line.replace(/\r$/, '')
        this.state = 'rest'
        break
      }
      const cr = line.endsWith('\r')
      const extension = line.slice(digits.length, line.length - (cr ? 1 : 0))
      const mended = /[ \t]/.test(extension) ? withoutBadWhitespace(extension) : extension
      // a bare LF ends it too (RFC 9112 §2.2 lets a recipient take LF for CRLF): given its CR
      if (mended !== extension || !cr) {
        out.push(bytes.subarray(from, at), Buffer.from(`${digits}${mended}\r`, 'latin1'))
        from = lf
      }
      const size = parseInt(digits, 16)
      this.state = size === 0 ? 'trailers' : 'data'
      this.remaining = size
      at = lf + 1
    }
    // past the body's end: kept apart, a copy (a TLS socket reuses a chunk's memory)
    const end = this.ended ? at : bytes.length
    if (end < bytes.length) this.surplus = Buffer.from(bytes.subarray(end))
    if (from === 0) return end === bytes.length ? bytes : bytes.subarray(0, end)
    out.push(bytes.subarray(from, end))
    return Buffer.concat(out)
  }

  /**
   * The trailer section held so far, to hand on: each line ended by CRLF, folded lines (obs-fold)
   * unfolded as in a head (RFC 9112 §5.2: a user agent replaces each with spaces), and `last` after
   * them: the empty line that ends the body ('ended'), or a line past MAX_LINE, after which the rest
   * goes on as it comes ('rest').
   */
  private trailerSection(state: 'ended' | 'rest', last: string): Buffer {
    const lines: string[] = []
    for (const line of this.trailers) {
      if ((line[0] === ' ' || line[0] === '\t') && lines.length > 0) lines[lines.length - 1] += ` ${line}`
      else lines.push(line)
    }
    this.trailers = []
    this.state = state
    return Buffer.from(`${[...lines, last].join('\r\n')}\r\n`, 'latin1')
  }

  /** A line held back when the connection ends, after the trailer lines held: the parser gets them, to judge them as it would have. */
  flush(): Buffer | undefined {
    const held = this.held
    this.held = undefined
    const trailers = this.trailers.length > 0 ? Buffer.from(this.trailers.map((line) => `${line}\r\n`).join(''), 'latin1') : undefined
    this.trailers = []
    return trailers && held ? Buffer.concat([trailers, held]) : (trailers ?? held)
  }
}
