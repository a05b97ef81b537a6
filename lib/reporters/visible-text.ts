/**
 * Text a person must see exactly as it is. Every report (report.html, summary.md, the terminal,
 * GitHub annotations) writes characters that have no look of their own, or that would act instead
 * of being read (controls, bidi overrides), as a visible marker, the same marker in every report:
 *
 *   ⟨NBSP⟩, ⟨ZWSP⟩, ⟨RLO⟩, ⟨ESC⟩ …   a named invisible or control character (LEGEND_NAMES)
 *   ⟨U+0007⟩                         any other, by its code point
 *   ↵  ⇥                             a line feed and a tab, where the text must stay on one line
 *   ·                                a space that is easy to miss, in failure values only (see spaceMarks)
 *
 * Every marker is unambiguous: a ⟨ the server sent is itself written as ⟨U+27E8⟩, and in failure
 * values, where · ↵ ⇥ are markers, a literal ·, ↵ or ⇥ is written by its code point too.
 */

/** A run of text; `legend` is set when the run is a marker, and says what it stands for. */
export interface Piece {
  text: string
  legend?: string
}

/** The invisible and control characters with a short name readers know. */
const LEGEND_NAMES: Record<number, [string, string]> = {
  0x00: ['NUL', 'null character'],
  0x0d: ['CR', 'carriage return'],
  0x1b: ['ESC', 'escape (starts a terminal control sequence)'],
  0x7f: ['DEL', 'delete'],
  0xa0: ['NBSP', 'no-break space'],
  0xad: ['SHY', 'soft hyphen'],
  0x034f: ['CGJ', 'combining grapheme joiner'],
  0x061c: ['ALM', 'Arabic letter mark'],
  0x180e: ['MVS', 'Mongolian vowel separator'],
  0x200b: ['ZWSP', 'zero-width space'],
  0x200c: ['ZWNJ', 'zero-width non-joiner'],
  0x200d: ['ZWJ', 'zero-width joiner'],
  0x200e: ['LRM', 'left-to-right mark'],
  0x200f: ['RLM', 'right-to-left mark'],
  0x2028: ['LSEP', 'line separator'],
  0x2029: ['PSEP', 'paragraph separator'],
  0x202a: ['LRE', 'left-to-right embedding'],
  0x202b: ['RLE', 'right-to-left embedding'],
  0x202c: ['PDF', 'pop directional formatting'],
  0x202d: ['LRO', 'left-to-right override'],
  0x202e: ['RLO', 'right-to-left override'],
  0x202f: ['NNBSP', 'narrow no-break space'],
  0x2060: ['WJ', 'word joiner'],
  0x2066: ['LRI', 'left-to-right isolate'],
  0x2067: ['RLI', 'right-to-left isolate'],
  0x2068: ['FSI', 'first strong isolate'],
  0x2069: ['PDI', 'pop directional isolate'],
  0xfeff: ['BOM', 'zero-width no-break space (byte order mark)'],
}

/**
 * Characters always written as a marker: C0 and C1 controls (tab and line feed are left to the
 * layout), DEL, every space but the ASCII one, line and paragraph separators, every format
 * character (Unicode Cf: zero-width, bidi, soft hyphen, word joiner, BOM, tags …), fillers that
 * render as nothing (CGJ, Hangul fillers), lone surrogates, noncharacters, and ⟨ itself.
 */
const INVISIBLE_SOURCE =
  '[\\x00-\\x08\\x0B-\\x1F\\x7F-\\xA0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\p{Cf}\\p{Cs}\\u034F\\u115F\\u1160\\u3164\\uFFA0\\uFFFE\\uFFFF\\u27E8]'
const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'gu')
const LINE_PATTERN = new RegExp(`[\\n\\t]|${INVISIBLE_SOURCE}`, 'gu')
const VALUE_PATTERN = new RegExp(`[ \\n\\t·↵⇥]|${INVISIBLE_SOURCE}`, 'gu')

const CODE_POINT_LEGEND = 'a character that is invisible, a control or a marker sign, written by its code point'

function codePointMarker(char: string): Piece {
  const code = char.codePointAt(0)!
  const named = LEGEND_NAMES[code]
  if (named) return { text: `⟨${named[0]}⟩`, legend: `${named[1]} (U+${hex(code)})` }
  return { text: `⟨U+${hex(code)}⟩`, legend: CODE_POINT_LEGEND }
}

const hex = (code: number) => code.toString(16).toUpperCase().padStart(4, '0')

const LINE_FEED: Piece = { text: '↵', legend: 'line feed' }
const TAB: Piece = { text: '⇥', legend: 'tab' }
const SPACE: Piece = { text: '·', legend: 'space' }

