/**
 * Records indexed by their exact id, built once per list and shared by the checks that compare ids
 * (ids-unique, created-in-list and its list lag, still-listed): a million records with ids beyond
 * 2^53 are indexed in a fraction of the time and memory of a Map keyed by id texts.
 *
 * Two records share an id when their ids' exact texts (idOf) are equal, as before. An integer id of
 * at most 19 digits (every int64) is hashed from its double (equal ids make equal doubles) and its
 * last four digits (ids past 2^53 that share a double differ there), with no string and no bigint
 * made for it; the table keeps, per slot, the 32-bit hash and the record's position, and a matching
 * hash is confirmed on the records themselves (two plain literals compare as texts). The hash is
 * seeded at random, so that a server cannot choose ids that all land on one slot. Any other id
 * (not an integer, or longer) is kept by its text in a Map.
 */
import { exactIntegerTextAt, literalAt, numberText, plainIntegerLiteralAt } from '../json/exact-json.ts'

/** The fields of a record the index reads: its id. */
interface WithId {
  id?: unknown
}

// the key of the id last read (readKey true): its double and its last four digits, in a typed
// array, where storing a double allocates nothing (a module variable would box each one)
const key = new Float64Array(2)
const VALUE = 0
const TAIL = 1
// the id last read as text (readKey false)
let text = ''
// the bits of a double, for the hash
const bits = new Float64Array(1)
const bitHalves = new Int32Array(bits.buffer)

/** The id of a record as exact decimal text (JSON.parse would round it past 2^53). */
export function idOf(record: WithId): string {
  return exactIntegerTextAt(record, 'id') ?? numberText(record, 'id')
}

/**
 * Reads the key of a record's id: for an integer of at most 19 digits, its double (what JSON.parse
 * made of it, the same for equal ids) and its last four digits (which tell apart the ids past 2^53
 * that share a double), true; for any other id, its text, false.
 */
function readKey(record: WithId): boolean {
  const value = record.id
  if (typeof value === 'number') {
    const plain = plainIntegerLiteralAt(record, 'id')
    if (plain !== undefined) {
      if (plain.length - (plain.charCodeAt(0) === 45 ? 1 : 0) <= 19) {
        key[VALUE] = value
        key[TAIL] = tailOf(plain)
        return true
      }
    } else if (Number.isSafeInteger(value) && literalAt(record, 'id') === undefined) {
      key[VALUE] = value + 0 // -0 is 0
      key[TAIL] = (value % 10_000) + 0
      return true
    }
  }
  const exact = idOf(record)
  if (CANONICAL_INTEGER.test(exact)) {
    key[VALUE] = Number(exact)
    key[TAIL] = tailOf(exact)
    return true
  }
  text = exact
  return false
}

/** Canonical decimal integers of 1 to 19 digits (no leading zero, no "-0"). */
const CANONICAL_INTEGER = /^(?:-?[1-9][0-9]{0,18}|0)$/

/** The last four digits of a canonical decimal integer, with its sign. */
function tailOf(digits: string): number {
  const negative = digits.charCodeAt(0) === 45
  let tail = 0
  for (let i = Math.max(negative ? 1 : 0, digits.length - 4); i < digits.length; i++) tail = tail * 10 + digits.charCodeAt(i) - 48
  return negative ? -tail : tail
}

/** Whether two records have the same id: their idOf texts are equal, told without making them when it can. */
function sameId(a: WithId, b: WithId): boolean {
  const x = a.id
  const y = b.id
  if (typeof x === 'number' && typeof y === 'number') {
    if (x !== y) return false // equal ids make equal doubles
    const plainA = plainIntegerLiteralAt(a, 'id')
    const plainB = plainIntegerLiteralAt(b, 'id')
    if (plainA !== undefined && plainB !== undefined) return plainA === plainB // each its own exact text
    if (Number.isSafeInteger(x) && literalAt(a, 'id') === undefined && literalAt(b, 'id') === undefined) return true
  }
  return idOf(a) === idOf(b)
}

export class IdIndex {
  private static readonly built = new WeakMap<readonly WithId[], IdIndex>()

