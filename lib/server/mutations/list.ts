/** Mutations of §4.1 listCategories: the list answers 200 with an array of Category records. */
import { conformingBehaviour, type StoredCategory } from '../reference-server.ts'
import { errorReply, isInvalidBody, isPlainObject, LIST_LAG_MS, listBehindWrites, NEVER_LISTED, seedCategories, storedNow, type Mutation } from '../server-cases.ts'
import { namesUniqueAcrossAccounts } from '../variants/sql-stores.ts'

/**
 * Names unique over every account (namesUniqueAcrossAccounts), and descriptions unique too, whose
 * refusal is answered as a taken name's; the other account's run stored the descriptions "null" and
 * "None" (fixed in every run), so this run's creates that send them are refused, whatever the order.
 */
function accountsWithUniqueDescriptions(): Pick<Mutation, 'behaviour' | 'seed'> {
  const { behaviour, seed } = namesUniqueAcrossAccounts([
    { id: 5n, name: 'cf-0othr-js\u{1f407}', description: 'null' },
    { id: 6n, name: 'cf-0othr-py\u200d', description: 'None' },
  ])
  return {
    seed,
    behaviour: {
      ...behaviour,
      finish: (reply, request, store) => {
        const answered = behaviour.finish!(reply, request, store)
        if (request.operation !== 'createCategory' || answered.status !== 201) return answered
        const created = store[store.length - 1]!
        if (created.description === undefined || !store.slice(0, -1).some((r) => r.description === created.description)) return answered
        store.pop()
        return errorReply(409, 'conflict', 'a category with this name exists')
      },
    },
  }
}

/**
 * Names unique in the store, a repeat refused with `status` "name is taken", and the names `refused`
 * refused with the same status for themselves ("name is required"), no other account in the store (review54).
 */
function refusedAsRepeatsAre(status: number, refused: readonly string[]): Pick<Mutation, 'behaviour'> {
  return {
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const created = store[store.length - 1]!
        const own = refused.includes(created.name)
        if (!own && !store.slice(0, -1).some((r) => r.name === created.name)) return reply
        store.pop()
        return errorReply(status, own ? 'validation_error' : 'conflict', own ? 'name is required' : 'name is taken')
      },
    },
  }
}

/** namesUniqueAcrossAccounts, whose clash with another account's record is found after the write, which stays (review54). */
function indexAfterInsert(): Pick<Mutation, 'behaviour' | 'seed'> {
  const { behaviour, seed } = namesUniqueAcrossAccounts()
  return {
    seed,
    behaviour: {
      ...behaviour,
      finish: (reply, request, store) => {
        const created = store[store.length - 1]
        const answered = behaviour.finish!(reply, request, store)
        const own = behaviour.listBody!(store) as StoredCategory[]
        if (request.operation === 'createCategory' && reply.status === 201 && answered.status === 409 && !own.some((r) => r.name === created!.name)) store.push(created!)
        return answered
      },
    },
  }
}

