/**
 * JSON parsing that keeps int64 values exact without giving up JSON.parse speed.
 *
 * JSON.parse turns 9007199254740993 into 9007199254740992, so an id near 2^53 or 2^63 cannot be
 * compared or range-checked after it. A number literal of at most 15 characters and no exponent
 * has at most 15 significant digits and survives JSON.parse exactly (integer-ness and value), so
 * only the longer literals, and those with an exponent (9999999999999e5 is past 2^53), need their
 * text kept. JSON.parse reads the text first, so what it rejects is rejected (SyntaxError); a text
 * without 16 number characters in a row and without an exponent anywhere has no such literal, and
 * its tree is all there is to it. Otherwise:
 *
 * - fast path: the tree is walked in document order along the text, each value over its own text,
 *   and each long literal's text is kept beside its parent (lib/json/walk-along-text.ts, which
 *   also says when the tree's order is not the text's: then the slow path);
 * - slow path: one pass over the text finds the long literals outside strings, the text is
 *   rewritten (each long literal becomes a marker string), parsed again, and the markers are turned
 *   back into numbers whose literal text is remembered.
 */

import { keep, keptAt } from './exact-literals.ts'
import { attachAlongText, LONG_LITERAL } from './walk-along-text.ts'

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

const STRICT_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/
const PLAIN_INTEGER = /^-?[1-9]\d*$/

/** Start and end offsets of number literals of 16 or more characters, or with an exponent, that stand outside strings. */
export function findLongNumberLiterals(text: string): number[] {
  const long: number[] = []
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // a string: jump from quote to quote, a quote counts when an even number of backslashes precede it
      i++
      for (;;) {
        const q = text.indexOf('"', i)
        if (q < 0) return long // unterminated: JSON.parse rejects the text
        let b = q - 1
        while (text.charCodeAt(b) === 92) b--
        i = q + 1
        if ((q - 1 - b) % 2 === 0) break
      }
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i++
      let exponent = false
      while (i < n) {
        const d = text.charCodeAt(i)
        if ((d >= 48 && d <= 57) || d === 46 || d === 43 || d === 45) i++
        else if (d === 101 || d === 69) {
          exponent = true
          i++
        } else break
      }
      // an exponent makes a short literal large (9999999999999e5 is past 2^53): keep its text too
      if (i - start >= LONG_LITERAL || exponent) long.push(start, i)
    } else {
      i++
    }
  }
  return long
}

/**
 * Where a number literal of 16 characters or more, or one with an exponent, may stand: 16 of the
 * characters of a literal without exponent in a row, or a digit and an exponent (strings too may
 * match: the walk tells). Written as 16 classes rather than a count, which lets the regular
 * expression engine look 16 characters ahead and skip: a tenth of the time of a count.
 */
const MAYBE_LONG_LITERAL = new RegExp(`${'[-.0-9]'.repeat(LONG_LITERAL)}|[0-9][eE]`)

/**
 * How deep arrays and objects may nest in a text parsed here, as RFC 8259 §9 allows a parser ("may
 * set limits on the maximum depth of nesting"): ten times Jackson's default limit (1000, since
 * 2.15), far past any answer the document describes (a record echoing the suite's 300-deep unknown
 * field nests 302), and past the ordered walk's (walk-along-text.ts), whose slow path stays in use.
 * JSON.parse cannot be cut short, and a deep text costs it thirty times what a flat one does: a
 * server answering 10 MB of `[[[[…]]]]` held the run 3 s per answer, and one run 10 s past its
 * --deadline (measured); 10,000 levels take it 2 ms.
 */
export const MAX_JSON_DEPTH = 10_000

/**
 * Arrays and objects past which a text that holds more than one in every CHARACTERS_PER_CONTAINER
 * characters is not parsed. JSON.parse makes each one an object, and their cost grows faster than
 * their number: 60 MB of `[{},{},…]` (20 million) took it 17 s, and four such answers held a run
 * with --deadline 10000 for 64 s (measured), where a 77 MB list of 3 million records takes 2 s. A
 * Category record is 18 characters or more, so a list with an empty array and an empty object
 * besides in every record (`{"id":1,"name":"a","t":[],"u":{}}`: one in 11) is read; 500,000
 * empty objects take JSON.parse 0.2 s.
 */
export const DENSE_CONTAINERS = 500_000
export const CHARACTERS_PER_CONTAINER = 8

