/**
 * The runs of a secret that a server may echo in place of the whole of it (lib/http/redact.ts hides
 * them after every whole form).
 */
import { anchorFilter, escapeRegExp } from './secret-filter.ts'

/**
 * Secrets this long or longer are also hidden in part: any run of FRAGMENT characters of them
 * (fragmentLength), in either case. A server may echo a key cut short ("invalid token
 * 'HoStIlE7kEy9Qz3X…'"), split over two headers, or with its case folded (a header name, which
 * HTTP makes lower-case; an upper-cased log line), and each of those is most of the key, or all of
 * it with a guess of each letter's case. A key of 12 to 15 characters has runs of 8 hidden: a
 * server that echoed its first 10 left 2 to 5 to guess. A key of 8 to 11 characters has runs of
 * SHORT_KEY_RUN hidden: hidden whole only, a server that echoed 8 of its 10 ("hunter2x" of
 * hunter2x99) left 2 to guess; a run of 6 with a digit or both cases is no word of a report.
 * The same for the wrong key of the same shape (sameShape), which the suite sends and which gives
 * the key back character by character.
 */
export const FRAGMENT_MIN_SECRET_LENGTH = 12

/** The runs hidden of a key of 8 to 11 characters (NEAR_MISS_MIN_KEY_LENGTH to FRAGMENT_MIN_SECRET_LENGTH - 1): what it leaves of an echo cut short is 3 characters and more to guess. */
const SHORT_KEY_RUN = 6

/** The shortest run of a secret hidden on its own: a third of it, at least 8 and at most 12 characters (a 32-character key split in three still is); SHORT_KEY_RUN of a key of 8 to 11. */
export const fragmentLength = (secret: string) => (secret.length < FRAGMENT_MIN_SECRET_LENGTH ? SHORT_KEY_RUN : Math.min(12, Math.max(8, Math.floor(secret.length / 3))))

/** One secret's runs of fragmentLength characters, as one case-blind pattern, and the secret folded, to tell how far a run goes on. */
interface FragmentPattern {
  pattern: RegExp
  folded: string
  length: number
  /** Its runs, lower-case: the anchors of the pass that tells whether a text may hold one. */
  runs: string[]
}

/**
 * A run with no digit whose letters are of one case, or lower-case after one capital, reads as a
 * word ("conformance", "Categori" of a key made of words, "base-url" of base-url-key-4e8a1c, which
 * the tool's own words hold: --base-url): hidden in any case, it would hide that word in every
 * report. A random key's runs have a digit or letters of both cases, or symbols no word holds: two
 * or more characters besides letters, digits and `-_./:` (a key of lower-case letters and symbols,
 * `pk_$(id)\`x\`${HOME}9a`, echoed cut in two, left its first half of 10 whole: each of its runs of 8 read as a word).
 */
const readsAsWord = (run: string) => !/[0-9]/.test(run) && (!/[A-Z]/.test(run.slice(1)) || !/[a-z]/.test(run)) && !/[^A-Za-z0-9\-_./:][^]*[^A-Za-z0-9\-_./:]/.test(run)

/**
 * A run of SHORT_KEY_RUN digits alone reads as a number: the microseconds of the date and time a
 * create sends ("…59.123456+00:00"), a duration, an id. Hidden in every report for a key of
 * 12345678, they made the evidence of a conforming run read "59.[REDACTED]+00:00".
 */
const readsAsNumber = (run: string) => run.length <= SHORT_KEY_RUN && /^[0-9]+$/.test(run)

/**
 * A run the tool's own name holds, which junit.xml's <testsuites>, results.json's tool and the HTML
 * page write in every run: a key named after the service hid it in every report of a conforming run
 * ("petstore-categor" of petstore-categories-key as joined words, "tstore-C" of
 * Petstore-Categories-Key as a run of both cases). Such a run is left.
 */
const inToolName = (run: string) => 'petstore-categories-conformance'.includes(run.toLowerCase())

/**
 * Words of a key joined by its own characters, two thirds of it long: no report's prose or id is
 * that much of a key ("missing-key-for" of missing-key-for-the-ci is no rule id), but a server's
 * "test-key-for-the-ci" of test-key-for-the-ci-2024 gave it back to 10^4 guesses, where each run
 * of 8 read as words.
 */
const joinedWords = (secret: string) => Math.ceil((2 * secret.length) / 3)

/** The shortest run hidden (fragmentLength). */
const SHORTEST_FRAGMENT = SHORT_KEY_RUN