  /** The index of a list, built on first use; the list is a parsed body, which nothing changes. */
  static of(records: readonly WithId[]): IdIndex {
    let index = IdIndex.built.get(records)
    if (!index) {
      index = new IdIndex(records)
      IdIndex.built.set(records, index)
    }
    return index
  }

  private readonly records: readonly WithId[]
  private lastHash = 0
  private readonly seed = (Math.random() * 2 ** 32) | 0
  private readonly mask: number
  /** Per slot, side by side (one cache line): the id's hash, and the position + 1 of the first record with it (0: empty). */
  private readonly slots: Int32Array
  private readonly byText = new Map<string, number>()
  /** Every position of an id listed more than once, by the position of its first record. */
  private readonly repeated = new Map<number, number[]>()
  /** The first record (in list order) whose id an earlier record has, and that earlier record. */
  readonly firstRepeat: { first: number; second: number } | undefined

  private constructor(records: readonly WithId[]) {
    this.records = records
    let capacity = 16
    while (capacity < records.length * 2) capacity *= 2
    this.mask = capacity - 1
    this.slots = new Int32Array(capacity * 2)
    let firstRepeat: { first: number; second: number } | undefined
    for (let position = 0; position < records.length; position++) {
      const first = this.insert(position)
      if (first === position) continue
      const positions = this.repeated.get(first)
      if (positions) positions.push(position)
      else this.repeated.set(first, [first, position])
      firstRepeat ??= { first, second: position }
    }
    this.firstRepeat = firstRepeat
  }

  private hash(): number {
    bits[0] = key[VALUE]
    let h = Math.imul(bitHalves[0] ^ this.seed, 0x9e3779b1) ^ Math.imul(bitHalves[1] ^ key[TAIL], 0x85ebca6b)
    h ^= h >>> 15
    h = Math.imul(h, 0xc2b2ae35)
    return h ^ (h >>> 13)
  }

  /** The slot of the id of `record`, whose key was just read: the one holding it, or the empty one where it goes. */
  private slotOf(record: WithId): number {
    const h = (this.lastHash = this.hash())
    let slot = h & this.mask
    for (;;) {
      const at = this.slots[2 * slot + 1]
      if (at === 0) return slot
      if (this.slots[2 * slot] === h && sameId(this.records[at - 1], record)) return slot
      slot = (slot + 1) & this.mask
    }
  }

  /** Indexes the record at position; returns the position of the first record with its id. */
  private insert(position: number): number {
    const record = this.records[position]
    if (!readKey(record)) {
      const first = this.byText.get(text)
      if (first !== undefined) return first
      this.byText.set(text, position)
      return position
    }
    const slot = this.slotOf(record)
    const at = this.slots[2 * slot + 1]
    if (at !== 0) return at - 1
    this.slots[2 * slot] = this.lastHash
    this.slots[2 * slot + 1] = position + 1
    return position
  }

  /** The position of the first record with the id of `record`, or -1. */
  private find(record: WithId): number {
    if (!readKey(record)) return this.byText.get(text) ?? -1
    return this.slots[2 * this.slotOf(record) + 1] - 1
  }

  /** Whether a record with the id of `record` is in the list. */
  has(record: WithId): boolean {
    return this.find(record) >= 0
  }

  /** Positions of the records that have the id of `record`, in list order (none: empty). */
  positionsOf(record: WithId): readonly number[] {
    const first = this.find(record)
    if (first < 0) return []
    return this.repeated.get(first) ?? [first]
  }

  /**
   * The position of the last record with the id of `record` (what a Map from ids keeps), or -1.
   * `guess` is tried first, without the table, when the list's ids are all distinct: two lists of
   * one service usually keep the same order, and a record read where it was costs no random access.
   */
  lastPositionOf(record: WithId, guess = -1): number {
    if (guess >= 0 && guess < this.records.length && this.firstRepeat === undefined && sameId(record, this.records[guess])) return guess
    const first = this.find(record)
    const positions = first < 0 ? undefined : this.repeated.get(first)
    return positions ? positions[positions.length - 1] : first
  }
}
