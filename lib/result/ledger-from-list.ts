/**
 * The ledger of a run: every record it created. An answer tells of most (a 201, or a lost answer or
 * a 503 whose record the list showed: the journal's `created`), but not of a record a service
 * stored although it refused the POST (a 400, 401 or 413 after its commit, a 409 after the INSERT)
 * or failed it (a 500, a gateway's 502 or 504, an answer lost): the run named those only in a
 * failure (REFUSED_CREATE_STORED) or counted them apart as POSTs that may have created a record,
 * although the lists it read after its POSTs showed them under its prefix. Whoever cleans up after
 * a run must find them all.
 *
 * So every list the run reads is noted (ListsRead, which the suites hand each list answer through
 * the run's context): the records of it whose name or description carries one of the run's
 * prefixes (the run's, its confirmation attempts' and further rounds'; never another run's). Each
 * of them that no answer announced becomes a ledger row, matched to the POST of the journal that
 * sent it, with how it came to be ("stored though answered 400", "answer lost, record found" …).
 * A record announced by a 201 is matched by its id (or, when the list gives it another id, by the
 * POST that sent it) and counted once. A run that ends before any list is read reports as before.
 */
import { exactIntegerTextAt, numberText, parseJsonExact } from '../json/exact-json.ts'
import type { HttpResult } from '../http/client.ts'
import { parsedJsonOf } from '../checks/response.ts'
import { endedAt, faultAnsweredWrite, LEDGER_ID_CHARACTERS, LEDGER_TEXT_CHARACTERS, ledgerText, nameSent, unansweredWrite, type JournalEntry } from '../http/journal.ts'
import { ANSWER_LOST_RECORD_FOUND } from '../http/lost-answer.ts'

/** A record the run created, as the answer to its POST said (read from the journal, lib/http/journal.ts), or as a list the run read showed it (foundInList). */
export interface LedgerEntry {
  id: string
  name: string
  /** The answer's status: a 2xx, or for a record found in a list (foundInList) the answer of the POST that sent it (0: none came, or no POST matched). */
  status: number
  /** The POST's exchange (the journal's id); for a record no POST sent, the list's that showed it. */
  exchangeId: string
  /** The body sent, redacted. */
  body?: string
  /** The answer was lost in the connection race and the list showed the record (status 0): the journal's words. */
  answerLost?: string
  /** A record no answer announced, which a list the run read showed: how it came to be ("stored though answered 400"). */
  foundInList?: string
  /** Such a record that no POST of the journal sent: its description as listed (where the prefix may stand). */
  description?: string
}

/** A record of a list the run read, one of the run's (a prefix of the run in its name or description). */
export interface ListedRecord {
  /** As createdRecord (lib/http/journal.ts) reads a 201's: the exact integer, or the text the server wrote. */
  id: string
  name?: string
  description?: string
}

/** One list the run read (GET answered 200 with an array): when it was sent, and the run's records it showed. */
export interface ListSighting {
  exchangeId: string
  sentAt: string
  records: ListedRecord[]
}

/** The lists a run read, as the suites hand them over (RunContext.listsRead); shared by the run's confirmation attempts and rounds. */
export class ListsRead {
  readonly sightings: ListSighting[] = []
  /** A list showed a record the run created only on a re-read, or reads of it differed (suites/categories/list-lag.ts): a record stored late shows late, so the list read for the ledger waits out --list-lag. */
  lagSeen = false
  /** Every record of the first list the run read, by key (recordKey). */
  private firstKeys?: Set<string>
  /** Of the latest list the run read (by when it was sent), the records the first did not show that carry none of the run's prefixes (unprefixedNew). */
  gained: { sentAt: number; records: ListedRecord[]; count: number } | undefined
  /** `redact`: the run's redactor, applied before a record's text is cut (a cut inside the key leaves a part of it no redactor knows). */
  constructor(
    readonly prefixes: readonly string[],
    readonly redact: (text: string) => string = (text) => text,
  ) {}

