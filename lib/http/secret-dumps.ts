/**
 * A secret's bytes in a dump of several lines (xxd, `xxd -c 8`, `xxd -p`, `hexdump -C`, `od -c`: an offset, then
 * the bytes, in hex or as characters, and in xxd and hexdump -C a column of them as text). Cut over
 * lines, each line held a piece of the key too short to be hidden on its own, in hex and in its text
 * column: `xxd -c 8` of "Bearer <key>" showed the whole key 8 characters a line. The lines are read
 * joined, in windows of lines, and the bytes and text of the lines of a window that holds a run of a
 * secret are hidden, their offsets kept. Read before the other steps, whose replacements the lines
 * would no longer parse with.
 */

import { isHexDigit } from './secret-hex-runs.ts'

/** A line of a hex dump: its offset (xxd's `00000010:`, hexdump's `00000010`), its bytes in hex, groups of 2 to 32 digits, and its text column if any. */
const HEX_LINE = /^([ \t]*[0-9a-fA-F]{4,16}(?::[ \t]*|[ \t]+))((?:[0-9a-fA-F]{2,32}[ \t]{1,2})*[0-9a-fA-F]{2,32})(?:[ \t]{2,}(\S.*?))?[ \t]*$/
/**
 * A log's prefix on each line of a dump (`web-1  | ` of docker compose, `2026-11-28T07:50:06Z DEBUG `, `[req 4] `: a debug
 * endpoint that returns its log, a middleware that logs a hexdump a line at a time): up to 80 characters, no quote (a JSON string's opening one is quotedDumpLine's), that end in a space,
 * `|` or `]`, before an offset of 8 hex digits and `:` or two spaces (xxd's, hexdump -C's). Read only where a line began with
 * its offset, a dump of the key so prefixed showed it over its first and last lines (securehunt12).
 */
const LOG_PREFIX = /^[^\n"]{0,80}?[ \t|\]](?=[0-9a-fA-F]{8}(?::|[ \t]{2}))/
/**
 * A dump's first offset behind a log's prefix (LOG_PREFIX): what tells a text that may hold such a dump, looked for with indexOf.
 * `raw`: on a line of its own, its prefix no JSON string's (no quote or backslash), whose escaped lines the raw pass would read as one.
 */
function prefixedDumpStart(text: string, raw: boolean): boolean {
  for (let at = text.indexOf('00000000'); at > 0; at = text.indexOf('00000000', at + 8)) {
    const [before, after] = [text[at - 1], text.slice(at + 8, at + 10)]
    if ((before !== ' ' && before !== '\t' && before !== '|' && before !== ']') || (after[0] !== ':' && after !== '  ')) continue
    if (!raw || !/["\\]/.test(text.slice(text.lastIndexOf('\n', at) + 1, at))) return true
  }
  return false
}
/** A line of `od -c`: a 7-digit octal offset and up to 16 cells of 4 characters, each a character, an escape (`\r`) or 3 octal digits. */
const OD_C_LINE = /^([0-7]{7})((?: {1,3}(?:\\{1,2}[0-7]{3}|\\{1,2}[0abfnrtv]|[0-7]{3}|\S)| {4}){1,16})[ \t]*$/
/** One cell of it (its escapes' backslash escaped again in a JSON string). */
const OD_CELL = / {1,3}(\\{1,2}[0-7]{3}|\\{1,2}[0abfnrtv]|[0-7]{3}|\S)| {4}/g
/** A line of hex alone (`xxd -p`, hex wrapped by `fold`), 4 bytes or more, a space, colon or dash between two if any. */
const PLAIN_LINE = /^([ \t]*)[0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2}){3,}[ \t]*$/
/** Hex that ends a line of other text (`token: 736b5f6c…`), where wrapped hex may start: found from the line's end (a pattern tried at every word of a line took 2.7 s over 6 MB). */
function trailingHex(line: string): RegExpExecArray | null {
  let end = line.length
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) end--
  let start = end
  while (start > 0 && /[0-9a-fA-F :-]/.test(line[start - 1]!)) start--
  while (start < end && /[ :-]/.test(line[start]!)) start++
  if (start > 0 && /[0-9A-Za-z]/.test(line[start - 1]!)) return null
  const hex = HEX_ALONE.exec(line.slice(start, end))
  if (hex) hex.index = start
  return hex
}
const HEX_ALONE = /^[0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2}){3,}$/
/** Hex that starts a line of other text (`54317a64 (end)`), where wrapped hex may end. */
const LEADING_HEX = /(?<=^[ \t]*)[0-9a-fA-F]{2}(?:[ :-]?[0-9a-fA-F]{2}){3,}(?![0-9A-Za-z])/
/**
 * Whether a text may hold a dump: a line (after `lineBreak`) that starts with 4 hex digits (an offset, or hex alone), not
 * indented. Looked for with indexOf: a pattern took 1 to 2 ms over a results.json, mostly its lines' indents.
 */