/** A text past MAX_JSON_DEPTH, or dense in arrays and objects past DENSE_CONTAINERS, refused before JSON.parse reads it. */
export class JsonOverLimitError extends SyntaxError {
  constructor(readonly limit: 'depth' | 'containers', containers = 0, length = 0) {
    super(
      limit === 'depth'
        ? `arrays and objects nested more than ${MAX_JSON_DEPTH} levels deep (RFC 8259 §9 lets a parser limit nesting; Jackson's limit is 1000)`
        : `${containers} arrays and objects in ${length} characters, more than one in every ${CHARACTERS_PER_CONTAINER} (JSON.parse takes seconds over so many; a Category record is 18 characters or more)`,
    )
  }
}

/** Why `text` is past a limit, or undefined: one pass outside its strings (jumping from quote to quote as findLongNumberLiterals does), cut short past the depth. */
function overLimit(text: string): JsonOverLimitError | undefined {
  const n = text.length
  let depth = 0
  let containers = 0
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i)
    if (c === 91 || c === 123) {
      containers++
      if (++depth > MAX_JSON_DEPTH) return new JsonOverLimitError('depth')
    } else if (c === 93 || c === 125) {
      depth--
    } else if (c === 34) {
      for (;;) {
        const q = text.indexOf('"', i + 1)
        if (q < 0) return undefined
        let b = q - 1
        while (text.charCodeAt(b) === 92) b--
        i = q
        if ((q - 1 - b) % 2 === 0) break
      }
    }
  }
  return containers > DENSE_CONTAINERS && containers * CHARACTERS_PER_CONTAINER > n ? new JsonOverLimitError('containers', containers, n) : undefined
}

/** Texts longer than this are looked at in samples first (mayBeDense): the whole scan costs a large list a fifth of its parse. */
const SAMPLED_PAST = 1 << 16
const SAMPLES = 1024
const SAMPLE_CHARACTERS = 64

/**
 * Whether a long text may hold arrays and objects densely enough to pass a limit: two of SAMPLES
 * evenly spaced windows (the same for the same text: a verdict does not depend on chance) with one
 * `[` or `{` in every 16 characters, twice as sparse as the limit's. A list of records has about
 * one in 80, and a text whose dense part costs JSON.parse a second (a million containers, 3 MB)
 * covers a twentieth of the largest body read, where fifty windows fall. A text nested deep more sparsely costs JSON.parse about what a list of as many
 * records does (64 MB: 4 million levels, about 3 s; the largest lists take 2).
 */
function mayBeDense(text: string): boolean {
  if (text.length <= SAMPLED_PAST) return true
  let dense = 0
  for (let k = 0; k < SAMPLES; k++) {
    const from = Math.floor((k * (text.length - SAMPLE_CHARACTERS)) / (SAMPLES - 1))
    let openers = 0
    for (let i = from; i < from + SAMPLE_CHARACTERS; i++) {
      const c = text.charCodeAt(i)
      if (c === 91 || c === 123) openers++
    }
    if (openers * 16 >= SAMPLE_CHARACTERS && ++dense >= 2) return true
  }
  return false
}

/** JSON.parse, keeping the exact text of every number that JSON.parse could round. Throws SyntaxError (JsonOverLimitError past MAX_JSON_DEPTH or DENSE_CONTAINERS). */
export function parseJsonExact(text: string): unknown {
  // a text too short to pass either limit (MAX_JSON_DEPTH brackets each side) is not looked at, nor a long one whose samples are sparse: most are
  const over = text.length > 2 * MAX_JSON_DEPTH && mayBeDense(text) ? overLimit(text) : undefined
  if (over) throw over
  const value = JSON.parse(text) as unknown
  if (value === null || typeof value !== 'object') return value // a lone number: no parent to keep its text beside
  if (!MAYBE_LONG_LITERAL.test(text)) return value
  if (attachAlongText(value, text)) return value
  return parseRewritten(text, findLongNumberLiterals(text))
}

/** The slow path, for a text JSON.parse has accepted: long literals become marker strings, parsed, revived. */
function parseRewritten(text: string, long: number[]): unknown {
  const marker = `\u0000n${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}:`
  const open = '"' + marker.replace('\u0000', '\\u0000')
  const parts: string[] = []
  let last = 0
  for (let k = 0; k < long.length; k += 2) {
    parts.push(text.slice(last, long[k]), open + text.slice(long[k], long[k + 1]) + '"')
    last = long[k + 1]
  }
  parts.push(text.slice(last))
  const root = JSON.parse(parts.join('')) as object
  let left = long.length / 2
  const stack: object[] = [root]
  const revive = (node: object, key: string | number, child: unknown): void => {
    if (typeof child === 'string') {
      if (child.charCodeAt(0) === 0 && child.startsWith(marker)) {
        const literal = child.slice(marker.length)
        ;(node as Record<string | number, unknown>)[key] = Number(literal)
        keep(node, key, PLAIN_INTEGER.test(literal) ? literal : { text: literal })
        left--
      }
    } else if (child !== null && typeof child === 'object') {
      stack.push(child)
    }
  }
  while (stack.length > 0 && left > 0) {
    const node = stack.pop() as object
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) revive(node, i, node[i])
    else for (const key of Object.keys(node)) revive(node, key, (node as Record<string, unknown>)[key])
  }
  return root
}

