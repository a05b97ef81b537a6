/**
 * A secret's bytes written out in hex and cut short: a run of hex (Node's `toString('hex')`, .NET's
 * BitConverter `6B-65-79`, Node's inspect `6b 65 79`, a colon-separated dump), in either case, of
 * ASCII or its UTF-16 (NUL bytes dropped), or its bytes listed in decimal (`[115, 107, 95, …]`,
 * `115,107,95`, Go's `[115 107 95]`) or as `0x73, 0x6b`. Only the whole of such a form was hidden: a server that
 * echoed the first two thirds of a key's hex gave back two thirds of the key. Each run of 8 bytes
 * or more is decoded, as withEscapeRuns decodes a run of escapes, and hidden where what it
 * decodes to holds what the redactor hides (a run of the key): one scan for runs of hex, and a text
 * without one (most of a report's) is not looked at again.
 */

import { longStretches, withinStretches } from './long-hex-stretches.ts'

/**
 * 8 to 256 bytes in hex, a space, colon or dash between two if any, and an odd digit at the end (an
 * echo cut there), after 0x too, not after a byte and its separator (within a longer run; hex after
 * `a ` or `12345-` is eachStretch's). A longer
 * run (a dump of a whole body) is LONG_HEX_START's. Each pattern's first digit stands before its
 * look behind, so that V8 looks for the digit first: half the time over a run's results.json.
 */
export const HEX_RUN = /[0-9a-fA-F](?:(?<=0x[0-9a-fA-F])|(?<![0-9A-Za-z][0-9a-fA-F]|[0-9a-fA-F][ :-][0-9a-fA-F]))[0-9a-fA-F][ :-]?(?:[0-9a-fA-F]{2}[ :-]?){6}[0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2}){0,248}[0-9a-fA-F]?(?![0-9A-Za-z])/g

/**
 * The start of more than 256 bytes of hex, their digits together or one separator between every
 * two: a dump of a whole body, which HEX_RUN passes over. Its end is found a character at a time
 * (longRunEnd): a pattern walked to it took three times as long over megabytes of one hex letter
 * (190 ms to 580 for 6 MB), and one without a bound ran out of stack there.
 */
export const LONG_HEX_START = /[0-9a-fA-F](?<![0-9A-Za-z][0-9a-fA-F]|[0-9a-fA-F][ :-][0-9a-fA-F])(?:[0-9a-fA-F]{513}|[0-9a-fA-F][ :-](?:[0-9a-fA-F]{2}[ :-]){255}[0-9a-fA-F])/g

/** The first character past a run of hex digits; and a step of up to 4096 bytes each with its separator (bounded: a step without a bound ran out of stack over megabytes). */
const PAST_DIGITS = /[^0-9a-fA-F]|$/g
const SEPARATED_STEP = /(?:[0-9a-fA-F]{2}[ :-]){1,4096}/y

/** Where the long run of hex from `start` ends: its digits together, or one separator between every two, as its first 257 bytes are. */
function longRunEnd(text: string, start: number): number {
  if (!/[ :-]/.test(text.charAt(start + 2))) {
    PAST_DIGITS.lastIndex = start
    return PAST_DIGITS.exec(text)!.index
  }
  let at = start
  for (SEPARATED_STEP.lastIndex = at; SEPARATED_STEP.test(text); ) at = SEPARATED_STEP.lastIndex
  // the last byte, without a separator after it (or a digit of it: an echo cut there); a separator left at the end is not the run's
  const last = /^[0-9a-fA-F]{1,2}/.exec(text.slice(at, at + 2))
  return last ? at + last[0].length : at - 1
}

/** The next match of a global pattern from `at`, as its exec from lastIndex `at` finds it. */
export type Finder = (text: string, at: number) => RegExpExecArray | null
const finderOf = (start: RegExp): Finder => (text, at) => ((start.lastIndex = at), start.exec(text))

/** `text` with each span `start` finds, to the end `endOf` gives it, given to `hide`. */
function eachSpan(text: string, start: RegExp | Finder, endOf: (match: RegExpExecArray) => number, hide: (span: string) => string, startOf = (match: RegExpExecArray) => match.index): string {
  let out = ''
  let from = 0
  const find = typeof start === 'function' ? start : finderOf(start)
  for (let match = find(text, 0); match !== null; ) {
    const end = endOf(match)
    const begin = Math.max(from, startOf(match))
    const span = text.slice(begin, end)
    const shown = hide(span)
    // a span left as it was leaves the text as it was: not copied (6 MB of one hex letter)
    if (shown !== span) {
      out += text.slice(from, begin) + shown
      from = end
    }
    match = find(text, end)
  }
  return from === 0 ? text : out + text.slice(from)
}

