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
export const HEX_RUN = /(?:(?<=0x)|(?<![0-9A-Za-z]|[0-9a-fA-F][ :-]))(?:[0-9a-fA-F]{2}[ :-]?){7}[0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2}){0,248}[0-9a-fA-F]?(?![0-9A-Za-z])/g

/**
 * Six bytes of printable ASCII in a row (a UTF-16 NUL after each if so), read off the hex digits
 * before any is decoded: a run of a secret is 6 characters or more (SHORT_KEY_RUN), and the bytes
 * of a trace id or a hash seldom are (3 in 1000 places): the runs of a report's hex are passed over
 * at the cost of one pattern. A key beyond ASCII is not looked for in its UTF-8 cut short.
 */
const ASCII_RUN_IN_HEX = /(?:[2-7][0-9a-fA-F][ :-]?(?:00[ :-]?)?){6}/
/** The same, each place in a text in turn. */
const NEXT_ASCII_RUN = new RegExp(ASCII_RUN_IN_HEX.source, 'g')

/** Whether a character may be part of a run of hex (HEX_RUN matches only these). */
const inRun = (code: number) =>
  (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66) || code === 0x20 || code === 0x3a || code === 0x2d

/**
 * `text` with HEX_RUN's runs replaced by `replace`, as text.replace(HEX_RUN, replace) would, where
 * `replace` leaves a run without ASCII_RUN_IN_HEX as it is. A run is made of inRun characters only,
 * so no run spans a character that is not one: the text falls into stretches of them, and a scan
 * of the whole text reaches the start of each stretch with no run begun. Only a stretch that holds
 * an ASCII_RUN_IN_HEX (itself made of such characters) can hold a run `replace` changes: the others,
 * most of a report's hex (its trace ids and UUIDs: 28,930 runs in a fleet of ten, 1,353 stretches
 * with ASCII in them), are not scanned for runs. A stretch is scanned with the two characters
 * before it (HEX_RUN's look-behind) and the one after it (its look-ahead) as they are in the text.
 * The runs of a fleet of ten's texts took 160 ms of CPU scanned whole, 20 with this.
 */
export function replacedRuns(text: string, replace: (run: string) => string): string {
  NEXT_ASCII_RUN.lastIndex = 0
  let found = NEXT_ASCII_RUN.exec(text)
  if (found === null) return text
  let out = ''
  let copied = 0
  while (found !== null) {
    let start = found.index
    while (start > 0 && inRun(text.charCodeAt(start - 1))) start--
    let end = found.index + found[0].length
    while (end < text.length && inRun(text.charCodeAt(end))) end++
    // with its context, which no run takes in (no inRun character), cut off again after
    const from = Math.max(0, start - 2)
    const stretch = text.slice(from, end + 1)
    const after = stretch.length - (end - from)
    const replaced = stretch.replace(HEX_RUN, replace)
    out += text.slice(copied, start) + replaced.slice(start - from, replaced.length - after)
    copied = end
    NEXT_ASCII_RUN.lastIndex = end
    found = NEXT_ASCII_RUN.exec(text)
  }
  return out + text.slice(copied)
}

/** `redact`, and then each run of hex whose bytes decoded (Latin-1 without NULs) `holds` (a run of a secret: redact.ts's runs step), as `replacement`. */
export function withHexRuns(redact: (text: string) => string, holds: (bytes: string) => boolean, replacement: string): (text: string) => string {
  return (text) => {
    const redacted = redact(text)
    if (redacted.length < 16) return redacted
    return replacedRuns(redacted, (run) => {
      if (!ASCII_RUN_IN_HEX.test(run)) return run
      const bytes = Buffer.from(run.replace(/[ :-]/g, ''), 'hex')
      const latin1 = bytes.toString('latin1').replaceAll('\u0000', '')
      return holds(latin1) ? replacement : run
    })
  }
}