/** Appends text to the pieces, merging plain runs. */
function push(pieces: Piece[], piece: Piece): void {
  const last = pieces[pieces.length - 1]
  if (!piece.legend && last && !last.legend) last.text += piece.text
  else pieces.push({ ...piece })
}

/**
 * Any text as pieces: invisible and control characters as markers. `keep` leaves line feeds and
 * tabs for a layout that shows them (a <pre>; CRLF becomes LF), `line` writes them as ↵ and ⇥ so
 * that the text stays on one line.
 */
export function visiblePieces(text: string, layout: 'keep' | 'line'): Piece[] {
  const source = layout === 'keep' ? String(text).replace(/\r\n/g, '\n') : String(text)
  const pieces: Piece[] = []
  let at = 0
  for (const match of source.matchAll(layout === 'keep' ? INVISIBLE : LINE_PATTERN)) {
    push(pieces, { text: source.slice(at, match.index) })
    push(pieces, match[0] === '\n' ? LINE_FEED : match[0] === '\t' ? TAB : codePointMarker(match[0]))
    at = match.index + match[0].length
  }
  push(pieces, { text: source.slice(at) })
  return pieces.filter((p) => p.text !== '')
}

/** Any text on one line, markers as plain text: for terminal lines, Markdown cells, annotations. */
export function visibleLine(text: string): string {
  return plain(visiblePieces(text, 'line'))
}

/**
 * Which spaces of a failure value get the · marker: the ones a reader would miss. Inside a
 * double-quoted string (the way checks quote what was sent and received, JSON-escaped), a run of
 * spaces that touches either quote or is two or more long; outside strings, a run at the start or
 * end of the whole value. Single spaces between words are left alone, so prose still reads.
 */
function spaceMarks(text: string): boolean[] {
  const marks = new Array<boolean>(text.length).fill(false)
  let inString = false
  let openedAt = -1
  let i = 0
  while (i < text.length) {
    const char = text[i]
    if (inString && char === '\\') {
      i += 2
      continue
    }
    if (char === '"') {
      inString = !inString
      if (inString) openedAt = i
      i++
      continue
    }
    if (char !== ' ') {
      i++
      continue
    }
    let end = i
    while (end < text.length && text[end] === ' ') end++
    // an unescaped quote inside a string closes it, so a quote right after the run is the closing one
    const mark = inString ? i === openedAt + 1 || text[end] === '"' || end - i >= 2 : i === 0 || end === text.length
    if (mark) marks.fill(true, i, end)
    i = end
  }
  return marks
}

/**
 * A failure's message, expected or actual value as pieces: everything visiblePieces marks in one
 * line, plus the spaces a reader would miss (spaceMarks), with a literal ·, ↵ or ⇥ by its code point.
 */
export function valuePieces(text: string): Piece[] {
  const source = String(text)
  const marks = spaceMarks(source)
  const pieces: Piece[] = []
  let at = 0
  for (const match of source.matchAll(VALUE_PATTERN)) {
    const char = match[0]
    if (char === ' ' && !marks[match.index]) continue
    push(pieces, { text: source.slice(at, match.index) })
    push(pieces, char === ' ' ? SPACE : char === '\n' ? LINE_FEED : char === '\t' ? TAB : codePointMarker(char))
    at = match.index + char.length
  }
  push(pieces, { text: source.slice(at) })
  return pieces.filter((p) => p.text !== '')
}

export function plain(pieces: readonly Piece[]): string {
  return pieces.map((p) => p.text).join('')
}

/** A failure value on one line with its markers: for terminal lines, Markdown cells, annotations. */
export function visibleValue(text: string): string {
  return plain(valuePieces(text))
}

/**
 * What the markers in some pieces stand for, one entry per marker in order of first use
 * (`·` space, `⟨NBSP⟩` no-break space (U+00A0)); code-point markers share one entry. Empty when
 * there is no marker.
 */
export function legendOf(pieces: readonly Piece[]): { marker: string; meaning: string }[] {
  const entries = new Map<string, { marker: string; meaning: string }>()
  for (const piece of pieces) {
    if (!piece.legend) continue
    const byCode = piece.legend === CODE_POINT_LEGEND
    const key = byCode ? CODE_POINT_LEGEND : piece.text
    if (!entries.has(key)) entries.set(key, { marker: byCode ? '⟨U+…⟩' : piece.text, meaning: piece.legend })
  }
  return [...entries.values()]
}

/** The legend of some failure values as one line of text ("· space; ↵ line feed"); empty when nothing is marked. */
export function valueLegend(values: readonly string[]): string {
  return legendOf(values.flatMap((value) => valuePieces(value)))
    .map((entry) => `${entry.marker} ${entry.meaning}`)
    .join('; ')
}
