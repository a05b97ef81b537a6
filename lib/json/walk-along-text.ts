/**
 * parseJsonExact's fast path (lib/json/exact-json.ts): the tree JSON.parse made of a text, walked
 * in document order along that text, each value over its own text, keeping the text of each long
 * number literal beside its parent. A string or key is stepped over in one step (its parsed length
 * is its length in the text when the character there closes it; escapes are looked for only when
 * it does not); structure characters are checked where the tree puts them. The tree is in the
 * text's order unless an object has integer-like keys (enumerated first) or a key twice (the last
 * value wins, at the first key's place): the first is seen in the walk, the second as a comma where
 * the tree's object ends, and either ends the walk with false, as does any number that cannot be
 * its literal's.
 */
import { keep } from './exact-literals.ts'

/** A literal of fewer characters and no exponent survives JSON.parse exactly (see exact-json.ts). */
export const LONG_LITERAL = 16
/** Deeper than this the walk leaves the text to the slow path, whose walk needs no call stack. */
const MAX_WALK_DEPTH = 2_000

/** 10^0 … 10^22: every one an exact double. */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, k) => 10 ** k)

/**
 * The fast path, on a text JSON.parse accepted: false when the tree's order is not the text's (the
 * tree is then dropped, with whatever was kept on it). Plain functions that take the walk's place
 * in the text and return the place after what they stepped over (-1: the text is not where the
 * tree says), so that the place stays in a register.
 */
export function attachAlongText(root: object, text: string): boolean {
  const end = walkNode(text, skipSpace(text, 0), root, 0)
  return end >= 0 && skipSpace(text, end) === text.length
}

function skipSpace(text: string, at: number): number {
  let c = text.charCodeAt(at)
  while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++at)
  return at
}

/** Steps over the string at `at` whose parsed value has `length` UTF-16 units. */
function skipString(text: string, at: number, length: number): number {
  if (text.charCodeAt(at) !== 34) return -1
  // escapes only lengthen a string's text: with none, the quote `length` further closes it, and a
  // quote not after a backslash there is the first that is not escaped, so it closes it
  const close = at + 1 + length
  if (text.charCodeAt(close) === 34 && (length === 0 || text.charCodeAt(close - 1) !== 92)) return close + 1
  let i = at + 1
  for (;;) {
    const q = text.indexOf('"', i)
    if (q < 0) return -1
    let b = q - 1
    while (text.charCodeAt(b) === 92) b--
    i = q + 1
    if ((q - 1 - b) % 2 === 0) return i // an even number of backslashes before it: not escaped
  }
}

/** Steps over the number literal at `at`, keeping its text beside parent[key] when it is long. */
function skipNumber(text: string, at: number, parent: object, key: string | number, value: number): number {
  const start = at
  const c = text.charCodeAt(at)
  if (c !== 45 && (c < 48 || c > 57)) return -1
  at++
  let exponent = false
  let plain = true
  for (;;) {
    const d = text.charCodeAt(at)
    if (d >= 48 && d <= 57) at++
    else if (d === 46 || d === 43 || d === 45) {
      plain = false
      at++
    } else if (d === 101 || d === 69) {
      exponent = true
      at++
    } else break
  }
  if (at - start < LONG_LITERAL && !exponent) return at
  const literal = text.slice(start, at)
  plain &&= !exponent
  if (!agrees(value, literal, plain ? at - start - (c === 45 ? 1 : 0) : 0)) return -1
  keep(parent, key, plain ? literal : { text: literal }) // on the discarded tree if the walk fails later: gone with it
  return at
}

/** Steps over the value `child` of parent[key], at `at` (spaces before it included). */
function walkValue(text: string, at: number, parent: object, key: string | number, child: unknown, depth: number): number {
  at = skipSpace(text, at)
  if (typeof child === 'string') return skipString(text, at, child.length)
  if (typeof child === 'number') return skipNumber(text, at, parent, key, child)
  if (child === null) return text.charCodeAt(at) === 110 ? at + 4 : -1 // null
  if (child === true) return text.charCodeAt(at) === 116 ? at + 4 : -1 // true
  if (child === false) return text.charCodeAt(at) === 102 ? at + 5 : -1 // false
  return walkNode(text, at, child as object, depth + 1)
}

/** Steps over `code` at `at`, after spaces. */
function skipCharacter(text: string, at: number, code: number): number {
  at = skipSpace(text, at)
  return text.charCodeAt(at) === code ? at + 1 : -1
}

/** Steps over the array or object `node`, whose text begins at `at`. */
function walkNode(text: string, at: number, node: object, depth: number): number {
  if (depth > MAX_WALK_DEPTH) return -1
  if (Array.isArray(node)) {
    if (text.charCodeAt(at) !== 91) return -1 // [
    at++
    for (let i = 0; i < node.length; i++) {
      if (i > 0 && (at = skipCharacter(text, at, 44)) < 0) return -1 // ,
      if ((at = walkValue(text, at, node, i, node[i], depth)) < 0) return -1
    }
    return skipCharacter(text, at, 93) // ]
  }
  if (text.charCodeAt(at) !== 123) return -1 // {
  at++
  let first = true
  for (const key in node) {
    // integer-like keys are enumerated before the others, whatever their place in the text
    if (first && isIndexLike(key)) return -1
    if (!first && (at = skipCharacter(text, at, 44)) < 0) return -1 // ,
    first = false
    if ((at = skipString(text, skipSpace(text, at), key.length)) < 0) return -1
    if ((at = skipCharacter(text, at, 58)) < 0) return -1 // :
    if ((at = walkValue(text, at, node, key, (node as Record<string, unknown>)[key], depth)) < 0) return -1
  }
  // a key given twice leaves the object with fewer keys than its text: a comma is found here
  return skipCharacter(text, at, 125) // }
}

/**
 * Whether a number can be its literal's, a guard against pairing a literal with the wrong number
 * (which the walk along the text rules out): for a plain integer of at most 22 digits, its sign and count of
 * digits, which costs a tenth of parsing the literal again, as a million ids would; else the value.
 */
function agrees(value: number, literal: string, digits: number): boolean {
  if (digits === 0 || digits > 22) return Number(literal) === value
  const magnitude = literal.charCodeAt(0) === 45 ? -value : value
  return magnitude >= POWERS_OF_TEN[digits - 1] && magnitude <= POWERS_OF_TEN[digits]
}

function isIndexLike(key: string): boolean {
  const c = key.charCodeAt(0)
  return c >= 48 && c <= 57 && /^\d+$/.test(key)
}