/** `text` with each long run of hex (LONG_HEX_START) given to `hide`: looked for only in the stretches that can hold one (longStretches). */
const eachLongRun = (text: string, hide: (run: string) => string): string => {
  const stretches = longStretches(text)
  return stretches.length === 0 ? text : eachSpan(text, withinStretches(stretches, LONG_HEX_START), (match) => longRunEnd(text, match.index), hide)
}


/** A long run is decoded in windows of this many bytes, each overlapping the next by half: only the windows that hold a run of a secret are hidden, not the whole dump. */
const WINDOW_BYTES = 128

/**
 * Six bytes or more listed in decimal or as 0x hex, a comma (and any spaces or line breaks) or
 * spaces between two, cut anywhere (its last number cut short too): Python's
 * `list(token.encode())`, Java's Arrays.toString, Go's `fmt.Println([]byte(token))`, Node's
 * `[...Buffer.from(token)]` and JSON of a Buffer (pretty-printed too), a C array's `0x63, 0x6e`;
 * of UTF-16 too (a 0 after each); zero-padded (`115 107 095`, C's `%03d`, a log's aligned columns: they stood whole), but 000, whose lists (a buffer of NULs) cost twice the time to walk.
 * Not glued to a letter, digit or dot. A list within one is looked for too: a list found goes on
 * (byteListEnd), and one not found hides nothing, where a number and a separator before a byte (`1000,\n  115,`, `v1.2 115 …`)
 * kept a key's bytes listed whole (review50).
 */
const BYTE = String.raw`(?:0[xX][0-9a-fA-F]{1,2}|25[0-5]|2[0-4][0-9]|1[0-9][0-9]|0[1-9][0-9]?|00[1-9]|[1-9]?[0-9])`
/** A comma or semicolon (`115;107;95`), spaces or line breaks between two bytes listed; a line break as JSON escapes it too (a body in the journal's JSON lines). */
const BETWEEN = String.raw`(?:[,;](?:\s|\\[nrt]){0,64}|(?:\s|\\[nrt]){1,64})`
/**
 * A list's first six bytes, not within a list; the rest is walked a bounded step at a time (byteListEnd): one pattern
 * `(?:BYTE BETWEEN){5,}` over a list of megabytes ran out of stack (RangeError: 8 MB of `1,`, or 7 bytes and 10 MB of
 * spaces, a create's id) and every check that redacted it ended as CHECK_ERROR; so did an unbounded run of spaces.
 */
const BYTE_LIST_START = new RegExp(String.raw`(?<![0-9A-Za-z.])(?:${BYTE}${BETWEEN}){5}${BYTE}(?![0-9A-Za-z.])`, 'g')
const BYTE_LIST_STEP = new RegExp(String.raw`(?:${BETWEEN}${BYTE}){1,4096}(?![0-9A-Za-z.])`, 'y')

/**
 * Bytes listed in hex without 0x, a comma between two: Rust's `{:x?}` of a byte slice (`[5a, 71, 7, 38]`). They stood
 * whole: only runs of hex with a space, colon or dash between bytes were read.
 */
const HEX_ITEM = String.raw`[0-9a-fA-F]{1,2}`
// its first digit before the look behind (HEX_RUN's): the look behind first took 12 s over 10 MB of spaces after a list. Not a list
// within one looked for: a list found goes on at its commas (HEX_LIST_STEP), and one not found hides nothing; a hex digit and a space
// or semicolon before an item (`are 4a, 68, …`, `1;4a, …`, `[100, 4a, …`) kept a key's bytes listed whole (review50)
export const HEX_LIST_START = new RegExp(String.raw`[0-9a-fA-F](?<![0-9A-Za-z.][0-9a-fA-F])[0-9a-fA-F]?,(?:\s|\\[nrt]){0,64}(?:${HEX_ITEM},(?:\s|\\[nrt]){0,64}){4}${HEX_ITEM}(?![0-9A-Za-z.])`, 'g')
const HEX_LIST_STEP = new RegExp(String.raw`(?:,(?:\s|\\[nrt]){0,64}${HEX_ITEM}){1,4096}(?![0-9A-Za-z.])`, 'y')
/**
 * HEX_LIST_START's next match from `at`, looked for only where one can start: every list holds its first comma, spaces,
 * an item and a comma (HEX_LIST_COMMAS) from the second or third character of its match. The pattern over a whole text
 * (its first digit and its look behind tried at every hex digit of a report) was the costliest of this file's in a
 * fleet of ten, for one list found in 64,000 texts: those texts' lists found in 23 ms of CPU instead of 58 (perf33).
 */
