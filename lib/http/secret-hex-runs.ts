/**
 * A secret's bytes written out in hex and cut short: a run of hex (Node's `toString('hex')`, .NET's
 * BitConverter `6B-65-79`, Node's inspect `6b 65 79`, a colon-separated dump), in either case, of
 * ASCII or its UTF-16 (NUL bytes dropped). Only the whole of such a form was hidden: a server that
 * echoed the first two thirds of a key's hex gave back two thirds of the key. Each run of 8 bytes
 * or more is decoded, as withEscapeRuns decodes a run of escapes, and hidden whole when what it
 * decodes to holds what the redactor hides (a run of the key): one scan for runs of hex, and a text
 * without one (most of a report's) is not looked at again.
 */

/**
 * 8 to 256 bytes in hex, a space, colon or dash between two if any, and an odd digit at the end (an
 * echo cut there), after 0x too, not after a byte and its separator (within a longer run). A longer run (a dump of a whole body) is passed over: walked to its end, megabytes
 * of one hex letter took three times as long to redact (190 ms to 580 for 6 MB).
 */
const HEX_RUN = /(?:(?<=0x)|(?<![0-9A-Za-z]|[0-9a-fA-F][ :-]))(?:[0-9a-fA-F]{2}[ :-]?){7}[0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2}){0,248}[0-9a-fA-F]?(?![0-9A-Za-z])/g

/**
 * Six bytes of printable ASCII in a row (a UTF-16 NUL after each if so), read off the hex digits
 * before any is decoded: a run of a secret is 6 characters or more (SHORT_KEY_RUN), and the bytes
 * of a trace id or a hash seldom are (3 in 1000 places): the runs of a report's hex are passed over
 * at the cost of one pattern. A key beyond ASCII is not looked for in its UTF-8 cut short.
 */
const ASCII_RUN_IN_HEX = /(?:[2-7][0-9a-fA-F][ :-]?(?:00[ :-]?)?){6}/

/** `redact`, and then each run of hex whose bytes decoded (Latin-1 without NULs) `holds` (a run of a secret: redact.ts's runs step), as `replacement`. */
export function withHexRuns(redact: (text: string) => string, holds: (bytes: string) => boolean, replacement: string): (text: string) => string {
  return (text) => {
    const redacted = redact(text)
    if (redacted.length < 16) return redacted
    return redacted.replace(HEX_RUN, (run) => {
      if (!ASCII_RUN_IN_HEX.test(run)) return run
      const bytes = Buffer.from(run.replace(/[ :-]/g, ''), 'hex')
      const latin1 = bytes.toString('latin1').replaceAll('\u0000', '')
      return holds(latin1) ? replacement : run
    })
  }
}
