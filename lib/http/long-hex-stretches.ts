/**
 * Where a long run of hex (a dump of a whole body: lib/http/secret-hex-runs.ts LONG_HEX_START, more
 * than 256 bytes, 514 digits together at the fewest) can stand: in a stretch of that many hex
 * digits and separators in a row. Such a stretch holds a character at every LONG_RUN_STEP-th
 * position, so only those are read, and the stretch around each that is one of them; the pattern
 * then looks in those stretches only. Over the whole text, its first digit was tried at every hex
 * digit of every text a fleet redacted: the costliest pattern of a fleet's redaction, 3.1 ms of a
 * deployment's results.json's 23 (perf34), where a run's texts hold one such stretch (a number of
 * 1,001 digits a check sends) or none.
 */

/** LONG_HEX_START's fewest characters (514 digits together; a separator between every two bytes takes 769), and how far apart the characters read are (at most that). */
export const [SHORTEST_LONG_RUN, LONG_RUN_STEP] = [514, 256]

/** Each stretch of `text` of SHORTEST_LONG_RUN hex digits, spaces, colons and dashes or more, [start, end), in order. */
export function longStretches(text: string): [number, number][] {
  const found: [number, number][] = []
  for (let i = LONG_RUN_STEP - 1; i < text.length; i += LONG_RUN_STEP) {
    if (!inRun(text.charCodeAt(i))) continue
    // back at most to the character read before (not in a stretch, or this one would have been passed); on by a pattern, as a dump is megabytes
    let start = i
    while (start > 0 && inRun(text.charCodeAt(start - 1))) start--
    REST_OF_STRETCH.lastIndex = i
    REST_OF_STRETCH.test(text)
    const end = REST_OF_STRETCH.lastIndex
    if (end - start >= SHORTEST_LONG_RUN) found.push([start, end])
    // the next character read is past this stretch
    i += Math.floor((end - 1 - i) / LONG_RUN_STEP) * LONG_RUN_STEP
  }
  // V8 keeps the text of the last match that succeeded (RegExp.input) until another does: REST_OF_STRETCH's always does, and
  // a body with no long stretch in it, which no later pattern matched, stayed alive with it (29 MB, test/http/redact-one-anchor-pass.test.ts)
  FORGET.exec('')
  return found
}

const FORGET = /(?:)/
const REST_OF_STRETCH = /[0-9a-fA-F :-]*/y
const inRun = (code: number) => (code >= 0x30 && code <= 0x3a) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66) || code === 0x20 || code === 0x2d

/**
 * The next match of the global `pattern` from `at`, as its exec over the whole text finds it,
 * where each of its matches stands within one of `stretches` (it matches only characters they are
 * made of): each read with the two characters before it that the pattern's look behind reads.
 * The stretches that end at or before `at` are passed over from where the last search left them,
 * as each search starts past the last: read from the first, a text of thousands of stretches (a
 * created name of 16 MB of hex, redacted whole) took seconds, not the whole-text pattern's tenth of one.
 */
export function withinStretches(stretches: readonly [number, number][], pattern: RegExp): (text: string, at: number) => RegExpExecArray | null {
  let first = 0
  return (text, at) => {
    // a search from further back (none of eachSpan's) reads them from the first again
    if (first > 0 && stretches[first - 1]![1] > at) first = 0
    while (first < stretches.length && stretches[first]![1] <= at) first++
    for (let next = first; next < stretches.length; next++) {
      const [start, end] = stretches[next]!
      const from = Math.max(start, at)
      const window = Math.max(0, from - 2)
      pattern.lastIndex = from - window
      const match = pattern.exec(text.slice(window, end))
      if (match) return (match.index += window), match
    }
    return null
  }
}
