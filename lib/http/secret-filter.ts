/**
 * Which texts may hold one of many secrets, in one pass over the text however many secrets there
 * are. A fleet redacts every deployment's reports with every deployment's key (a service that
 * leaks another tenant's key, or the key it expects, to a deployment given a wrong one), and a
 * pattern per key applied in turn costs a pass per key: ten deployments made 100 passes over
 * their reports. Each secret's forms give anchors, texts that every match of a form contains.
 *
 * The pass does not look at every position of the text. An anchor of `m` characters or more, where
 * it stands, covers `m - GRAM + 1` consecutive positions at which a GRAM-character piece of it
 * starts, so one of them is a multiple of that stride: hashing the text's GRAM characters at every
 * stride-th position, against a bitmap of the hashes of every piece of every anchor, finds every
 * anchor. A hit is checked against the anchors themselves. Twelve characters, the shortest anchor of
 * a 32-character key, make a stride of 9, about nine times fewer positions than a rolling hash of
 * every one (ten keys over a fleet's reports: 85 ms). Only a text that holds an anchor is then
 * redacted pattern by pattern (lib/http/redact.ts).
 */

/** The characters hashed at each position looked at. */
const GRAM = 4
/** Anchors shorter than this would be ordinary text too often for the pass to save anything. */
export const SHORTEST_WINDOW = GRAM
const BITS = 1 << 18
const BASE = 0x01000193

/**
 * A test of whether `text` contains any of `anchors`, or undefined when they are too short to make
 * one worth it. `foldCase`: in any case of the ASCII letters (the runs of a key, lib/http/redact.ts).
 */
export function anchorFilter(anchors: readonly string[], foldCase = false): ((text: string) => boolean) | undefined {
  if (anchors.length === 0) return () => false
  const shortest = Math.min(...anchors.map((a) => a.length))
  if (shortest < SHORTEST_WINDOW) return undefined
  const hashAt = foldCase ? foldedHashAt : exactHashAt
  const fold = (text: string) => (foldCase ? text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase()) : text)
  // every occurrence of an anchor holds its first `shortest` characters: longer ones add nothing
  const heads = [...new Set(anchors.map((a) => fold(a.slice(0, shortest))))]
  const stride = shortest - GRAM + 1
  const bitmap = new Uint32Array(BITS >>> 5)
  // each piece's hash: the heads it is part of, and where in them it starts
  const byHash = new Map<number, { head: string; at: number }[]>()
  for (const head of heads) {
    for (let at = 0; at + GRAM <= shortest; at++) {
      const hash = hashAt(head, at)
      const bit = hash & (BITS - 1)
      bitmap[bit >>> 5] = (bitmap[bit >>> 5] ?? 0) | (1 << (bit & 31))
      byHash.set(hash, [...(byHash.get(hash) ?? []), { head, at }])
    }
  }
  return (text) => {
    const last = text.length - GRAM
    for (let i = stride - 1; i <= last; i += stride) {
      const hash = hashAt(text, i)
      const bit = hash & (BITS - 1)
      if (((bitmap[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) continue
      for (const { head, at } of byHash.get(hash) ?? []) if (i >= at && (foldCase ? fold(text.slice(i - at, i - at + head.length)) === head : text.startsWith(head, i - at))) return true
    }
    return false
  }
}

/** A hash of text's GRAM characters from `at`, mixed so that its low bits depend on every one. */
function exactHashAt(text: string, at: number): number {
  let hash = text.charCodeAt(at)
  for (let i = 1; i < GRAM; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(at + i)) | 0
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b)
  return hash ^ (hash >>> 16)
}

/** exactHashAt of the text with A-Z as a-z. */
function foldedHashAt(text: string, at: number): number {
  let code = text.charCodeAt(at)
  let hash = code - 65 < 26 && code >= 65 ? code + 32 : code
  for (let i = 1; i < GRAM; i++) {
    code = text.charCodeAt(at + i)
    hash = (Math.imul(hash, BASE) + (code - 65 < 26 && code >= 65 ? code + 32 : code)) | 0
  }
  hash = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b)
  return hash ^ (hash >>> 16)
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
