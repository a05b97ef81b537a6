/**
 * JSON text that every parser reads. JSON.stringify writes a lone surrogate (a UTF-16 code unit
 * that no UTF-8 text can carry, which a server's answer holds as the escape \ud800 and JSON.parse
 * turns into one) as that escape. RFC 8259 §8.2 allows it and leaves what a parser makes of it
 * open. jq 1.6 (Debian 12, Ubuntu 22.04) refuses the whole file ("Invalid \uXXXX\uXXXX surrogate
 * pair escape"), so `jq .verdict results.json` broke in CI. Every run's results.json held one: the
 * ledger's record of the create with a lone surrogate, as the reference server gives its name back.
 * The files say it as the text of that escape (`\\ud800`), as the Markdown and HTML reports show it.
 */

/** An escape of a surrogate that JSON.stringify wrote (a backslash it did not escape itself: after an even number of them). */
const LONE_SURROGATE_ESCAPE = /(?<!\\)((?:\\\\)*)\\u(d[89a-f][0-9a-f]{2})/g

/**
 * Characters that a line splitter other than LF's takes for the end of a line, which JSON.stringify
 * leaves as they are: NEL (U+0085), LINE SEPARATOR and PARAGRAPH SEPARATOR. journal.ndjson is read
 * a line at a time, and Python's str.splitlines() (the idiom for a file read whole) cut its lines
 * at them: 213 of a run's 720 lines no longer parsed, for a server's name holding one, and for the
 * suite's own descriptions that carry U+2028. Written as their escapes, they are the same strings.
 */
const LINE_BREAKS_BEYOND_LF = '\\u0085\\u2028\\u2029'

/**
 * Characters a terminal acts on or reorders by, which JSON.stringify leaves as they are (it escapes
 * ESC and the other C0 controls only): DEL, the C1 controls (U+009B is CSI, ESC [ in one character,
 * which xterm and VTE obey in UTF-8 too: a server's Retry-After of "\u009b31m" went raw into
 * results.json and journal.ndjson, files a step prints), and the bidi controls (an override
 * reorders the line it is printed in). Written as their escapes, they are the same strings.
 */
const ACTING_CHARACTERS = new RegExp(`[\\u007f-\\u009f${LINE_BREAKS_BEYOND_LF}\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069]`, 'g')

/**
 * The first `#` of a CI log command read anywhere in a line (`##vso[`, `##teamcity[`, GitHub's
 * `##[`; lib/reporters/ci-log-commands.ts says which systems act on them). Declared here, the lowest
 * layer that writes one: the JSON files write it as the escape `\u0023`, which every parser reads
 * as the same string, so that a file a step prints (`cat results.json`) holds no command. A `#`
 * stands only inside a string in JSON, so the escape is always in one.
 */
export const LOG_COMMAND = /#(?=#(?:vso|teamcity)?\[)/gi

/**
 * JSON.stringify's text, each lone surrogate written as the text of its escape, no line break but
 * LF's, no character a terminal acts on (ACTING_CHARACTERS), and no CI log command a server wrote (LOG_COMMAND).
 */
export function portableJson(value: unknown, indent?: number): string {
  return portableJsonText(JSON.stringify(value, null, indent))
}

/**
 * portableJson's rewriting of JSON.stringify's text, which may be several texts joined (the journal's
 * lines of an event loop's turn, each JSON.stringify's: one pass over them all, not one per line).
 */
export function portableJsonText(json: string): string {
  let text = json
  // JSON.stringify escapes only lone surrogates (a pair is written as its character): most texts have none
  if (text.includes('\\ud')) text = text.replace(LONE_SURROGATE_ESCAPE, '$1\\\\u$2')
  text = text.replace(ACTING_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return text.includes('#') ? text.replace(LOG_COMMAND, '\\u0023') : text
}