function lineStartsWithHex(text: string, lineBreak: string): boolean {
  const hexAt = (start: number) => {
    let hex = 0
    for (let i = start; hex < 4 && isHexDigit(text.charCodeAt(i)); i++) hex++
    return hex === 4
  }
  // the text's first line too: a dump of one line (a short key's, in little-endian words) has no line break before it
  if (lineBreak === '\n' && hexAt(0)) return true
  for (let at = text.indexOf(lineBreak); at >= 0; at = text.indexOf(lineBreak, at + 1)) if (hexAt(at + lineBreak.length)) return true
  return false
}
const LONGEST_LINE = 256
/** How many quotes of a line are tried as a JSON string's end or a dump's opening quote (stringEnd, quotedDumpLine). */
const QUOTES_TRIED = 4
/** How many bytes of joined lines each window holds at least: a run of a secret cut over lines is read whole. */
const WINDOW_BYTES = 48

const OD_ESCAPES: Record<string, number> = { '\\0': 0, '\\a': 7, '\\b': 8, '\\t': 9, '\\n': 10, '\\v': 11, '\\f': 12, '\\r': 13 }

/** A dump line's bytes, and where they (and its text column) start in it, and end if before its end; undefined: no dump line. */
function dumpLine(line: string): { bytes: Buffer; swapped?: Buffer; from: number; to?: number; text?: string } | undefined {
  // a dump's lines are short (xxd -c 32's, the longest, 140 characters): a longer line, or one of fewer than 4 bytes, is not parsed (a line of megabytes ran the patterns out of stack)
  if (line.length < 8 || line.length > LONGEST_LINE) return undefined
  const plain = PLAIN_LINE.exec(line)
  if (plain) return { bytes: Buffer.from(line.replace(/[^0-9a-fA-F]/g, ''), 'hex'), from: plain[1]!.length }
  // as the line begins, or behind a log's prefix (LOG_PREFIX)
  const prefix = HEX_LINE.test(line) ? '' : (LOG_PREFIX.exec(line)?.[0] ?? '')
  const hex = HEX_LINE.exec(line.slice(prefix.length))
  if (hex) {
    const digits = hex[2]!.replace(/[ \t]/g, '')
    return digits.length % 2 === 0 ? { bytes: Buffer.from(digits, 'hex'), swapped: littleEndian(hex[2]!), from: prefix.length + hex[1]!.length, text: hex[3] } : undefined
  }
  const od = OD_C_LINE.exec(line)
  if (!od) {
    const tail = trailingHex(line) ?? LEADING_HEX.exec(line)
    return tail ? { bytes: Buffer.from(tail[0].replace(/[^0-9a-fA-F]/g, ''), 'hex'), from: tail.index, to: tail.index + tail[0].length } : undefined
  }
  const cells = [...od[2]!.matchAll(OD_CELL)].map((cell) => (cell[1] ?? ' ').replace(/^\\+/, '\\'))
  const bytes = cells.map((cell) => (cell.length === 1 ? cell.charCodeAt(0) : (OD_ESCAPES[cell] ?? parseInt(cell.replace('\\', ''), 8))))
  return { bytes: Buffer.from(bytes), from: od[1]!.length }
}

/**
 * A line's bytes read as little-endian words, where its groups are words of 2 or 4 bytes (`hexdump` without -C, `od -x`, `xxd -e`):
 * `6b73 6c5f` is "sk_l". Read as written only, the key stood whole in the dump of one of them.
 */
function littleEndian(groups: string): Buffer | undefined {
  const words = groups.split(/[ \t]+/)
  const size = words[0]!.length
  if ((size !== 4 && size !== 8) || words.some((word) => word.length !== size)) return undefined
  return Buffer.concat(words.map((word) => Buffer.from(word, 'hex').reverse()))
}

/**
 * A dump's first line after an opening quote (`"dump":"00000000: 4265 …`): the line from the quote on; the first quote a hex
 * digit follows that starts one, as its text column may hold quotes (`'00000000: 7b22 …  {"apiKey":"sk_li`, a repr), else the last.
 */
function quotedDumpLine(line: string): ReturnType<typeof dumpLine> {
  for (let at = Math.max(0, line.length - LONGEST_LINE - 1), tries = 0; at < line.length && tries < QUOTES_TRIED; at++) {
    if ((line[at] !== '"' && line[at] !== "'") || !isHexDigit(line.charCodeAt(at + 1))) continue
    tries++
    const parsed = dumpLine(line.slice(at + 1))
    if (parsed && parsed.to === undefined) return { bytes: parsed.bytes, swapped: parsed.swapped, from: parsed.from + at + 1 }
  }
  const quote = Math.max(line.lastIndexOf('"'), line.lastIndexOf("'"))
  const parsed = quote < 0 ? undefined : dumpLine(line.slice(quote + 1))
  return parsed && { bytes: parsed.bytes, swapped: parsed.swapped, from: parsed.from + quote + 1, to: parsed.to === undefined ? undefined : parsed.to + quote + 1 }
}

