/**
 * Which texts may hold one of many secrets, in one pass over the text however many secrets there
 * are. A fleet redacts every deployment's reports with every deployment's key (a service that
 * leaks another tenant's key, or the key it expects, to a deployment given a wrong one), and a
 * pattern per key applied in turn costs a pass per key: ten deployments made 100 passes over
 * their reports. Each secret's forms give anchors, texts of WINDOW characters that every match
 * of a form contains; a rolling hash of each window of the text (Rabin–Karp) is looked up in a
 * bitmap of the anchors' hashes, and a hit is checked against the anchors themselves. Only a text
 * that holds an anchor is then redacted pattern by pattern (lib/http/redact.ts).
 */

/** The characters of an anchor, at most: the shortest form of a key long enough to have near-misses is 7. */
export const WINDOW = 7
/** Anchors shorter than this would be ordinary text too often for the pass to save anything. */
export const SHORTEST_WINDOW = 4
const BITS = 1 << 18
const BASE = 0x01000193

/** A test of whether `text` contains any of `anchors`, or undefined when they are too short to make one worth it. */
export function anchorFilter(anchors: readonly string[]): ((text: string) => boolean) | undefined {
  if (anchors.length === 0) return () => false
  const window = Math.min(WINDOW, ...anchors.map((a) => a.length))
  if (window < SHORTEST_WINDOW) return undefined
  // BASE to the window's power, less one: what the character leaving the window added to the hash
  let outgoing = 1
  for (let i = 1; i < window; i++) outgoing = Math.imul(outgoing, BASE)
  const bitmap = new Uint32Array(BITS >>> 5)
  const byHash = new Map<number, string[]>()
  for (const anchor of anchors) {
    const head = anchor.slice(0, window)
    const hash = hashOf(head, window)
    const word = (hash & (BITS - 1)) >>> 5
    bitmap[word] = (bitmap[word] ?? 0) | (1 << (hash & 31))
    const same = byHash.get(hash) ?? []
    if (!same.includes(head)) same.push(head)
    byHash.set(hash, same)
  }
  return (text) => {
    if (text.length < window) return false
    let hash = 0
    for (let i = 0; i < window; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0
    for (let end = window; ; end++) {
      const bit = hash & (BITS - 1)
      if (((bitmap[bit >>> 5] ?? 0) & (1 << (bit & 31))) !== 0) {
        const start = end - window
        for (const head of byHash.get(hash) ?? []) if (text.startsWith(head, start)) return true
      }
      if (end === text.length) return false
      hash = (Math.imul(hash - Math.imul(text.charCodeAt(end - window), outgoing), BASE) + text.charCodeAt(end)) | 0
    }
  }
}

function hashOf(text: string, window: number): number {
  let hash = 0
  for (let i = 0; i < window; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(i)) | 0
  return hash
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