export const LIST_MUTATIONS: readonly Mutation[] = [
  // §4.1 listCategories answers 200
  {
    name: 'list-500-after-first-create',
    breaks: 'list-returns-200',
    code: 'SERVER_ERROR',
    description: 'the list works while the store is empty and answers 500 once a category has been created',
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 200 && store.length > 0
          ? errorReply(500, 'internal', 'Cannot serialise category: undefined')
          : reply,
    },
  },
  {
    name: 'list-demands-paging-parameters',
    breaks: 'list-returns-200',
    code: 'UNEXPECTED_STATUS',
    description: 'the list answers 400 unless undeclared paging parameters (?limit=…) are sent',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 ? errorReply(400, 'invalid_request', 'query parameter "limit" is required') : reply,
    },
  },
  {
    name: 'list-redirects-to-trailing-slash',
    breaks: 'list-returns-200',
    code: 'UNEXPECTED_STATUS',
    description: 'GET /categories answers 301 to /categories/ (a framework that appends slashes)',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 ? { status: 301, headers: { location: `${request.path}/` }, body: '' } : reply,
    },
  },

  // §4.1 the list is an array of Category records
  {
    name: 'list-wrapped-in-items',
    breaks: 'list-returns-category-array',
    code: 'SCHEMA_MISMATCH',
    description: 'the list comes wrapped in an envelope: {"items": [...]}',
    behaviour: { listBody: (store) => ({ items: store }) },
  },
  {
    name: 'hal-list-for-browsers',
    breaks: 'list-returns-category-array',
    code: 'SCHEMA_MISMATCH',
    description: 'a request whose Accept puts text/html first gets the list in HAL, {"_embedded": {"categories": [...]}} (Spring HATEOAS picks it for a browser); every other client gets the array',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'listCategories' && reply.status === 200 && /^\s*text\/html/i.test(request.accept ?? '') ? { ...reply, body: { _embedded: { categories: reply.body } } } : reply,
    },
  },
  {
    name: 'list-ids-as-strings',
    breaks: 'list-returns-category-array',
    code: 'SCHEMA_MISMATCH',
    description: 'the list writes ids as strings ("17"), as some serialisers do for 64-bit integers',
    behaviour: { listBody: (store) => store.map((r) => ({ ...r, id: r.id.toString() })) },
  },
  {
    name: 'empty-list-as-null',
    breaks: 'list-returns-category-array',
    code: 'SCHEMA_MISMATCH',
    description: 'an empty store is listed as null, not [] (Go: a nil slice, `var out []Category`, that nothing was appended to, given to encoding/json)',
    behaviour: { listBody: (store) => (store.length === 0 ? null : store) },
  },
  {
    name: 'list-null-descriptions',
    breaks: 'list-returns-category-array',
    code: 'SCHEMA_MISMATCH',
    description: 'the list writes "description": null for categories without one (description is a string when present)',
    behaviour: { listBody: (store) => store.map((r) => ({ ...r, description: r.description ?? null })) },
    seed: () => seedCategories(3),
  },
  {
    name: 'lagging-list-hides-refused-stored',
    breaks: 'create-rejects-invalid-values',
    code: 'REFUSED_CREATE_STORED',
    description: `the list is read from a replica ${LIST_LAG_MS} ms behind, and a create refused with 400 for a value of the wrong type is stored all the same: only a list read after the lag shows it`,
    behaviour: {
      finish: (reply, request, store) => {
        if (reply.status === 201 && request.operation === 'createCategory') storedNow(store, (reply.body as StoredCategory).id)
        if (isInvalidBody(reply, request) && isPlainObject(request.body) && typeof request.body.name === 'string') {
          const id = conformingBehaviour.nextId(store)
          store.push({ id, name: request.body.name, description: JSON.stringify(request.body.description) })
          storedNow(store, id)
        }
        return reply
      },
      listBody: listBehindWrites,
    },
  },
  {
    // caught as created records missing from the list; its Link and Total headers name the page (suites/categories/paged-list.ts)
    name: 'list-paged-by-default',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: NEVER_LISTED,
    description:
      "a Rails service with Pagy's defaults on every index action: the list holds the first 20 categories, oldest first, and says in Link (rel=\"next\") and Total headers that more pages exist, " +
      'where §8 gives all categories in one array: the run\'s newest creates are never listed',
    behaviour: {
      finish: (reply, request) => {
        if (request.operation !== 'listCategories' || reply.status !== 200 || !Array.isArray(reply.body) || reply.body.length <= 20) return reply
        const total = String(reply.body.length)
        return { ...reply, headers: { ...reply.headers, link: `<${request.path}?page=1>; rel="first", <${request.path}?page=2>; rel="next"`, total }, body: reply.body.slice(0, 20) }
      },
    },
    seed: () => seedCategories(5),
  },
  {
    // caught as records listed first gone from the list after the POSTs; the words say both lists hold as many (lib/checks/category.ts)
    // measured (stackhunt11): Flask over SQLite, ORDER BY id DESC LIMIT 50, with 120 records
    name: 'list-newest-50-only',
    breaks: 'created-in-list',
    code: 'VANISHED_FROM_LIST',
    // confirmed by reading the list again (still-listed.ts): "unconfirmed, not needed" before, though the list lost them every time
    recurrence: 'deterministic',
    description:
      'the list holds the newest 50 categories alone (ORDER BY id DESC LIMIT 50, a page size given every query), with no header that says so, where §8 returns all categories in one array: ' +
      "the run's creates are listed, and the oldest of the 60 records it found are gone from the list after them",
    seed: () => seedCategories(60),
    behaviour: {
      finish: (reply, request) =>
        request.operation !== 'listCategories' || reply.status !== 200 || !Array.isArray(reply.body) ? reply : { ...reply, body: [...(reply.body as unknown[])].reverse().slice(0, 50) },
    },
  },
  {
    // caught as created records never listed (and records listed first gone after the POSTs); the words say the lists are about 1 MB of JSON (lib/checks/cut-lists.ts)
    // measured (stackhunt12): a Node service making one DynamoDB Scan call, no LastEvaluatedKey loop, over 1.4 MB of items
    name: 'list-first-mb-only-of-a-dynamodb-scan',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: NEVER_LISTED,
    description:
      "the list is one DynamoDB Scan call's page: the items in the order of their keys' hashes, up to 1 MB of them, its LastEvaluatedKey not read on from, where §8 returns all categories in one array; " +
      "over 500 records of 2,700-character descriptions, the run's creates push others out of the page",
    seed: () => seedCategories(500).map((record) => ({ ...record, description: `${record.name} `.repeat(400).slice(0, 2700) })),
    behaviour: { finish: (reply, request) => (request.operation !== 'listCategories' || reply.status !== 200 || !Array.isArray(reply.body) ? reply : { ...reply, body: firstScanPage(reply.body as StoredCategory[]) }) },
  },
  {
    // caught as created records missing from the list; it holds 50, all older than those missing (suites/categories/paged-list.ts cutOf)
    // measured (stackhunt11): Flask over SQLite, ORDER BY id LIMIT 1000, with 990 records
    name: 'list-oldest-50-only',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: NEVER_LISTED,
    description:
      'the list holds the oldest 50 categories alone (ORDER BY id LIMIT 50), with no header that says so, where §8 returns all categories in one array: ' +
      "with the 40 records it found, the run's newest creates are never listed",
    seed: () => seedCategories(40),
    behaviour: {
      finish: (reply, request) => (request.operation !== 'listCategories' || reply.status !== 200 || !Array.isArray(reply.body) ? reply : { ...reply, body: reply.body.slice(0, 50) }),
    },
  },
  {
    // caught by create-returns-201 on a create whose name this run made its own (the names every run sends are not verified: another account's record holds them)
    // the variant repeated-names-409-across-accounts, with an IntegrityError of another index answered as its name's
    name: 'repeated-description-409-as-name-taken',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'the service of variant repeated-names-409-across-accounts (names unique over every account, each key listing its own), whose schema holds a UNIQUE description too, and whose error handler answers every ' +
      "IntegrityError 409 \"a category with this name exists\": a create whose name only this run sends is refused as a repeat of a record no list shows, as another account's run stored its description (\"null\", \"None\")",
    ...accountsWithUniqueDescriptions(),
  },
  {
    // caught by the list showing this run's own record of "0", "" and "__proto__": no repeat of another account's (review54)
    name: 'name-index-after-insert-across-accounts',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'each account its own table, a repeated name within it refused 409 before the write, and a global table of names written after it, whose conditional put ' +
      'fails where another account holds the name, with no transaction to undo the first write (DynamoDB): a name another account\'s run holds ("0", "", "__proto__") is stored, then answered 409',
    ...indexAfterInsert(),
  },
  {
    // caught by the refusal of "0" told otherwise than the repeat's, "__proto__" (sent after it) taken (suites/categories/repeated-names.ts unlistedRepeat)
    name: 'php-empty-refuses-zero-400-as-repeats',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'names unique, a repeated name refused 400 "name is taken", and `if (empty($name))` refusing "" and "0" with 400 "name is required": "0" is refused in the status of a repeat, ' +
      'where the list shows no record of it, as if another account held it, though "__proto__" was taken and the refusal says otherwise',
    ...refusedAsRepeatsAre(400, ['', '0']),
  },
  {
    // caught likewise: the empty name's 409 told otherwise than the repeat's, "0" taken after it
    name: 'empty-name-409-as-repeats',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'names unique, a repeated name refused 409 "name is taken", and `if (!name)` answering the empty name 409 "name is required" (an invalid value is 400, §4.2 rule 1): ' +
      'refused in the status of a repeat, where the list shows no record of it, as if another account held it, though "0" was taken and the refusal says otherwise',
    ...refusedAsRepeatsAre(409, ['']),
  },
]

/** One DynamoDB Scan call's page: the items in the order of their keys' hashes (FNV-1a of the id here), until 1 MB of them (names and values counted). */
function firstScanPage(records: readonly StoredCategory[]): StoredCategory[] {
  const hash = (record: StoredCategory) => [...String(record.id)].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261)
  const page: StoredCategory[] = []
  let bytes = 0
  for (const record of [...records].sort((a, b) => hash(a) - hash(b))) {
    bytes += 2 + String(record.id).length + 4 + Buffer.byteLength(record.name) + (record.description === undefined ? 0 : 11 + Buffer.byteLength(record.description))
    if (bytes > 1_000_000) break
    page.push(record)
  }
  return page
}