/**
 * `text` with the bytes and text of the dump lines whose window (WINDOW_BYTES joined) `holds` a run of a secret replaced: its
 * lines, and then those of a dump inside a JSON string (a server's JSON error body, `"00000000: 4265 …\n00000008: …"`), whose
 * line breaks are escapes (escaped again too); a line of od -c cut at its own `\n` cell is then no dump line, and hides nothing.
 */
export function dumpsHidden(text: string, holds: (bytes: Buffer) => boolean, replacement: string): string {
  const raw = prefixedDumpStart(text, true) || lineStartsWithHex(text, '\n') ? linesHidden(text, RAW_BREAK, holds, replacement, false) : text
  return prefixedDumpStart(raw, false) || lineStartsWithHex(raw, '\\n') ? linesHidden(raw, ESCAPED_BREAK, holds, replacement, true) : raw
}
const RAW_BREAK = /(\r?\n)/
/** Escaped, and raw ones too: a line of journal.ndjson's ends in its own (its next line's dump is another's). */
const ESCAPED_BREAK = /((?:\\{1,4}r)?\\{1,4}n|\r?\n)/

/** Bytes as a dump's text column shows them: printable ASCII, else a dot. */
const shownAsText = (bytes: Buffer) => [...bytes].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('')

/**
 * Where the JSON string a line of an escaped dump stands in ends: at a quote that no backslash escapes, past the text column
 * of the line's bytes (a quote of a text not JSON stands in it). The dump's last line goes on past it (`…  1zdp7dc\\"}","phase":…}`),
 * and read as its text column, the JSON after it was replaced: a line of journal.ndjson no longer parsed.
 */
function stringEnd(line: string): number {
  // a few quotes tried (a line of quotes read at each took 13 s over 1 MB); past them, the line is read to its end
  let tries = 0
  for (let at = line.indexOf('"'); at >= 0 && at <= LONGEST_LINE && tries < QUOTES_TRIED; at = line.indexOf('"', at + 1)) {
    let backslashes = 0
    while (at - backslashes > 0 && line[at - backslashes - 1] === '\\') backslashes++
    if (backslashes % 2 !== 0) continue
    tries++
    const parsed = dumpLine(line.slice(0, at))
    if (!parsed) continue
    // its escapes one character each; a quote that starts the text column of the line's bytes (`  "apiKey":…`) is none
    if (parsed.text !== undefined ? parsed.text.replace(/\\+[^\\]/g, '.').length >= parsed.bytes.length : !line.startsWith(shownAsText(parsed.bytes.subarray(0, 8)), at)) return at
  }
  return line.length
}

function linesHidden(text: string, lineBreak: RegExp, holds: (bytes: Buffer) => boolean, replacement: string, inString: boolean): string {
  // the lines at even places, their breaks between; in a JSON string, each to its end (what is past it, kept as it is)
  const parts = text.split(lineBreak)
  const ends = parts.map((line, i) => (inString && i % 2 === 0 ? stringEnd(line) : line.length))
  const parsed = parts.map((line, i) => (i % 2 === 0 ? dumpLine(line.slice(0, ends[i])) ?? quotedDumpLine(line) : undefined))
  const hidden = new Set<number>()
  for (let i = 0; i < parts.length; i += 2) {
    // a line alone is read as hex runs are (secret-hex-runs.ts), but in little-endian words
    if (!parsed[i] || (!parsed[i + 2] && parsed[i]!.swapped === undefined)) continue
    const window: Buffer[] = []
    const swapped: Buffer[] = []
    let size = 0
    let j = i
    for (; j < parts.length && parsed[j] && (j === i + 2 || size < WINDOW_BYTES); j += 2) window.push(parsed[j]!.bytes), swapped.push(parsed[j]!.swapped ?? parsed[j]!.bytes), (size += parsed[j]!.bytes.length)
    // as written, and with the words of a little-endian dump turned (littleEndian)
    if (holds(Buffer.concat(window)) || (parsed[i]!.swapped !== undefined && holds(Buffer.concat(swapped)))) for (let k = i; k < j; k += 2) hidden.add(k)
  }
  if (hidden.size === 0) return text
  return parts.map((line, i) => (hidden.has(i) ? line.slice(0, parsed[i]!.from) + replacement + line.slice(parsed[i]!.to ?? (parsed[i]!.from < ends[i]! ? ends[i] : line.length)) : line)).join('')
}