  /** A list answer the run read: its records that carry one of the run's prefixes are kept, the others (another run's, the service's own) never. */
  note(list: HttpResult): void {
    const { exchange, text } = list
    if (exchange.response?.status !== 200 || text === undefined) return
    // a list is parsed once, for the checks too, and walked for the records it gained (noteGained);
    // one the checks refuse as JSON text (a byte order mark, bytes not UTF-8) still shows what the
    // service stored, decoded as the client decoded it, when it holds one of the run's prefixes
    const carries = this.prefixes.some((p) => text.includes(p))
    const parsed = parsedJsonOf(list) ?? (carries ? parsedText(text) : undefined)
    const records = carries ? runRecords(parsed, this.prefixes, this.redact) : []
    this.sightings.push({ exchangeId: exchange.id, sentAt: exchange.startedAt, records })
    if (Array.isArray(parsed)) this.noteGained(parsed as unknown[], Date.parse(exchange.startedAt))
  }

  /**
   * The records a list shows that the first list did not and that carry none of the run's prefixes:
   * another client's, or one of this run's stored in a form that lost the prefix (a refused body's
   * `{"Name": …}` stored as a record named "undefined", a name cut short). No ledger row can name
   * them; the reports count them (a run against a service that stored refused POSTs so listed 71
   * records when the store held 74 of the run's).
   */
  private noteGained(parsed: readonly unknown[], sentAt: number): void {
    const objects = parsed.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r))
    if (this.firstKeys === undefined) {
      this.firstKeys = new Set(objects.map(recordKey))
      return
    }
    if (this.gained && this.gained.sentAt > sentAt) return
    const first = this.firstKeys
    const fresh = objects.filter((r) => !first.has(recordKey(r)) && !carriesPrefix(r.name, this.prefixes) && !carriesPrefix(r.description, this.prefixes))
    this.gained = { sentAt, count: fresh.length, records: fresh.slice(0, MAX_LISTED_RECORDS).map((r) => listedRecord(r, this.redact)) }
  }
}

/** A listed record's key: its id as the server wrote it, else what it holds. */
const recordKey = (record: Record<string, unknown>): string => ('id' in record ? `id:${exactIntegerTextAt(record, 'id') ?? numberText(record, 'id')}` : `${String(record.name)}\u0000${String(record.description)}`)

/** The text parsed as exact JSON, or undefined. */
function parsedText(text: string): unknown {
  try {
    return parseJsonExact(text)
  } catch {
    return undefined
  }
}

/**
 * The most records of the run's prefixes kept of one list, and made ledger rows of all lists: a run
 * sends ~1,100 POSTs at most (--confirm 10, --repeat 100), so a conforming service lists fewer. A
 * list of 300,000 records under the run's prefix (a server that made them up) made as many ledger
 * rows: 140 MB of reports, the run 16 s past --deadline at 1.3 GB (measured).
 */
export const MAX_LISTED_RECORDS = 10_000

/** The most records gained without a prefix that results.json names (all are counted). */
const MAX_GAINED_SHOWN = 50

const carriesPrefix = (text: unknown, prefixes: readonly string[]) => typeof text === 'string' && prefixes.some((p) => text.includes(p))

function runRecords(parsed: unknown, prefixes: readonly string[], redact: (text: string) => string): ListedRecord[] {
  if (!Array.isArray(parsed)) return []
  const records: ListedRecord[] = []
  for (const record of parsed as Record<string, unknown>[]) {
    if (record === null || typeof record !== 'object' || !(carriesPrefix(record.name, prefixes) || carriesPrefix(record.description, prefixes))) continue
    if (records.length === MAX_LISTED_RECORDS) break
    records.push(listedRecord(record, redact))
  }
  return records
}

function listedRecord(record: Record<string, unknown>, redact: (text: string) => string): ListedRecord {
  return {
    id: 'id' in record ? ledgerText(redact(exactIntegerTextAt(record, 'id') ?? numberText(record, 'id')), LEDGER_ID_CHARACTERS) : '(not returned)',
    ...(typeof record.name === 'string' ? { name: record.name } : {}),
    ...(typeof record.description === 'string' ? { description: record.description } : {}),
  }
}

