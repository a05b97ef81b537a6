/**
 * A secret's letters and digits in order, whatever stands for the other characters between them
 * (lib/http/redact.ts hides them after every whole form, before the runs). A key of `openssl rand
 * -base64 32` has a "+", "/" or "=" every ten characters or so, and a server that writes those in a
 * way no form knows (a header name built from the key, "/" and "=" made "-"; escaped twice, %252B;
 * JSON in JSON, \\\/; stripped; a UUID's 32 digits without its dashes) left its pieces apart, each
 * shorter than the runs hidden (secret-runs.ts): the key whole, to anyone who reads them in order.
 * Found by a walk, not a regular expression: one of [\s\S]{0,12}? between pieces backtracks without
 * bound on a text a server makes of the pieces of a key of repeated characters (aa-aa-…-zz9 against
 * 200 a's held the redactor for minutes), where the walk takes the nearest next piece and never
 * goes back (walkedInBoundedTime keeps the walks few). A walk starts only near where the longest
 * piece stands: started at every match of the first piece, a key whose first piece is a letter
 * (a/Bc8…, one base64 key in thirty) walked from every "a" of every body, a second a megabyte of
 * JSON and three of a body of a's, where a text without the longest piece holds no key. Whether a
 * text holds any secret's longest piece is one pass for them all (anchorFilter), not a search of
 * each (ten keys with their near-misses: forty searches of every text of a fleet's run).
 */
import { anchorFilter, escapeRegExp } from './secret-filter.ts'

/** The letters and digits a secret needs for this: fewer in order could be ordinary text ("v1", "api", "2024"). */
export const PIECES_MIN_LETTERS_AND_DIGITS = 16

/**
 * The most characters that may stand for one character of the secret that is not a letter or digit:
 * its longest escape seen (&#x0002B; is 9, &amp;#43; 9, %25252B 7, \\u002B 7), with room; none (stripped) too.
 */
const STAND_IN_PER_CHARACTER = 12

interface Pieces {
  /** The first piece (global, looked for in a window before each anchor); the others where they must stand (sticky). */
  first: RegExp
  rest: RegExp[]
  /** The longest piece, anywhere (global): the pieces stand only where it does. */
  anchor: RegExp
  /** The longest piece itself. */
  longest: string
  /** How many characters at most the first piece starts before the anchor. */
  anchorAfter: number
  /** How many characters at most may stand between piece i and piece i + 1. */
  gaps: number[]
  /** The characters before the first piece and after the last, taken too where they stand as they are. */
  before: string
  after: string
}

const ALPHANUMERIC = /^[A-Za-z0-9]/

function piecesOf(secret: string, fold: boolean): Pieces | undefined {
  const runs = secret.match(/[A-Za-z0-9]+|[^A-Za-z0-9]+/g) ?? []
  const before = runs.length > 0 && !ALPHANUMERIC.test(runs[0]!) ? runs.shift()! : ''
  const after = runs.length > 0 && !ALPHANUMERIC.test(runs[runs.length - 1]!) ? runs.pop()! : ''
  const pieces = runs.filter((run) => ALPHANUMERIC.test(run))
  if (pieces.length < 2 || pieces.join('').length < PIECES_MIN_LETTERS_AND_DIGITS || !walkedInBoundedTime(pieces)) return undefined
  const flags = fold ? 'i' : ''
  const gaps = runs.filter((run) => !ALPHANUMERIC.test(run)).map((run) => STAND_IN_PER_CHARACTER * [...run].length)
  const longest = pieces.reduce((most, piece, i) => (piece.length > pieces[most]!.length ? i : most), 0)
  return {
    first: new RegExp(escapeRegExp(pieces[0]!), `g${flags}`),
    rest: pieces.slice(1).map((piece) => new RegExp(escapeRegExp(piece), `y${flags}`)),
    anchor: new RegExp(escapeRegExp(pieces[longest]!), `g${flags}`),
    longest: pieces[longest]!,
    anchorAfter: pieces.slice(0, longest).reduce((sum, piece, i) => sum + piece.length + gaps[i]!, 0),
    gaps,
    before,
    after,
  }
}

/**
 * Whether a text can hold the pieces at few places at once, so that the walks from each place of
 * the first stay few and short: pieces that all differ, none a character or two repeated ("aaaa",
 * "abab"), as a random key's are. A key of repeated pieces (aa-aa-…) let a text of one character
 * start a walk at every place, each as deep as the key (seconds a megabyte): it is left to its forms.
 */
