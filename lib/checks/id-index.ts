/**
 * Records indexed by their exact id, built once per list and shared by the checks that compare ids
 * (ids-unique, created-in-list and its list lag, still-listed): a million records with ids beyond
 * 2^53 are indexed in a fraction of the time and memory of a Map keyed by id texts.
 *
 * Two records share an id when their ids' exact texts (idOf) are equal, as before. An integer id of
 * at most 19 digits (every int64) is read as its double (equal ids make equal doubles) and its last
 * four digits (ids past 2^53 that share a double differ there, by less than 2,048), with no string
 * and no bigint made for it. A list whose ids strictly increase or decrease (a service listing by
 * id) is proven free of repeats by that one pass, and searched by bisection. Any other list gets a
 * hash table: per slot the 32-bit hash and the record's position, a matching hash confirmed on the
 * records themselves (two plain literals compare as texts), the hash seeded at random so that a
 * server cannot choose ids that all land on one slot. An id that is not such an integer is kept by
 * its text in a Map.
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

/** Lookups by bisection in a list in order before the hash table is built for them. */
const SEARCHES_BEFORE_TABLE = 4_096
const INCOMPARABLE = 2

/**
 * -1, 0 or 1 as the id of `a` is below, equal to or above that of `b`, when both are integers of
 * at most 19 digits; else INCOMPARABLE.
 */
function compareIds(a: WithId, b: WithId): -1 | 0 | 1 | typeof INCOMPARABLE {
  if (!readKey(a)) return INCOMPARABLE
  const valueA = key[VALUE]
  const tailA = key[TAIL]
  if (!readKey(b)) return INCOMPARABLE
  // doubles keep the order of the ids they round
  if (valueA !== key[VALUE]) return valueA < key[VALUE] ? -1 : 1
  // ids of at most 19 digits that round to one double are less than 2,048 apart, so their
  // difference is that of their last four digits, brought within ±5,000
  let difference = (tailA - key[TAIL]) % 10_000
  if (difference > 5_000) difference -= 10_000
  else if (difference < -5_000) difference += 10_000
  return difference === 0 ? 0 : difference < 0 ? -1 : 1
}

/** 1 when the ids of the records strictly increase, -1 when they strictly decrease, else 0. */
function orderOf(records: readonly WithId[]): 1 | -1 | 0 {
  if (records.length < 2) return 0
  const first = compareIds(records[1], records[0])
  if (first === 0 || first === INCOMPARABLE) return 0
  for (let i = 2; i < records.length; i++) if (compareIds(records[i], records[i - 1]) !== first) return 0
  return first
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
  /**
   * 1 when the ids strictly increase along the list, -1 when they strictly decrease (as a service
   * that lists by id does; then no id repeats, and a record is found by bisection), else 0.
   */
  private readonly order: 1 | -1 | 0
  /** Bisections so far: past SEARCHES_BEFORE_TABLE, the hash table is built after all. */
  private searches = 0
  private lastHash = 0
  private readonly seed = (Math.random() * 2 ** 32) | 0
  private mask = 0
  /** Per slot, side by side (one cache line): the id's hash, and the position + 1 of the first record with it (0: empty). */
  private slots: Int32Array | undefined
  private readonly byText = new Map<string, number>()
  /** Every position of an id listed more than once, by the position of its first record. */
  private readonly repeated = new Map<number, number[]>()
  /** The first record (in list order) whose id an earlier record has, and that earlier record. */
  readonly firstRepeat: { first: number; second: number } | undefined

  private constructor(records: readonly WithId[]) {
    this.records = records
    this.order = orderOf(records)
    this.firstRepeat = this.order === 0 ? this.buildTable() : undefined
  }

  /** Builds the hash table; returns the first repeat. */
  private buildTable(): { first: number; second: number } | undefined {
    let capacity = 16
    while (capacity < this.records.length * 2) capacity *= 2
    this.mask = capacity - 1
    this.slots = new Int32Array(capacity * 2)
    let firstRepeat: { first: number; second: number } | undefined
    for (let position = 0; position < this.records.length; position++) {
      const first = this.insert(position)
      if (first === position) continue
      const positions = this.repeated.get(first)
      if (positions) positions.push(position)
      else this.repeated.set(first, [first, position])
      firstRepeat ??= { first, second: position }
    }
    return firstRepeat
  }

  /** The position of the record with the id of `record` in a list in order (see order), or -1. */
  private bisect(record: WithId): number {
    let low = 0
    let high = this.records.length - 1
    while (low <= high) {
      const middle = (low + high) >>> 1
      const c = compareIds(record, this.records[middle])
      if (c === INCOMPARABLE) return -1 // not an integer id: a list in order has none
      if (c === 0) return middle
      if (c === this.order) low = middle + 1
      else high = middle - 1
    }
    return -1
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
    const slots = this.slots as Int32Array
    let slot = h & this.mask
    for (;;) {
      const at = slots[2 * slot + 1]
      if (at === 0) return slot
      if (slots[2 * slot] === h && sameId(this.records[at - 1], record)) return slot
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
    const slots = this.slots as Int32Array
    const slot = this.slotOf(record)
    const at = slots[2 * slot + 1]
    if (at !== 0) return at - 1
    slots[2 * slot] = this.lastHash
    slots[2 * slot + 1] = position + 1
    return position
  }

  /** The position of the first record with the id of `record`, or -1. */
  private find(record: WithId): number {
    if (this.slots === undefined) {
      // a list in order: bisection, unless lookups are so many that the table pays for itself
      if (++this.searches <= SEARCHES_BEFORE_TABLE) return this.bisect(record)
      this.buildTable()
    }
    if (!readKey(record)) return this.byText.get(text) ?? -1
    return (this.slots as Int32Array)[2 * this.slotOf(record) + 1] - 1
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
