/**
 * Which texts may hold one of many secrets, in one pass over the text however many secrets there
 * are. A fleet redacts every deployment's reports with every deployment's key (a service that
 * leaks another tenant's key, or the key it expects, to a deployment given a wrong one), and a
 * pattern per key applied in turn costs a pass per key: ten deployments made 100 passes over
 * their reports. Each secret's forms give anchors, texts that every match of a form contains.
 *
 * The pass does not look at every position of the text. An anchor of `m` characters or more, where
 * it stands, covers `m - GRAM + 1` (the stride) consecutive positions at which a GRAM-character
 * piece of it starts, and any stride consecutive positions hold one of those the pass looks at
 * (stride - 1, 2 × stride - 1, …): hashing the text's GRAM characters there, against a bitmap of
 * the hashes of every piece of every anchor, finds every anchor. A hit is checked against the anchors themselves. Twelve characters, the shortest anchor of
 * a 32-character key, make a stride of 9, about nine times fewer positions than a rolling hash of
 * every one (ten keys over a fleet's reports: 85 ms). Only a text that holds an anchor is then
 * redacted pattern by pattern (lib/http/redact.ts). A run's four reports (0.9 MB) take 2.6 ms for
 * ten keys and 2.5 for one (gramHash; 8.8 and 3.3 ms when each character was mixed in on its own,
 * and a single key's forms were looked for with their pattern in every text).
 */

/** The characters hashed at each position looked at. */
const GRAM = 4
/** Anchors shorter than this would be ordinary text too often for the pass to save anything. */
export const SHORTEST_WINDOW = GRAM
/** The bitmap holds 2^HASH_BITS bits (32 KB): a piece of an anchor sets one. */
const HASH_BITS = 18

/**
 * A test of whether `text` contains any of `anchors`, or undefined when they are too short to make
 * one worth it. `foldCase`: in any case of the ASCII letters (the runs of a key, lib/http/redact.ts).
 */
export function anchorFilter(anchors: readonly string[], foldCase = false): ((text: string) => boolean) | undefined {
  if (anchors.length === 0) return () => false
  // a loop, not a spread: a fleet's 1,000 keys give more anchors than a call takes arguments
  const shortest = anchors.reduce((least, a) => Math.min(least, a.length), Infinity)
  if (shortest < SHORTEST_WINDOW) return undefined
  const fold = (text: string) => (foldCase ? text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : text)
  // every occurrence of an anchor holds its first `shortest` characters: longer ones add nothing
  const heads = [...new Set(anchors.map((a) => fold(a.slice(0, shortest))))]
  const stride = shortest - GRAM + 1
  const bitmap = new Int32Array(1 << (HASH_BITS - 5))
  // each piece's hash: the heads it is part of, and where in them it starts
  const byHash = new Map<number, { head: string; at: number }[]>()
  for (const head of heads) {
    for (let at = 0; at + GRAM <= shortest; at++) {
      const hash = gramHash(head, at)
      bitmap[hash >>> 5]! |= 1 << (hash & 31)
      const pieces = byHash.get(hash)
      if (pieces) pieces.push({ head, at })
      else byHash.set(hash, [{ head, at }])
    }
  }
  return (text) => {
    const last = text.length - GRAM
    for (let i = stride - 1; i <= last; i += stride) {
      const hash = gramHash(text, i)
      if ((bitmap[hash >>> 5]! & (1 << (hash & 31))) === 0) continue
      for (const { head, at } of byHash.get(hash) ?? []) if (i >= at && (foldCase ? startsFolded(text, i - at, head) : text.startsWith(head, i - at))) return true
    }
    return false
  }
}

/**
 * Two steps' anchor filters in one pass (redact.ts: the forms', then the runs' of what the steps
 * between left unchanged). `holdsAny`: whether the text holds an anchor of any of them (a hit is
 * then asked of the step's own filter); `knownClean`: whether the text is the last one it found to
 * hold none, which holds none of each step's either; asked, it forgets that text. Undefined when anchorFilter makes no filter.
 * A fleet of ten made 82,436 texts (35.4 M characters) through the two passes (perf30).
 */