const HEX_LIST_COMMAS = new RegExp(String.raw`,(?=(?:\s|\\[nrt]){0,64}${HEX_ITEM},)`, 'g')
const HEX_LIST_AT = new RegExp(HEX_LIST_START.source, 'y')
export const nextHexList: Finder = (text, at) => {
  HEX_LIST_COMMAS.lastIndex = at + 1
  for (let comma = HEX_LIST_COMMAS.exec(text); comma !== null; comma = HEX_LIST_COMMAS.exec(text)) {
    for (let start = Math.max(at, comma.index - 2); start < comma.index; start++) {
      HEX_LIST_AT.lastIndex = start
      const match = HEX_LIST_AT.exec(text)
      if (match !== null) return match
    }
  }
  return null
}

/** Bytes as 0x hex glued together (`0x5a0x710x38…`): stood whole, no separator between two. The look behind after `0x`, which V8 then looks for first. */
const GLUED_START = /0[xX](?<![0-9A-Za-z]0[xX])[0-9a-fA-F]{1,2}(?:0[xX][0-9a-fA-F]{1,2}){5}/g
const GLUED_STEP = /(?:0[xX][0-9a-fA-F]{1,2}){1,4096}/y

/**
 * Lines of hex, 4 bytes or more the first, a line break (JSON's `\n` too, and escaped again: a JSON body in results.json) and any spaces or tabs between two: a key's hex wrapped
 * (`fold -w 16`, a log that wraps long values), each line of it a run of the key too short to be hidden on its own. Read joined.
 * Found at its first line break, the first line in a look behind (its length in group 1): a pattern that starts at a hex digit
 * tried every digit of a results.json.
 */
const HEX_LINE = String.raw`[0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2})*[0-9a-fA-F]?`
const BREAK = String.raw`(?:\r?\n|\\{1,4}r\\{1,4}n|\\{1,4}n)`
const LINE_BREAK = String.raw`${BREAK}[ \t]{0,64}`
const WRAPPED_START = new RegExp(String.raw`${BREAK}(?<=(?<![0-9A-Za-z])([0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2}){3,}[0-9a-fA-F]?[ \t]{0,64})${BREAK})[ \t]{0,64}${HEX_LINE}(?![0-9A-Za-z])`, 'g')
const WRAPPED_STEP = new RegExp(String.raw`(?:[ \t]{0,64}${LINE_BREAK}${HEX_LINE}(?![0-9A-Za-z])){1,4096}`, 'y')

/** `text` with each list of bytes (`start`, then its `step`s, each bounded) given to `hide`. */
function eachList(text: string, start: RegExp | Finder, step: RegExp, hide: (run: string) => string, startOf?: (match: RegExpExecArray) => number): string {
  return eachSpan(text, start, (match) => {
    let end = match.index + match[0].length
    for (step.lastIndex = end; step.test(text); ) end = step.lastIndex
    return end
  }, hide, startOf)
}
const BETWEEN_BYTES = new RegExp(BETWEEN)

/** Whether `bytes` hold six of printable ASCII in a row, a NUL (UTF-16's) between two kept out of the count: what a run of a secret is. */
function holdsAsciiRun(bytes: Uint8Array): boolean {
  let run = 0
  for (const byte of bytes) {
    if (byte >= 0x20 && byte <= 0x7e) run++
    else if (byte !== 0) run = 0
    if (run >= 6) return true
  }
  return false
}

/**
 * Six bytes of printable ASCII in a row (a UTF-16 NUL after each if so), read off the hex digits
 * before any is decoded: a run of a secret is 6 characters or more (SHORT_KEY_RUN), and the bytes
 * of a trace id or a hash seldom are (3 in 1000 places): the runs of a report's hex are passed over
 * at the cost of one pattern. A secret beyond ASCII (a --header value with an é) is looked for
 * with BEYOND_ASCII_RUN_IN_HEX, where a UTF-8 or Latin-1 byte past 0x7f may stand for one.
 */
const ASCII_RUN_IN_HEX = /(?:[2-7][0-9a-fA-F][ :-]?(?:00[ :-]?)?){6}/
const BEYOND_ASCII_RUN_IN_HEX = /(?:[2-7a-fA-F8-9][0-9a-fA-F][ :-]?(?:00[ :-]?)?){6}/
/** The same, each place in a text in turn. */
const NEXT_ASCII_RUN = new RegExp(ASCII_RUN_IN_HEX.source, 'g')
const NEXT_BEYOND_ASCII_RUN = new RegExp(BEYOND_ASCII_RUN_IN_HEX.source, 'g')
/** The same, within a stretch replacedRuns has found (eachStretch): not the one replacedRuns goes on with. */
const INNER_ASCII_RUN = new RegExp(ASCII_RUN_IN_HEX.source, 'g')
const INNER_BEYOND_ASCII_RUN = new RegExp(BEYOND_ASCII_RUN_IN_HEX.source, 'g')