function fragmentPatternOf(secret: string): FragmentPattern | undefined {
  // a key is visible ASCII (lib/config/api-key.ts); a secret --header's value may hold Latin-1 past it (an é: echoed cut short, it stood
  // whole); another secret is left to its forms
  if (secret.length < SHORTEST_KEY_RUN || !/^[\x20-\x7e\xa0-\xff]*$/.test(secret)) return undefined
  const folded = secret.toLowerCase()
  const length = fragmentLength(secret)
  const runs = new Set<string>()
  for (let at = 0; at + length <= folded.length; at++) {
    const run = secret.slice(at, at + length)
    if (!readsAsWord(run) && !readsAsNumber(run) && !inToolName(run)) runs.add(run.toLowerCase())
  }
  const words = joinedWords(secret)
  if (secret.length >= FRAGMENT_MIN_SECRET_LENGTH) for (let at = 0; at + words <= folded.length; at++) if (readsAsWord(secret.slice(at, at + words)) && /[A-Za-z][^A-Za-z0-9]+[A-Za-z]/.test(secret.slice(at, at + words)) && !inToolName(secret.slice(at, at + words))) runs.add(folded.slice(at, at + words))
  if (runs.size === 0) return undefined
  return { pattern: new RegExp([...runs].map(escapeRegExp).join('|'), 'gi'), folded, length, runs: [...runs] }
}

/** `text` with every run of a secret's characters (fragmentPatternOf), as long as it goes on, replaced by `replacement`. */
function redactFragments(text: string, { pattern, folded, length }: FragmentPattern, replacement: string): string {
  if (text.length < length) return text
  pattern.lastIndex = 0
  let out = ''
  let from = 0
  let match: RegExpExecArray | null
  while ((match = pattern.exec(text)) !== null) {
    const start = match.index
    const run = match[0].toLowerCase()
    // the run may stand at several places of the secret (a key with a repeated run): the one that goes on longest
    let end = start + length
    for (let at = folded.indexOf(run); at >= 0; at = folded.indexOf(run, at + 1)) {
      let upTo = start + length
      while (upTo < text.length && at + (upTo - start) < folded.length && text[upTo]!.toLowerCase() === folded[at + (upTo - start)]) upTo++
      end = Math.max(end, upTo)
    }
    out += text.slice(from, start) + replacement
    from = end
    pattern.lastIndex = end
  }
  return from === 0 ? text : out + text.slice(from)
}

/** Replaces every run of each secret (fragmentPatternOf) with `replacement`; secrets with none are left to their forms. */
export function runsRedactor(secrets: readonly string[], replacement: string, knownClean: (text: string) => boolean = () => false): (text: string) => string {
  const fragments = secrets.flatMap((secret) => fragmentPatternOf(secret) ?? [])
  if (fragments.length === 0) return (text) => (knownClean(text), text)
  // one case-blind pass tells the few texts that hold a run of some secret (runs of 8 characters and more: a filter always);
  // a text a pass of these runs' anchors and others' found clean (`knownClean`, redact.ts) holds none of them either, asked first, so that the pass forgets it whatever its length
  const holdsRun = anchorFilter(fragments.flatMap((f) => f.runs), true)!
  return (text) => (knownClean(text) || text.length < SHORTEST_FRAGMENT || !holdsRun(text) ? text : fragments.reduce((redacted, fragment) => redactFragments(redacted, fragment, replacement), text))
}

/** The anchors of runsRedactor's pass over the same secrets: every run it hides holds one. */
export const runAnchors = (secrets: readonly string[]): string[] => secrets.flatMap((secret) => fragmentPatternOf(secret)?.runs ?? [])

/** What a key is made of (visible ASCII: lib/config/api-key.ts), and so what each of its forms is. */
const KEY_CHARACTER = /[\x21-\x7e]/
/** The shortest run of key characters that may be a key (NEAR_MISS_MIN_KEY_LENGTH): a shorter one is hidden only standing apart, and whole. */
const SHORTEST_KEY_RUN = 8

/**
 * The first `limit` characters of a server's text that a check quotes before the reports redact it
 * (a record's name, a body's start): the cut never keeps the start of a run of key characters that
 * goes on past it. A key the server echoed whole and the cut split was hidden in no report: its
 * forms are whole, and a key of 8 to 11 characters had no runs then, so the first 9 of an
 * 11-character key stood there (lib/http/quoted-cut.ts redacts first). Up to FRAGMENT_MIN_SECRET_LENGTH - 1 characters
 * go back: what a longer key leaves before the cut is a run the reports hide.
 */
export function cutClearOfSecrets(text: string, limit: number): string {
  if (text.length <= limit || !KEY_CHARACTER.test(text.charAt(limit))) return text.slice(0, limit)
  let before = 0
  while (before < limit && KEY_CHARACTER.test(text.charAt(limit - before - 1))) before++
  let after = 0
  while (after < SHORTEST_KEY_RUN && KEY_CHARACTER.test(text.charAt(limit + after))) after++
  if (before + after < SHORTEST_KEY_RUN) return text.slice(0, limit)
  return text.slice(0, limit - Math.min(before, FRAGMENT_MIN_SECRET_LENGTH - 1))
}