export function sharedAnchorPass(anchors: readonly string[]): { holdsAny: (text: string) => boolean; knownClean: (text: string) => boolean } | undefined {
  const holds = anchorFilter(anchors, true)
  if (holds === undefined) return undefined
  let clean: string | undefined
  return {
    holdsAny: (text) => {
      if (holds(text)) return true
      clean = text
      return false
    },
    // asked once per text, by the runs' step: forgotten then, so that the pass keeps no text alive once redacted (a 60 MB body, or a cut of it, a view of it whole)
    knownClean: (text) => {
      const known = text === clean
      clean = undefined
      return known
    },
  }
}

/** Whether `text` from `at` holds `head` (lower case) with its ASCII letters in any case: compared in place, not a copy folded by a pattern at each hit. */
function startsFolded(text: string, at: number, head: string): boolean {
  if (at + head.length > text.length) return false
  for (let k = 0; k < head.length; k++) {
    const c = text.charCodeAt(at + k)
    if ((c >= 65 && c <= 90 ? c + 32 : c) !== head.charCodeAt(k)) return false
  }
  return true
}

/**
 * A hash of text's GRAM characters from `at`, in HASH_BITS bits: each character's low byte with
 * bit 5 set (A-Z as a-z, and a few other characters alike: @ as `, [ as {, a character past U+00FF
 * as one of its low byte), packed in 32 bits and multiplied by the golden ratio, whose top bits
 * depend on every one. Characters the hash takes for one another only make a piece look like an
 * anchor's that is not (the anchor itself is then compared), never the other way, so one hash
 * serves the exact and the case-blind pass: a quarter of the work of mixing each character in.
 */
function gramHash(text: string, at: number): number {
  const packed =
    ((text.charCodeAt(at) | 32) & 255) |
    (((text.charCodeAt(at + 1) | 32) & 255) << 8) |
    (((text.charCodeAt(at + 2) | 32) & 255) << 16) |
    (((text.charCodeAt(at + 3) | 32) & 255) << 24)
  return Math.imul(packed, 0x9e3779b1) >>> (32 - HASH_BITS)
}

/**
 * A test of whether `text`'s letters and digits, in any case and whatever stands between them, hold
 * any of `needles` (letters and digits) in a row: what every match of a secret spread out
 * (secret-spread.ts) holds. One pass over the text for every needle of a fleet, where the pattern of
 * each key spread out was a pass of its own (ten keys: 14 ms over a run's reports, 16 over its
 * result's strings). As anchorFilter, it looks at every stride-th position only: a needle of `m`
 * letters and digits stands over `m` positions at least, and the GRAM letters and digits from the
 * first at or after such a position are a piece of it (the text's letters and digits, the rest
 * taken out). A hit is checked against the needles, walking both ways. It takes no bound between
 * letters the pattern has: it tells a text that may hold a needle (the pattern then decides), never
 * passes one that does.
 */
export function lettersInOrderFilter(needles: readonly string[]): (text: string) => boolean {
  const folded = [...new Set(needles.map((n) => n.toLowerCase()))]
  if (folded.some((n) => !/^[a-z0-9]+$/.test(n))) throw new Error('lettersInOrderFilter: a needle of letters and digits only')
  if (folded.length === 0) return () => false
  const shortest = folded.reduce((least, n) => Math.min(least, n.length), Infinity)
  // a needle shorter than GRAM is looked for in the text's every letter or digit
  if (shortest < GRAM) {
    return (text) => {
      const kept = text.replace(/[^A-Za-z0-9]+/g, '').toLowerCase()
      return folded.some((n) => kept.includes(n))
    }
  }
  const stride = shortest - GRAM + 1
  const byGram = new Map<number, { needle: string; at: number }[]>()
  const bitmap = new Int32Array(1 << (HASH_BITS - 5))
  for (const needle of folded) {
    for (let at = 0; at + GRAM <= needle.length; at++) {
      let gram = 0
      for (let k = 0; k < GRAM; k++) gram = (gram << 8) | needle.charCodeAt(at + k)
      const pieces = byGram.get(gram)
      if (pieces) pieces.push({ needle, at })
      else byGram.set(gram, [{ needle, at }])
      const hash = Math.imul(gram, 0x9e3779b1) >>> (32 - HASH_BITS)
      bitmap[hash >>> 5]! |= 1 << (hash & 31)
    }
  }
  return (text) => {
    const end = text.length
    for (let x = stride - 1; x < end; ) {
      // the first letter or digit at x or after, and the GRAM from it
      let first = x
      while (first < end && letterOrDigit(text.charCodeAt(first)) === 0) first++
      let gram = 0
      let count = 0
      for (let i = first; i < end && count < GRAM; i++) {
        const c = letterOrDigit(text.charCodeAt(i))
        if (c === 0) continue
        gram = (gram << 8) | c
        count++
      }
      if (count < GRAM) return false
      const hash = Math.imul(gram, 0x9e3779b1) >>> (32 - HASH_BITS)
      if ((bitmap[hash >>> 5]! & (1 << (hash & 31))) !== 0) for (const { needle, at } of byGram.get(gram) ?? []) if (inOrderAround(text, first, needle, at)) return true
      // the positions up to `first` start their GRAM there too
      x += stride
      if (x <= first) x += Math.ceil((first - x + 1) / stride) * stride
    }
    return false
  }
}