/** Whether a character code is a hex digit (secret-dumps.ts reads its lines with it too). */
export const isHexDigit = (code: number) => (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66)
/** Whether a character may be part of a run of hex (HEX_RUN matches only these). */
const inRun = (code: number) => isHexDigit(code) || code === 0x20 || code === 0x3a || code === 0x2d

/**
 * `text` with HEX_RUN's runs replaced by `replace`, as text.replace(HEX_RUN, replace) would, where
 * `replace` leaves a run without a match of `prefilter` (ASCII_RUN_IN_HEX's, or BEYOND_ASCII_RUN_IN_HEX's, global) as it is. A run is made of inRun characters only,
 * so no run spans a character that is not one: the text falls into stretches of them, and a scan
 * of the whole text reaches the start of each stretch with no run begun. Only a stretch that holds
 * a match of the prefilter (itself made of such characters) can hold a run `replace` changes: the others,
 * most of a report's hex (its trace ids and UUIDs: 28,930 runs in a fleet of ten, 1,353 stretches
 * with ASCII in them), are not scanned for runs. A stretch is scanned with the two characters
 * before it (HEX_RUN's look-behind, 0x) and the one after it (its look-ahead) as they are in the text.
 * The runs of a fleet of ten's texts took 160 ms of CPU scanned whole, 20 with this (perf31).
 * Each stretch, its runs replaced, is given to `then` (withHexRuns' eachStretch: the hex no run starts in).
 */
export function replacedRuns(text: string, replace: (run: string) => string, prefilter: RegExp = NEXT_ASCII_RUN, then: (stretch: string) => string = (stretch) => stretch): string {
  prefilter.lastIndex = 0
  let found = prefilter.exec(text)
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
    out += text.slice(copied, start) + then(replaced.slice(start - from, replaced.length - after))
    copied = end
    prefilter.lastIndex = end
    found = prefilter.exec(text)
  }
  return out + text.slice(copied)
}

/**
 * `text` with each stretch of inRun characters that holds a match of `prefilter` (global) given to
 * `hide`: the hex HEX_RUN starts no run in, as it does not after a digit and a separator (`is a
 * 636e…`, `2024-11-28 636e…`, `12345-636e…`, `v1:636e…`), which it takes for the inside of a longer run.
 */