function walkedInBoundedTime(pieces: readonly string[]): boolean {
  const repeats = (piece: string) => [1, 2].some((period) => piece.length > period && piece === piece.slice(0, period).repeat(Math.ceil(piece.length / period)).slice(0, piece.length))
  const folded = pieces.map((piece) => piece.toLowerCase())
  return new Set(folded).size === folded.length && !folded.some(repeats)
}

/** Where the pieces that start at `start` (the first one's match) end, each the nearest after the last; -1 when one is not there. */
function endOf(text: string, { rest, gaps }: Pieces, firstEnd: number): number {
  let at = firstEnd
  for (let i = 0; i < rest.length; i++) {
    const piece = rest[i]!
    let found = -1
    for (let gap = 0; gap <= gaps[i]! && at + gap < text.length; gap++) {
      piece.lastIndex = at + gap
      if (piece.test(text)) {
        found = piece.lastIndex
        break
      }
    }
    if (found < 0) return -1
    at = found
  }
  return at
}

/**
 * `text` with each secret's pieces in order replaced by `replacement`, with its characters before and
 * after them where they stand as they are. The walks start at the first piece's matches within
 * `anchorAfter` before each place of the longest piece (every walk that ends passes one): the
 * leftmost walk that ends, started at the last first piece whose walk ends there too.
 */
function redactPieces(text: string, pieces: Pieces, replacement: string): string {
  const { first, anchor, anchorAfter, before, after } = pieces
  anchor.lastIndex = 0
  let out = ''
  let from = 0
  // where no walk has started yet: one that did not end once never ends, whichever place of the anchor it was tried for
  let untried = 0
  let at: RegExpExecArray | null
  while ((at = anchor.exec(text)) !== null) {
    // the first piece's matches that start at most anchorAfter before this place of the anchor, and not after it
    const low = Math.max(from, untried, at.index - anchorAfter)
    const window = text.slice(low, at.index + at[0].length)
    untried = at.index + 1
    first.lastIndex = 0
    let match: RegExpExecArray | null
    let found: { index: number; end: number } | undefined
    // the last first piece whose walk ends where the first one's does: what stood before it is the text's, not the key's (aaaa.aBc8… hides aBc8…, not the a's)
    while ((match = first.exec(window)) !== null && low + match.index <= at.index) {
      const end = endOf(text, pieces, low + first.lastIndex)
      if (end >= 0 && (found === undefined || end === found.end)) found = { index: low + match.index, end }
      first.lastIndex = match.index + 1
    }
    if (found === undefined) {
      anchor.lastIndex = at.index + 1
      continue
    }
    let { index: start, end } = found
    if (before !== '' && start - before.length >= from && text.slice(start - before.length, start) === before) start -= before.length
    // as much of what follows the last piece as stands there ("==" of base64, or one "=" of it)
    let kept = 0
    while (kept < after.length && text[end + kept] === after[kept]) kept++
    end += kept
    out += text.slice(from, start) + replacement
    from = end
    anchor.lastIndex = Math.max(end, at.index + 1)
  }
  return from === 0 ? text : out + text.slice(from)
}

/** Replaces the pieces of each secret (the secret and whether it is looked for in any case) with `replacement`; secrets with too few letters and digits, or one run of them, are left to their forms. */
export function piecesRedactor(secrets: readonly { secret: string; fold: boolean }[], replacement: string, prefiltered = true): (text: string) => string {
  const all = secrets.flatMap(({ secret, fold }) => piecesOf(secret, fold) ?? [])
  if (all.length === 0) return (text) => text
  // every walk passes its secret's longest piece: a text with none of them, in any case, is left as it is by every secret (one pass
  // for them all, about 1.2 ms a megabyte, not a search of each, 0.15 ms: from eight on, two keys with their near-misses)
  const holds = (prefiltered && all.length >= 8 ? anchorFilter(all.map((p) => p.longest), true) : undefined) ?? (() => true)
  return (text) => (text.length < PIECES_MIN_LETTERS_AND_DIGITS || !holds(text) ? text : all.reduce((redacted, pieces) => redactPieces(redacted, pieces, replacement), text))
}

/** The longest text a secret's pieces can occupy, with its characters before and after them. */
export const longestPieces = (secret: string): number => secret.length + STAND_IN_PER_CHARACTER * secret.replace(/[A-Za-z0-9]/g, '').length