/** A character's code in lower case when it is an ASCII letter or digit; 0 otherwise (c | 32 is a-z only for A-Z and a-z). */
function letterOrDigit(c: number): number {
  const lower = c | 32
  return (lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) ? lower : 0
}

/** Whether `needle` stands in the text's letters and digits with its character `at` at `from`. */
function inOrderAround(text: string, from: number, needle: string, at: number): boolean {
  let i = from
  for (let k = at; k < needle.length; k++, i++) {
    while (i < text.length && letterOrDigit(text.charCodeAt(i)) === 0) i++
    if (i >= text.length || letterOrDigit(text.charCodeAt(i)) !== needle.charCodeAt(k)) return false
  }
  i = from - 1
  for (let k = at - 1; k >= 0; k--, i--) {
    while (i >= 0 && letterOrDigit(text.charCodeAt(i)) === 0) i--
    if (i < 0 || letterOrDigit(text.charCodeAt(i)) !== needle.charCodeAt(k)) return false
  }
  return true
}

/**
 * A run of `secret`'s characters that every escaped form of it keeps as they are (`kept`: the
 * characters no encoder escapes), of at least SHORTEST_WINDOW characters; undefined when it has none.
 */
export function keptRun(secret: string, kept: RegExp): string | undefined {
  let longest = ''
  let run = ''
  for (const c of secret) {
    run = kept.test(c) ? run + c : ''
    if (run.length > longest.length) longest = run
  }
  return longest.length >= SHORTEST_WINDOW ? longest : undefined
}

/** `text` as a regular expression that matches it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/**
 * `redact` with its answers to short texts kept: a text met again (a header's value, a rule's id,
 * a name sent; in each deployment of a fleet, which shares one redactor) answered as it was the
 * first time, not passed through every step again (a few µs each, most of them clean). 86 % of the
 * 64,000 texts a fleet of ten redacted are such repeats. The same answers: a redactor is a function
 * of the text alone. At most MEMO_TEXTS texts and MEMO_CHARS characters kept (texts and answers), then
 * forgotten together: counted in texts alone, 20,000 texts of 1,024 characters kept 80 MB (review50).
 */
export function textsMet(redact: (text: string) => string): (text: string) => string {
  const met = new Map<string, string>()
  let chars = 0
  return (text) => {
    if (text.length > MEMO_LONGEST) return redact(text)
    let out = met.get(text)
    if (out === undefined) {
      out = redact(text)
      const size = text.length + (out === text ? 0 : out.length)
      if (met.size >= MEMO_TEXTS || chars + size > MEMO_CHARS) [chars] = [0, met.clear()]
      chars += size
      // kept in characters of their own: a cut of a long text (and an answer that holds one) is a view of it whole, which kept would keep it alive
      const kept = ownCopy(text)
      met.set(kept, out === text ? kept : ownCopy(out))
    }
    return out
  }
}
// 2 M characters, 4 MB of UTF-16: a fleet of ten meets about 9,000 texts, most of them a few dozen characters
const [MEMO_LONGEST, MEMO_TEXTS, MEMO_CHARS] = [1024, 20_000, 2_000_000]

/** `text` in characters of its own: not a view of a longer text it was cut from, which it would keep in memory. Every UTF-16 unit as it was, a lone surrogate too. */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'utf16le').toString('utf16le')
}
