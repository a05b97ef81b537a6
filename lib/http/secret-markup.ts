/**
 * A secret an HTML page breaks up with markup that shows nothing: an error page that lets a long
 * token wrap (`sk_live_<wbr>4eC39HqL<wbr>…`, `&shy;` or `&#8203;` every few characters). Each piece
 * is a run too short to be hidden alone, and the letters of `wbr` and `shy` stand between them,
 * which the steps that join a secret's characters across other characters (secret-pieces.ts,
 * secret-spread.ts) do not cross: the key stood whole to anyone who reads the page as a browser
 * shows it (securehunt12). The text is read as shown (those taken out), and where the redactor hides
 * something in that reading, the stretch of the text it covers is replaced.
 *
 * Not every tag: read without its tags, a run's report.html and results.json were redacted once more
 * whole, three to five times the time. A tag is read as showing nothing only in a ladder (ladderHidden):
 * tags with a piece of text no longer than a run the other steps hide between them, as a page that
 * writes the key a character or a few an element does (`<span>s</span><span>k</span>…`), which stood
 * to anyone reading the page, in report.html as in results.json (securehunt13).
 */

/** A break opportunity (`<wbr>`), or a reference to a character that shows nothing (soft hyphen, zero-width space, joiners, word joiner). */
const UNSHOWN = /<wbr\s*\/?>|&(?:shy|ZeroWidthSpace|zwnj|zwj|NoBreak|#(?:173|8203|8204|8205|8288|x(?:ad|200[bcd]|2060)));/gi
const ANY_UNSHOWN = new RegExp(UNSHOWN.source, 'i')
/** How many stretches of one text are hidden at most: each is one more pass of the redactor over the text as shown. */
const MOST_STRETCHES = 16

/**
 * `text` with each stretch whose reading as shown (UNSHOWN taken out) `redact` changes, and that holds
 * such markup, replaced by `replacement`. Only a text with a break opportunity or such a reference in
 * it is read so, and only around them: the word that holds each (a run without a space), `reach`
 * characters (the longest form of a secret) either side at most. A stretch without any is an echo the other steps hide as it stands. Read whole, the
 * stretch from the first change to the last was replaced: a report that held one `&shy;` of a
 * server's page and two echoes of the key lost every line between them (review53).
 */
export function markupHidden(text: string, redact: (text: string) => string, replacement: string, reach: number): string {
  if (!text.includes('<') && !text.includes('&') && !text.includes('\\u00')) return text
  return ladderHidden(unshownHidden(text, redact, replacement, reach), redact, replacement, reach)
}

/** markupHidden's break opportunities and references to characters that show nothing. */
function unshownHidden(text: string, redact: (text: string) => string, replacement: string, reach: number): string {
  if (!ANY_UNSHOWN.test(text)) return text
  const spans: [number, number][] = []
  UNSHOWN.lastIndex = 0
  for (let m = UNSHOWN.exec(text); m !== null; m = UNSHOWN.exec(text)) {
    const [from, to] = [spaceBefore(text, m.index, reach), spaceAfter(text, m.index + m[0].length, reach)]
    if (spans.length > 0 && from <= spans.at(-1)![1]) spans.at(-1)![1] = to
    else spans.push([from, to])
  }
  let out = ''
  let at = 0
  for (const [from, to] of spans) {
    out += text.slice(at, from) + stretchesHidden(text.slice(from, to), redact, replacement, UNSHOWN)
    at = to
  }
  return out + text.slice(at)
}

const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\t' || c === '\r'
/** Where the word that holds `text[from - 1]` starts, `most` characters back at most. */
function spaceBefore(text: string, from: number, most: number): number {
  let at = from
  while (at > 0 && at > from - most && !isSpace(text[at - 1]!)) at--
  return at
}
/** Where the word that holds `text[to]` ends, `most` characters on at most. */
function spaceAfter(text: string, to: number, most: number): number {
  let at = to
  while (at < text.length && at < to + most && !isSpace(text[at]!)) at++
  return at
}

/** One window of markupHidden: each stretch its reading as shown changes, from the first change to the last, that holds markup, replaced. */
function stretchesHidden(text: string, redact: (text: string) => string, replacement: string, unshown: RegExp): string {
  let out = text
  for (let round = 0; round < MOST_STRETCHES; round++) {
    // the text as shown, and where each of its characters stands in `out`
    const at: number[] = []
    const shown = shownOf(out, unshown, at)
    if (shown === undefined) return out
    const hidden = redact(shown)
    if (hidden === shown) return out
    // the stretch the redactor changed: what is left between the common start and the common end
    let start = 0
    while (start < shown.length && start < hidden.length && shown[start] === hidden[start]) start++
    let end = 0
    while (end < shown.length - start && end < hidden.length - start && shown[shown.length - 1 - end] === hidden[hidden.length - 1 - end]) end++
    // a replacement the redactor left at the stretch's edges is no character of the text
    if (start >= shown.length - end) return out
    const first = at[start] as number
    const last = at[shown.length - 1 - end] as number
    // no markup inside: an echo as it stands (or one cut at the window's edge), which the other steps hide whole
    if (last - first + 1 === shown.length - end - start) return out
    out = out.slice(0, first) + replacement + out.slice(last + 1)
  }
  return out
}

/** `text` without what `unshown` matches (undefined: nothing matched), and in `at` where each of its characters stands in `text`. */
function shownOf(text: string, unshown: RegExp, at?: number[]): string | undefined {
  let shown = ''
  let from = 0
  unshown.lastIndex = 0
  for (let m = unshown.exec(text); m !== null; m = unshown.exec(text)) {
    if (at) for (let i = from; i < m.index; i++) at.push(i)
    shown += text.slice(from, m.index)
    from = m.index + m[0].length
  }
  if (from === 0) return undefined
  if (at) for (let i = from; i < text.length; i++) at.push(i)
  return shown + text.slice(from)
}

/**
 * A tag as a page writes it, as JSON escapes it (Go's `\u003c`) or as HTML does (`&lt;`, and Go's
 * `\u0026lt;` of that, review55): a custom
 * element's name, and attributes of 400 characters, a quoted `>` in them, are tags too (a style of
 * 100 characters an element, `<x-long-custom-name>` or `title="a>b"` let the key stand), and so is a
 * comment (`s<!--x-->k<!--x-->…`).
 */
const TAG = String.raw`(?:<|\\u003[cC]|(?:&|\\u0026)lt;)(?:(?:\\?\/)?[A-Za-z][A-Za-z0-9:._-]{0,63}(?:\s(?:[^<>"']|"[^"<]{0,200}"|'[^'<]{0,200}'){0,400}?)?\/?|!--[^]{0,200}?--)(?:>|\\u003[eE]|(?:&|\\u0026)gt;)`
/**
 * What a ladder's reading takes out: its tags, what UNSHOWN takes, the line breaks of a page JSON
 * holds (`\\n`), which read as letters would part the key's characters, and the indentation after
 * them; and of a run of spaces, all but its first, as a browser shows it: an element a line indented
 * 20 (a template nested five deep) read with more between two of the key's characters than
 * secret-spread.ts crosses, and the key stood (review55).
 */
const TAGS = new RegExp(`${TAG}|${UNSHOWN.source}|(?:\\\\[nrt])+[ \\t]*|(?<=\\s)\\s+`, 'gi')
/**
 * The most characters of text between two tags of a ladder: a piece of the key this long or shorter
 * is no run the other steps hide alone (secret-runs.ts hides runs of 12 at most of a long key).
 */
const LADDER_PIECE = 11
const TAG_AT = new RegExp(TAG, 'gi')
/**
 * What may stand between two tags of one ladder: a piece (LADDER_PIECE characters at most, no space,
 * no tag begun), and around it the line break and indentation of a page written an element a line
 * (32 at most each side, a template nested eight deep; `\\n` in JSON), as `s<br>\nk<br>\n…` writes it.
 */
const LADDER_GAP = 32
const IN_LADDER = new RegExp(String.raw`^(?:\s|\\[nrt]){0,${LADDER_GAP}}[^<>\s]{0,${LADDER_PIECE}}(?:\s|\\[nrt]){0,${LADDER_GAP}}$`)
/**
 * A ladder's last piece, after its last tag on the next line (`…p7<br>\ndc`: a `<br>` after each
 * piece but the last), and its first, before its first tag and a line break: left out, the reading
 * lacked them and held no key (review55).
 */
const PIECE_AFTER = new RegExp(String.raw`(?:\s|\\[nrt]){1,${LADDER_GAP}}(?=[^<>\s])`, 'y')
const PIECE_BEFORE = new RegExp(String.raw`[^<>\s](?:\s|\\[nrt]){1,${LADDER_GAP}}$`)

/**
 * `text` with each stretch of a ladder of tags (tags with pieces of LADDER_PIECE between) whose reading as shown (tags taken out)
 * `redact` changes replaced by `replacement`, as markupHidden does for break opportunities. The
 * ladders' readings are redacted together first: a page's or a report's own markup (report.html
 * is one ladder after another, `<td>GET</td><td>200</td>`) holds no key, and one pass over what
 * its ladders show tells so, where one a ladder took many times the time of the rest.
 */
function ladderHidden(text: string, redact: (text: string) => string, replacement: string, reach: number): string {
  const spans: [number, number][] = []
  const ladder = (from: number, to: number) => {
    PIECE_AFTER.lastIndex = to
    if (PIECE_AFTER.test(text)) to = PIECE_AFTER.lastIndex
    const before = PIECE_BEFORE.exec(text.slice(Math.max(0, from - LADDER_GAP - 1), from))
    if (before) from -= before[0].length - 1
    ;[from, to] = [spaceBefore(text, from, reach), spaceAfter(text, to, reach)]
    if (spans.length > 0 && from <= spans.at(-1)![1]) spans.at(-1)![1] = Math.max(to, spans.at(-1)![1])
    else spans.push([from, to])
  }
  // the tags one after another, a ladder while what stands between two is a piece (IN_LADDER)
  let [first, last] = [-1, -1]
  TAG_AT.lastIndex = 0
  for (let m = TAG_AT.exec(text); m !== null; m = TAG_AT.exec(text)) {
    if (first >= 0 && m.index - last <= 2 * LADDER_GAP + LADDER_PIECE && IN_LADDER.test(text.slice(last, m.index))) {
      last = m.index + m[0].length
      continue
    }
    if (first >= 0) ladder(first, last)
    ;[first, last] = [m.index, m.index + m[0].length]
  }
  if (first >= 0) ladder(first, last)
  if (spans.length === 0) return text
  const shown = spans.map(([from, to]) => shownOf(text.slice(from, to), TAGS) ?? '')
  const together = shown.join('\n')
  if (redact(together) === together) return text
  let out = ''
  let at = 0
  for (const [i, [from, to]] of spans.entries()) {
    const stretch = text.slice(from, to)
    out += text.slice(at, from) + (redact(shown[i]!) === shown[i] ? stretch : stretchesHidden(stretch, redact, replacement, TAGS))
    at = to
  }
  return out + text.slice(at)
}