function eachStretch(text: string, hide: (stretch: string) => string, prefilter: RegExp): string {
  let out = ''
  let copied = 0
  prefilter.lastIndex = 0
  for (let found = prefilter.exec(text); found !== null; found = prefilter.exec(text)) {
    let start = found.index
    while (start > 0 && inRun(text.charCodeAt(start - 1))) start--
    let end = found.index + found[0].length
    while (end < text.length && inRun(text.charCodeAt(end))) end++
    out += text.slice(copied, start) + hide(text.slice(start, end))
    copied = end
    prefilter.lastIndex = end
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** `bytes` read as text both ways a secret's bytes are: Latin-1 (NULs of UTF-16 dropped), and UTF-8 for a secret beyond ASCII. */
const readings = (bytes: Buffer, beyondAscii: boolean) => {
  const latin1 = bytes.toString('latin1').replaceAll('\u0000', '')
  return beyondAscii ? [latin1, bytes.toString('utf8').replaceAll('\u0000', '')] : [latin1]
}

/**
 * `redact`, and then each run of hex or of decimal bytes whose bytes decoded `holds` (a run of a
 * secret: redact.ts's runs step), as `replacement`; of a long run, the windows that hold one.
 * `beyondAscii`: some secret has a character past ASCII, looked for in UTF-8 too.
 */
export function withHexRuns(redact: (text: string) => string, holds: (bytes: string) => boolean, replacement: string, beyondAscii = false): (text: string) => string {
  const prefilter = beyondAscii ? BEYOND_ASCII_RUN_IN_HEX : ASCII_RUN_IN_HEX
  const heldIn = (bytes: Buffer) => readings(bytes, beyondAscii).some(holds)
  const hexHidden = (redacted: string): string => {
    // the runs read and found without a secret, not read again as a stretch (6 MB of one hex digit, an ASCII word's hex)
    const clean = new Set<string>()
    const longRunsHidden = eachLongRun(redacted, (run) => {
      const shown = prefilter.test(run) ? longRunHidden(run, heldIn, replacement) : run
      if (shown === run) clean.add(run)
      return shown
    })
    // the runs of hex scanned only in the stretches of hex that hold the prefilter's run (replacedRuns)
    // read from its first digit and from its second: a key's hex cut inside a byte at its start, or after an odd digit of other hex, is out of step
    const hidden = (run: string) => {
      if (!prefilter.test(run)) return run
      const digits = run.replace(/[ :-]/g, '')
      if (heldIn(Buffer.from(digits, 'hex')) || heldIn(Buffer.from(digits.slice(1), 'hex'))) return replacement
      clean.add(run)
      return run
    }
    // then what is left of each such stretch, read in windows as a long run is (eachStretch)
    const stray = (stretch: string) => (clean.has(stretch) ? stretch : longRunHidden(stretch, heldIn, replacement))
    const inner = beyondAscii ? INNER_BEYOND_ASCII_RUN : INNER_ASCII_RUN
    const withHex = replacedRuns(longRunsHidden, hidden, beyondAscii ? NEXT_BEYOND_ASCII_RUN : NEXT_ASCII_RUN, (stretch) => eachStretch(stretch, stray, inner))
    const hiddenIfHeld = (run: string, bytes: Buffer) => ((beyondAscii || holdsAsciiRun(bytes)) && heldIn(bytes) ? replacement : run)
    const listed = eachList(withHex, BYTE_LIST_START, BYTE_LIST_STEP, (run) => hiddenIfHeld(run, Buffer.from(run.split(BETWEEN_BYTES).map(Number))))
    const hexListed = eachList(listed, nextHexList, HEX_LIST_STEP, (run) => hiddenIfHeld(run, Buffer.from(run.split(/[^0-9a-fA-F]+/).map((item) => parseInt(item, 16)))))
    const glued = eachList(hexListed, GLUED_START, GLUED_STEP, (run) => hiddenIfHeld(run, Buffer.from(run.split(/0[xX]/).slice(1).map((item) => parseInt(item, 16)))))
    return eachList(glued, WRAPPED_START, WRAPPED_STEP, (run) => longRunHidden(run, heldIn, replacement), (match) => match.index - match[1]!.length)
  }
  return (text) => {
    const redacted = redact(text)
    if (redacted.length < 16) return redacted
    // what a replacement left beside it (a stretch's rest past its hidden window, the tail of a run cut at 256
    // bytes) is read again, on its own: the replacement ends its context. Once was not enough: "-9f3Kx7" of a
    // secret stood in hex after a [REDACTED] in one random text of about 9,000 (test/http/redact-hex-no-leak.test.ts)
    let out = hexHidden(redacted)
    for (let pass = 0, before = redacted; pass < 3 && out !== before; pass++) [before, out] = [out, hexHidden(out)]
    return out
  }
}

/**
 * A long run of hex (or lines of it, WRAPPED_START's: what is not a digit stands between two) with each window of WINDOW_BYTES
 * that holds a secret's run (at either digit's alignment) replaced, the windows next to each other as one.
 */
function longRunHidden(run: string, heldIn: (bytes: Buffer) => boolean, replacement: string): string {
  const digits = run.replace(/[^0-9a-fA-F]/g, '')
  const aligned = [0, 1].map((at) => Buffer.from(digits.slice(at, at + 2 * Math.floor((digits.length - at) / 2)), 'hex'))
  if (!aligned.some(heldIn)) return run
  // where each digit stands in the run
  const digitAt: number[] = []
  for (let i = 0; i < run.length; i++) if (isHexDigit(run.charCodeAt(i))) digitAt.push(i)
  const hidden: [number, number][] = []
  aligned.forEach((bytes, at) => {
    for (let start = 0; start < bytes.length; start += WINDOW_BYTES / 2) {
      const end = Math.min(bytes.length, start + WINDOW_BYTES)
      if (heldIn(bytes.subarray(start, end))) hidden.push([digitAt[at + 2 * start]!, digitAt[at + 2 * end - 1]! + 1])
      if (end === bytes.length) break
    }
  })
  hidden.sort((a, b) => a[0] - b[0])
  let out = ''
  let from = 0
  let open = false
  for (const [start, end] of hidden) {
    if (end <= from) continue
    // a window apart from the last hidden one gets its own replacement; one overlapping it lengthens it
    if (!open || start > from) out += run.slice(from, start) + replacement
    open = true
    from = end
  }
  return out + run.slice(from)
}