/** The POSTs whose answer says they created a record (2xx), or whose lost answer (or 503) the list showed stored: the records an answer announced. */
function announcedLedger(journal: readonly JournalEntry[]): LedgerEntry[] {
  return journal
    .filter((entry) => entry.mayHaveCreated && ((entry.status !== undefined && entry.status >= 200 && entry.status < 300) || entry.created !== undefined))
    .map((entry) => ({
      id: entry.created?.id ?? '(not returned)',
      name: entry.created?.name ?? nameSent(entry.body ?? ''),
      status: entry.status ?? 0,
      exchangeId: entry.id,
      ...(entry.body !== undefined ? { body: entry.body } : {}),
      ...(entry.answerLost !== undefined ? { answerLost: entry.answerLost } : {}),
    }))
}

/** The ledger, and of the POSTs counted as ones that may have created a record (a server fault, no answer), how many a list showed stored (undefined: no list was read after each of them). */
export interface RunLedger {
  ledger: LedgerEntry[]
  found?: { faultAnswered: number; unanswered: number }
  /** Records the lists gained during the run that carry none of its prefixes and are no ledger row (ListsRead.noteGained): how many, and the first of them. */
  unprefixedNew?: { count: number; records: { id: string; name?: string }[] }
}

/** How a record no answer announced came to be, from the POST that sent it (none: no POST of the journal sent it). */
function howStored(post: Pick<JournalEntry, 'status'> | undefined): string {
  if (!post) return "found in the list under the run's prefix; no POST of the run's journal sent it"
  if (post.status === undefined) return ANSWER_LOST_RECORD_FOUND
  if (post.status >= 200 && post.status < 300) return `a second record of a POST answered ${post.status}`
  return `stored though answered ${post.status}`
}

/** A POST of the journal, with the name and description its body sent (null: not a JSON body). */
interface SentPost {
  post: JournalEntry
  sent: { name?: unknown; description?: unknown } | null
}

function sentPost(post: JournalEntry): SentPost {
  try {
    return { post, sent: JSON.parse(post.body ?? '') as SentPost['sent'] }
  } catch {
    return { post, sent: null }
  }
}

/** The POST that sent a listed record: the same name and description, else the same name, else a body holding the text that carries the prefix; the last attempt of equals. */
function senderOf(record: ListedRecord, posts: readonly SentPost[], prefixes: readonly string[]): JournalEntry | undefined {
  const last = (match: (post: JournalEntry, sent: SentPost['sent']) => boolean) => posts.findLast(({ post, sent }) => match(post, sent))?.post
  const marked = [record.name, record.description].find((text) => carriesPrefix(text, prefixes))
  // a body not JSON (or not whole) still carries the text, JSON-escaped or as it is
  const escaped = marked === undefined ? undefined : JSON.stringify(marked).slice(1, -1)
  return (
    (record.name !== undefined ? last((_, sent) => sent?.name === record.name && sent?.description === record.description) : undefined) ??
    (record.name !== undefined ? last((_, sent) => sent?.name === record.name) : undefined) ??
    (marked !== undefined ? last((post) => post.body !== undefined && (post.body.includes(marked) || post.body.includes(escaped!))) : undefined)
  )
}

/**
 * The run's ledger: the records the answers announced, then the run's records the lists showed
 * that none announced, each matched to the POST that sent it. Without a list read (a read-only run,
 * one cut before it), the announced ones alone, as before.
 */