/** The literal text of the number at parent[key] when JSON.parse could have rounded it. */
export function literalAt(parent: unknown, key: string | number): string | undefined {
  if (parent === null || typeof parent !== 'object') return undefined
  const kept = keptAt(parent, key)
  return typeof kept === 'object' ? kept.text : kept
}

/**
 * The literal text of the number at parent[key] when JSON.parse could have rounded it and it is a
 * plain integer (-?[1-9][0-9]*: its own exact decimal text); undefined otherwise.
 */
export function plainIntegerLiteralAt(parent: unknown, key: string | number): string | undefined {
  if (parent === null || typeof parent !== 'object') return undefined
  const kept = keptAt(parent, key)
  return typeof kept === 'string' ? kept : undefined
}

/** The exact integer value of a JSON number literal, or null when it is not integer-valued. */
export function integerOfLiteral(literal: string): bigint | null {
  const m = STRICT_NUMBER.exec(literal)
  if (!m) return null
  const negative = literal.startsWith('-')
  const intPart = m[1]
  const fraction = m[2] ? m[2].slice(1) : ''
  const exponent = m[3] ? Number(m[3].slice(1)) : 0
  let digits = (intPart + fraction).replace(/^0+/, '')
  let scale = exponent - fraction.length
  if (digits === '') return 0n
  while (scale < 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1)
    scale++
  }
  if (scale < 0) return null
  // beyond any range a caller compares against: keep the sign, cap the size
  const magnitude = scale > 400 ? 10n ** 400n : BigInt(digits) * 10n ** BigInt(scale)
  return negative ? -magnitude : magnitude
}

/** The exact integer at parent[key], or null when the value there is not an integer-valued number. */
export function exactIntegerAt(parent: unknown, key: string | number): bigint | null {
  const literal = literalAt(parent, key)
  if (literal !== undefined) return integerOfLiteral(literal)
  const value = (parent as Record<string | number, unknown> | null)?.[key]
  if (typeof value !== 'number' || !Number.isInteger(value)) return null
  return BigInt(value)
}

/**
 * The exact integer at parent[key] in decimal (what exactIntegerAt(…)?.toString() gives), or null
 * when it is not an integer-valued number. Cheap for the usual ids: no bigint is made for them.
 */
export function exactIntegerTextAt(parent: unknown, key: string | number): string | null {
  const plain = plainIntegerLiteralAt(parent, key)
  if (plain !== undefined) return plain
  const literal = literalAt(parent, key)
  if (literal !== undefined) return integerOfLiteral(literal)?.toString() ?? null
  const value = (parent as Record<string | number, unknown> | null)?.[key]
  if (typeof value !== 'number' || !Number.isInteger(value)) return null
  return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString()
}

/** The text of the number at parent[key] as the server wrote it (exact for long literals). */
export function numberText(parent: unknown, key: string | number): string {
  const literal = literalAt(parent, key)
  if (literal !== undefined) return literal
  return String((parent as Record<string | number, unknown>)[key])
}

export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX
}

const INT64_MAX_TEXT = INT64_MAX.toString()
const INT64_MIN_TEXT = INT64_MIN.toString()

/**
 * Whether the number at parent[key] is an integer in int64 range, judged on its exact value:
 * 'int64', 'not-integer' (or not a number) or 'out-of-range'. Safe integers and plain integer
 * literals are judged without making a bigint.
 */
export function int64StatusAt(parent: unknown, key: string | number): 'int64' | 'not-integer' | 'out-of-range' {
  const plain = plainIntegerLiteralAt(parent, key)
  if (plain !== undefined) {
    const limit = plain.charCodeAt(0) === 45 ? INT64_MIN_TEXT : INT64_MAX_TEXT
    if (plain.length !== limit.length) return plain.length < limit.length ? 'int64' : 'out-of-range'
    return plain <= limit ? 'int64' : 'out-of-range'
  }
  const literal = literalAt(parent, key)
  if (literal === undefined) {
    const value = (parent as Record<string | number, unknown> | null)?.[key]
    if (typeof value !== 'number' || !Number.isInteger(value)) return 'not-integer'
    if (Number.isSafeInteger(value)) return 'int64'
    return isInt64(BigInt(value)) ? 'int64' : 'out-of-range'
  }
  const value = integerOfLiteral(literal)
  if (value === null) return 'not-integer'
  return isInt64(value) ? 'int64' : 'out-of-range'
}
