/**
 * JSON parsing that keeps int64 values exact without giving up JSON.parse speed.
 *
 * JSON.parse turns 9007199254740993 into 9007199254740992, so an id near 2^53 or 2^63 cannot be
 * compared or range-checked after it. A number literal of at most 15 characters has at most 15
 * significant digits and survives JSON.parse exactly (integer-ness and value), so only the longer
 * literals need their text kept. One pass over the text finds them outside strings; only when
 * there are any is the text rewritten (each long literal becomes a marker string), parsed once, and
 * the markers turned back into numbers whose literal text is remembered beside the parent object.
 */

const exactLiterals = new WeakMap<object, Map<string | number, string>>()

export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

const STRICT_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/
const LONG_LITERAL = 16

/** Start and end offsets of number literals of 16 or more characters that stand outside strings. */
export function findLongNumberLiterals(text: string): number[] {
  const spans: number[] = []
  const n = text.length
  let i = 0
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // a string: jump from quote to quote, a quote counts when an even number of backslashes precede it
      i++
      for (;;) {
        const q = text.indexOf('"', i)
        if (q < 0) return spans // unterminated: JSON.parse will reject the text
        let b = q - 1
        while (text.charCodeAt(b) === 92) b--
        i = q + 1
        if ((q - 1 - b) % 2 === 0) break
      }
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if ((d >= 48 && d <= 57) || d === 46 || d === 101 || d === 69 || d === 43 || d === 45) i++
        else break
      }
      if (i - start >= LONG_LITERAL) spans.push(start, i)
    } else {
      i++
    }
  }
  return spans
}

/** JSON.parse, keeping the exact text of every number that JSON.parse could round. Throws SyntaxError. */
export function parseJsonExact(text: string): unknown {
  const spans = findLongNumberLiterals(text)
  if (spans.length === 0) return JSON.parse(text)

  const marker = `\u0000n${Math.random().toString(36).slice(2)}:`
  const escapedMarker = marker.replace('\u0000', '\\u0000')
  const parts: string[] = []
  let last = 0
  let replaced = 0
  for (let k = 0; k < spans.length; k += 2) {
    const literal = text.slice(spans[k], spans[k + 1])
    // a literal that is not a JSON number stays as it is, so JSON.parse still rejects it
    if (!STRICT_NUMBER.test(literal)) continue
    // nor does one that stands where a key belongs: as a string it would make invalid text valid
    if (/^\s*:/.test(text.slice(spans[k + 1], spans[k + 1] + 64))) continue
    parts.push(text.slice(last, spans[k]), '"', escapedMarker, literal, '"')
    last = spans[k + 1]
    replaced++
  }
  if (replaced === 0) return JSON.parse(text)
  parts.push(text.slice(last))
  const value = JSON.parse(parts.join('')) as unknown
  return reviveMarkers(value, marker, replaced)
}

function reviveMarkers(root: unknown, marker: string, count: number): unknown {
  let left = count
  const revive = (value: unknown): string | undefined => {
    if (typeof value === 'string' && value.startsWith(marker)) return value.slice(marker.length)
    return undefined
  }
  if (typeof root === 'string') {
    const literal = revive(root)
    return literal === undefined ? root : Number(literal)
  }
  const stack: unknown[] = [root]
  while (stack.length > 0 && left > 0) {
    const node = stack.pop()
    if (node === null || typeof node !== 'object') continue
    const isArray = Array.isArray(node)
    const keys: (string | number)[] = isArray ? node.map((_, i) => i) : Object.keys(node)
    for (const key of keys) {
      const child = (node as Record<string | number, unknown>)[key]
      if (typeof child === 'string') {
        const literal = revive(child)
        if (literal !== undefined) {
          ;(node as Record<string | number, unknown>)[key] = Number(literal)
          let literals = exactLiterals.get(node)
          if (!literals) exactLiterals.set(node, (literals = new Map()))
          literals.set(key, literal)
          left--
        }
      } else if (child !== null && typeof child === 'object') {
        stack.push(child)
      }
    }
  }
  return root
}

/** The literal text of the number at parent[key] when JSON.parse could have rounded it. */
export function literalAt(parent: unknown, key: string | number): string | undefined {
  if (parent === null || typeof parent !== 'object') return undefined
  return exactLiterals.get(parent)?.get(key)
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

/** The text of the number at parent[key] as the server wrote it (exact for long literals). */
export function numberText(parent: unknown, key: string | number): string {
  const literal = literalAt(parent, key)
  if (literal !== undefined) return literal
  return String((parent as Record<string | number, unknown>)[key])
}

export function isInt64(value: bigint): boolean {
  return value >= INT64_MIN && value <= INT64_MAX
}