export function runLedger(journal: readonly JournalEntry[], lists?: Pick<ListsRead, 'sightings' | 'prefixes' | 'redact'> & Partial<Pick<ListsRead, 'gained'>>): RunLedger {
  const ledger = announcedLedger(journal)
  if (!lists || lists.sightings.length === 0) return { ledger }
  const listed = new Map<string, { record: ListedRecord; list: string }>()
  for (const sighting of lists.sightings) {
    for (const record of sighting.records) {
      // a record without an id is told by what it holds
      const key = record.id === '(not returned)' ? `${record.name}\u0000${record.description}` : record.id
      if (!listed.has(key) && listed.size < MAX_LISTED_RECORDS) listed.set(key, { record, list: sighting.exchangeId })
    }
  }
  const announcedIds = new Set(ledger.map((entry) => entry.id))
  const announcedBy = new Map(ledger.map((entry) => [entry.exchangeId, entry]))
  // an announced record the list shows under another id (a 201 that gave a wrong id) is still the one record
  const unmatched = new Set(ledger.filter((entry) => !listed.has(entry.id)).map((entry) => entry.exchangeId))
  // each body parsed once, not once for each listed record it is compared with
  const posts = journal.filter((entry) => entry.method === 'POST' && entry.onWire).map(sentPost)
  const faulted = new Set<string>()
  const unanswered = new Set<string>()
  for (const { record, list } of listed.values()) {
    if (announcedIds.has(record.id)) continue
    const post = senderOf(record, posts, lists.prefixes)
    if (post && announcedBy.has(post.id) && unmatched.delete(post.id)) continue
    if (post && faultAnsweredWrite(post)) faulted.add(post.id)
    if (post && unansweredWrite(post)) unanswered.add(post.id)
    ledger.push({
      id: record.id,
      name: ledgerText(lists.redact(record.name ?? '(no name)'), LEDGER_TEXT_CHARACTERS),
      status: post?.status ?? 0,
      exchangeId: post?.id ?? list,
      ...(post?.body !== undefined ? { body: post.body } : {}),
      ...(!post && record.description !== undefined ? { description: ledgerText(lists.redact(record.description), LEDGER_TEXT_CHARACTERS) } : {}),
      foundInList: howStored(post),
    })
  }
  // the lists showed none of them stored only of POSTs a list was read after (its final read may
  // have been cut by the deadline, or answered with a fault): else nothing is said of what was found
  const lastSent = lastListSent(lists)
  const unlooked = journal.some((entry) => entry.method === 'POST' && entry.onWire && (faultAnsweredWrite(entry) || unansweredWrite(entry)) && carriesPrefix(entry.body, lists.prefixes) && answeredAfter(entry, lastSent))
  // a record an answer announced whose list entry lost the prefix (a description dropped) is a ledger row already
  const rows = new Set(ledger.map((entry) => entry.id))
  const gained = lists.gained?.records.filter((r) => !rows.has(r.id)) ?? []
  const gainedCount = (lists.gained?.count ?? 0) - ((lists.gained?.records.length ?? 0) - gained.length)
  const unprefixedNew = gainedCount > 0 ? { unprefixedNew: { count: gainedCount, records: gained.slice(0, MAX_GAINED_SHOWN).map((r) => ({ id: r.id, ...(r.name !== undefined ? { name: ledgerText(lists.redact(r.name), LEDGER_TEXT_CHARACTERS) } : {}) })) } } : {}
  return { ledger, ...(unlooked ? {} : { found: { faultAnswered: faulted.size, unanswered: unanswered.size } }), ...unprefixedNew }
}

/** When the last list the run read was sent (-Infinity: none was). */
const lastListSent = (lists: Pick<ListsRead, 'sightings'>) => Math.max(Number.NEGATIVE_INFINITY, ...lists.sightings.map((s) => Date.parse(s.sentAt)))

/** Whether a POST was answered (or gave up) after the last list was sent: no list the run read shows what it stored (one sent in the same millisecond was, but for the rarest race, sent after it). */
const answeredAfter = (entry: JournalEntry, lastSent: number) => endedAt(entry) > lastSent

/**
 * Whether the lists the run read may not show all its records: a POST that carried one of its
 * prefixes, that no answer said created a record (a refusal, a fault, no answer; a 429 says it was
 * not processed), was answered after the last list the run read was sent (a confirmation attempt's
 * POSTs, a --rule selection whose checks read no list after them). Then the list is read once more
 * (lib/runner/after-checks.ts), a GET like any.
 */
export function listReadNeeded(journal: readonly JournalEntry[], lists: Pick<ListsRead, 'sightings' | 'prefixes'>): boolean {
  const lastSent = lastListSent(lists)
  return journal.some(
    (entry) =>
      entry.method === 'POST' &&
      entry.onWire &&
      entry.status !== 429 &&
      !(entry.status !== undefined && entry.status >= 200 && entry.status < 300) &&
      entry.created === undefined &&
      carriesPrefix(entry.body, lists.prefixes) &&
      answeredAfter(entry, lastSent),
  )
}
