/**
 * Records indexed by their exact id, built once per list and shared by the checks that compare ids
 * (ids-unique, created-in-list, the list lag): a million records with ids beyond 2^53 are indexed
 * in a tenth of the time a Map keyed by id texts takes, and in a fifth of its memory.
 *
 * Two records share an id when their ids' exact texts (idOf) are equal, as before. An id that is
 * an integer of at most 19 digits, in its canonical text (every int64 is), is held as two doubles,
 * the digits above and below the ninth (high · 10^9 + low, both carrying the sign), computed from
 * the number itself for a safe integer and from the literal's digits otherwise, so that no string
 * and no bigint is made for it. The table keeps, per slot, a 32-bit hash and the record's position;
 * on a matching hash the record's id is read again and compared. The hash is seeded at random, so
 * that a server cannot choose ids that all land on one slot. Any other id (not an integer, longer,
 * or a text that is not canonical) is kept by its text in a Map.
 */
import { exactIntegerTextAt, literalAt, numberText } from '../json/exact-json.ts'

/** The fields of a record the index reads: its id. */
interface WithId {
  id?: unknown
}

const BILLION = 1e9

// the id last read, as two doubles (readId true) or as its text (readId false); the doubles in
// a typed array, where storing one allocates nothing (a module variable would box each one)
const read = new Float64Array(2)
const HIGH = 0
const LOW = 1
let text = ''

/** The id of a record as exact decimal text (JSON.parse would round it past 2^53). */
export function idOf(record: WithId): string {
  return exactIntegerTextAt(record, 'id') ?? numberText(record, 'id')
}

/** Reads a record's id into high and low (true), or into text (false). */
function readId(record: WithId): boolean {
  const value = record.id
  if (typeof value === 'number') {
    const literal = literalAt(record, 'id')
    if (literal === undefined && Number.isSafeInteger(value)) {
      const low = value % BILLION
      read[LOW] = low
      read[HIGH] = (value - low) / BILLION // exact: an integer multiple of 10^9 divided by 10^9
      return true
    }
    // a plain integer literal is its own exact text: read without making another string
    if (literal !== undefined && readDigits(literal)) return true
  }
  const exact = idOf(record)
  if (readDigits(exact)) return true
  text = exact
  return false
}

/** Whether two records have the same id (their idOf texts are equal). */
function sameId(a: WithId, b: WithId): boolean {
  if (!readId(a)) return !readId(b) && text === idOf(a)
  const aHigh = read[HIGH]
  const aLow = read[LOW]
  return readId(b) && read[HIGH] === aHigh && read[LOW] === aLow
}

/**
 * Reads a canonical decimal integer of 1 to 19 digits (no leading zero, no "-0") into high and low;
 * false for any other text.
 */
function readDigits(digits: string): boolean {
  const negative = digits.charCodeAt(0) === 45
  const start = negative ? 1 : 0
  const end = digits.length
  if (end - start < 1 || end - start > 19) return false
  const lead = digits.charCodeAt(start)
  if (lead === 48 ? end - start > 1 || negative : lead < 49 || lead > 57) return false
  const split = Math.max(start, end - 9)
  let h = 0
  let l = 0
  for (let i = start; i < end; i++) {
    const d = digits.charCodeAt(i) - 48
    if (d < 0 || d > 9) return false
    if (i < split) h = h * 10 + d
    else l = l * 10 + d
  }
  read[HIGH] = negative ? -h : h
  read[LOW] = negative ? -l : l
  return true
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
    const high = read[HIGH]
    // high has up to 11 digits: its bits below and above the 32nd
    let h = Math.imul(read[LOW] ^ this.seed, 0x9e3779b1) ^ Math.imul((high % 4294967296) ^ (high / 4294967296), 0x85ebca6b)
    h ^= h >>> 15
    h = Math.imul(h, 0xc2b2ae35)
    return h ^ (h >>> 13)
  }

  /** The slot of the id just read (high, low): the one holding it, or the empty one where it goes. */
  private slotOf(): number {
    const h = (this.lastHash = this.hash())
    const idHigh = read[HIGH]
    const idLow = read[LOW]
    let slot = h & this.mask
    for (;;) {
      const at = this.slots[2 * slot + 1]
      if (at === 0) return slot
      if (this.slots[2 * slot] === h) {
        readId(this.records[at - 1]) // an integer id too: only those are in the table
        const same = read[HIGH] === idHigh && read[LOW] === idLow
        read[HIGH] = idHigh
        read[LOW] = idLow
        if (same) return slot
      }
      slot = (slot + 1) & this.mask
    }
  }

  /** Indexes the record at position; returns the position of the first record with its id. */
  private insert(position: number): number {
    if (!readId(this.records[position])) {
      const first = this.byText.get(text)
      if (first !== undefined) return first
      this.byText.set(text, position)
      return position
    }
    const slot = this.slotOf()
    const at = this.slots[2 * slot + 1]
    if (at !== 0) return at - 1
    this.slots[2 * slot] = this.lastHash
    this.slots[2 * slot + 1] = position + 1
    return position
  }

  /** The position of the first record with the id of `record`, or -1. */
  private find(record: WithId): number {
    if (!readId(record)) return this.byText.get(text) ?? -1
    return this.slots[2 * this.slotOf() + 1] - 1
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
