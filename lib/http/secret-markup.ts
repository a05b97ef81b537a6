/**
 * A secret an HTML page breaks up with markup that shows nothing: an error page that lets a long
 * token wrap (`sk_live_<wbr>4eC39HqL<wbr>…`, `&shy;` or `&#8203;` every few characters). Each piece
 * is a run too short to be hidden alone, and the letters of `wbr` and `shy` stand between them,
 * which the steps that join a secret's characters across other characters (secret-pieces.ts,
 * secret-spread.ts) do not cross: the key stood whole to anyone who reads the page as a browser
 * shows it (securehunt12). The text is read as shown (those taken out), and where the redactor hides
 * something in that reading, the stretch of the text it covers is replaced.
 *
 * Only break opportunities, not every tag: read without its tags, a run's report.html and results.json
 * were redacted once more whole, three to five times the time (a key written a piece a `<span>` is left).
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
  if ((!text.includes('<') && !text.includes('&')) || !ANY_UNSHOWN.test(text)) return text
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
    out += text.slice(at, from) + stretchesHidden(text.slice(from, to), redact, replacement)
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
function stretchesHidden(text: string, redact: (text: string) => string, replacement: string): string {
  let out = text
  for (let round = 0; round < MOST_STRETCHES; round++) {
    // the text as shown, and where each of its characters stands in `out`
    let shown = ''
    const at: number[] = []
    let from = 0
    UNSHOWN.lastIndex = 0
    for (let m = UNSHOWN.exec(out); m !== null; m = UNSHOWN.exec(out)) {
      for (let i = from; i < m.index; i++) at.push(i)
      shown += out.slice(from, m.index)
      from = m.index + m[0].length
    }
    if (from === 0) return out
    for (let i = from; i < out.length; i++) at.push(i)
    shown += out.slice(from)
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
