/**
 * A secret in base32 (RFC 4648: a TOTP seed's alphabet, Java's and Go's `base32.StdEncoding`, a
 * debug page that shows a header so), inside a longer text too: it held none of the key's other
 * forms, and stood whole in every report.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** `bytes` in base32, upper-case, without padding. */
export function base32(bytes: Uint8Array): string {
  let out = ''
  let bits = 0
  let value = 0
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) out += ALPHABET[(value >>> (bits - 5)) & 31], (bits -= 5)
  }
  return bits > 0 ? out + ALPHABET[(value << (5 - bits)) & 31] : out
}

/**
 * The base32 characters that only the secret's bytes decide, at each of the five alignments it can
 * start at inside a longer text (`base32("Bearer <key>")`), upper-case and, where the caller looks
 * for them in one case only (`lowerToo`), lower-case as well (Python's `b32encode(...).lower()`).
 * Only for secrets of `shortest` bytes or more: these runs (8/5 of the key's length, less two) are then no word.
 */
export function base32Inside(secret: string, shortest: number, lowerToo: boolean): string[] {
  const bytes = Buffer.from(secret)
  if (bytes.length < shortest) return []
  const upper = [0, 1, 2, 3, 4].map((offset) => {
    // character i holds bits [5i, 5i + 5); the secret's bits are [8 offset, 8 (offset + length))
    const text = base32(Buffer.concat([Buffer.alloc(offset), bytes]))
    return text.slice(Math.ceil((8 * offset) / 5), Math.floor((8 * (offset + bytes.length)) / 5))
  })
  return lowerToo ? [...upper, ...upper.map((form) => form.toLowerCase())] : upper
}
