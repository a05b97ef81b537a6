/** Mutations of §4.2 createCategory with valid bodies: 201, a Category record with every field sent; ids unique (§2); every created category listed afterwards (§4.1). */
import { conformingBehaviour, type StoredCategory } from '../reference-server.ts'
import { errorReply, isPlainObject, NEVER_LISTED, recordWithRawId, seedCategories, type Mutation } from '../server-cases.ts'

const withoutDescription = ({ description: _dropped, ...rest }: StoredCategory) => rest
const omitEmptyDescription = (record: StoredCategory) => (record.description === '' ? withoutDescription(record) : record)
/** A text field as a store of text gives it back to a reader that parses what reads as JSON (the id's number, and any other). */
const parsedIfJson = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}
const readAsJson = (record: StoredCategory) => ({
  ...record,
  name: parsedIfJson(record.name),
  ...(record.description !== undefined ? { description: parsedIfJson(record.description) } : {}),
})

const namedAs = (request: { body?: unknown }) => (isPlainObject(request.body) && typeof request.body.name === 'string' ? request.body.name : undefined)

export const CREATE_MUTATIONS: readonly Mutation[] = [
  {
    name: 'server-fault-on-empty-name',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description: 'a create with an empty name crashes the handler (500), where the service may create the record or refuse it with 400',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || namedAs(request) !== '') return reply
        if (reply.status === 201) store.pop()
        return errorReply(500, 'internal', "Cannot read properties of undefined (reading 'trim')")
      },
    },
  },
  {
    name: 'unavailable-503-for-non-ascii-names',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      'a create whose name is not ASCII answers 503 without Retry-After every time (a fault its error handler maps to 503), while every other request is served: ' +
      'resent while the server serves others, it is judged once it has served nothing for a while',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || !/[^\x00-\x7f]/.test(namedAs(request) ?? '')) return reply
        if (reply.status === 201) store.pop()
        return errorReply(503, 'unavailable', 'Service Unavailable')
      },
    },
    slow: 'its 503s are resent until the rest of the run is over, then about 11 s',
  },
  {
    name: 'upsert-by-name',
    breaks: 'ids-unique',
    code: 'DUPLICATE_ID',
    description: 'a create whose name exists answers 201 with the existing record (its old id and description) instead of a new one: an upsert',
    behaviour: {
      finish: (reply, request, store) => {
        const name = namedAs(request)
        if (request.operation !== 'createCategory' || reply.status !== 201 || name === undefined) return reply
        const existing = store.slice(0, -1).find((r) => r.name === name)
        if (!existing) return reply
        store.pop()
        return { ...reply, body: existing }
      },
    },
  },
  {
    name: 'repeated-name-409-after-insert',
    breaks: 'create-returns-201',
    code: 'REFUSED_CREATE_STORED',
    description:
      'a create whose name exists is stored, then answered 409 (the uniqueness check runs after the INSERT, with no transaction to undo it): the client is told it was refused, and the list shows the record',
    behaviour: {
      finish: (reply, request, store) => {
        const name = namedAs(request)
        if (request.operation !== 'createCategory' || reply.status !== 201 || name === undefined) return reply
        return store.slice(0, -1).some((r) => r.name === name) ? errorReply(409, 'conflict', 'A category with this name exists.') : reply
      },
    },
  },
  {
    name: 'update-by-name',
    breaks: 'ids-unique',
    code: 'DUPLICATE_ID',
    description: 'a create whose name exists overwrites that record and answers 201 with its old id and the new description (INSERT … ON CONFLICT (name) DO UPDATE … RETURNING *)',
    behaviour: {
      finish: (reply, request, store) => {
        const name = namedAs(request)
        if (request.operation !== 'createCategory' || reply.status !== 201 || name === undefined) return reply
        const existing = store.slice(0, -1).find((r) => r.name === name)
        if (!existing) return reply
        const created = store.pop()!
        const updated = { ...created, id: existing.id }
        store.splice(store.indexOf(existing), 1, updated)
        return { ...reply, body: updated }
      },
    },
  },
  // §4.2 create answers 201
  {
    name: 'create-answers-200',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    recurrence: 'deterministic',
    description: 'a successful create answers 200 instead of 201',
    behaviour: { finish: (reply, request) => (request.operation === 'createCategory' && reply.status === 201 ? { ...reply, status: 200 } : reply) },
  },
  {
    name: 'create-answers-202',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description: 'a successful create answers 202 Accepted (queued) instead of 201',
    behaviour: { finish: (reply, request) => (request.operation === 'createCategory' && reply.status === 201 ? { ...reply, status: 202 } : reply) },
  },
  {
    name: 'description-required',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'a create without a description is refused with 400, as by a pydantic model with `description: str` and no default: ' +
      'the short name-only create is refused while longer values are taken, so no length limit explains it',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? (isPlainObject(body) && !('description' in body) ? 'description is required' : null),
    },
  },
  {
    name: 'non-ascii-name-rejected',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description: 'a name outside ASCII (Ñandú 🐇) is refused with 400, as by a Latin-1 database column',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ?? (/[^\x20-\x7e]/.test((body as { name: string }).name) ? 'name must contain printable ASCII only' : null),
    },
  },

  // §4.2 the created record is a Category with an int64 id
  {
    name: 'created-id-as-string',
    breaks: 'create-returns-category',
    code: 'SCHEMA_MISMATCH',
    description: 'the created record carries its id as a string ("17")',
    behaviour: { createdBody: (record) => ({ ...record, id: record.id.toString() }) },
  },
  {
    name: 'created-id-fraction',
    breaks: 'create-returns-category',
    code: 'SCHEMA_MISMATCH',
    description: 'the created id is a fraction (a timestamp with milliseconds, 1732112345.123)',
    behaviour: { createdBody: (record) => recordWithRawId(record, `${record.id}.5`) },
  },
  {
    name: 'id-past-int64',
    breaks: 'create-returns-category',
    code: 'SCHEMA_MISMATCH',
    description: 'ids start at 2^63 (9223372036854775808), one past the largest int64',
    behaviour: { nextId: (store) => (store.length === 0 ? 2n ** 63n : store[store.length - 1].id + 1n) },
  },
  {
    name: 'created-id-missing',
    breaks: 'create-returns-category',
    code: 'SCHEMA_MISMATCH',
    description: 'the create answers with the fields sent but without the assigned id',
    behaviour: { createdBody: ({ id: _id, ...rest }) => rest },
  },

  // §4.2 rule 2: every field sent comes back unchanged
  {
    name: 'name-lower-cased',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description: 'names are stored lower-cased ("Ñandú" becomes "ñandú")',
    behaviour: { toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: body.name.toLowerCase() }, id) },
  },
  {
    name: 'name-trimmed',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description: 'leading and trailing spaces are trimmed from names',
    behaviour: { toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, name: body.name.trim() }, id) },
  },
  {
    name: 'description-dropped',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description: 'the description is accepted and silently dropped',
    behaviour: { toRecord: (body, id) => ({ id, name: body.name }) },
  },

  {
    name: 'stored-text-read-as-json',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'every field is kept as text (a Redis hash) and read back through a JSON parse that restores the numbers, so that a description made of digits comes back as a number',
    behaviour: { createdBody: readAsJson, listBody: (store) => store.map(readAsJson) },
  },

  {
    name: 'empty-description-omitted',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'an empty description is stored but left out of every answer (Go\'s `json:"description,omitempty"`; an Oracle column stores \'\' as NULL the same way)',
    behaviour: { createdBody: omitEmptyDescription, listBody: (store) => store.map(omitEmptyDescription) },
  },

  {
    name: 'client-id-honoured',
    breaks: 'create-returns-category',
    code: 'CLIENT_ID_ACCEPTED',
    description: 'a create body that carries an id gets that id (the ORM binds every field of the body to the entity: mass assignment); without one the service assigns it',
    behaviour: {
      toRecord: (body, id) => {
        const sent = (body as { id?: unknown }).id
        return { ...conformingBehaviour.toRecord(body, id), ...(Number.isSafeInteger(sent) ? { id: BigInt(sent as number) } : {}) }
      },
    },
  },
  {
    name: 'client-id-honoured-in-32-bits',
    breaks: 'create-returns-category',
    code: 'CLIENT_ID_ACCEPTED',
    description:
      'a create body that carries an id gets it when it fits the 32-bit id column (mass assignment), and is refused with 400 for one past it (out of range for type integer)',
    behaviour: {
      finish: (reply, request, store) => {
        const sent = isPlainObject(request.body) ? request.body.id : undefined
        if (request.operation !== 'createCategory' || reply.status !== 201 || typeof sent !== 'number' || !Number.isSafeInteger(sent)) return reply
        const record = store.pop()!
        if (sent > 2 ** 31 - 1) return errorReply(400, 'invalid', 'value out of range for type integer')
        const taken = { ...record, id: BigInt(sent) }
        store.push(taken)
        return { ...reply, body: taken }
      },
    },
  },

  // §2: ids are unique
  {
    name: 'id-sequence-stuck',
    breaks: 'ids-unique',
    code: 'DUPLICATE_ID',
    description: 'every created category gets id 1 (the sequence is read but never advanced)',
    behaviour: { nextId: () => 1n },
  },
  {
    name: 'list-repeats-last-row',
    breaks: 'ids-unique',
    code: 'DUPLICATE_ID',
    description: 'the list repeats its last record (an off-by-one in a paging loop)',
    behaviour: { listBody: (store) => (store.length === 0 ? [] : [...store, store[store.length - 1]]) },
    seed: () => seedCategories(3),
  },

  // §4.1: a created category is among all categories listed afterwards
  {
    name: 'list-omits-newest',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: NEVER_LISTED,
    description: 'the list leaves out the most recently created category (an off-by-one)',
    behaviour: { listBody: (store) => store.slice(0, -1) },
  },
  {
    name: 'list-omits-description',
    breaks: 'created-in-list',
    code: 'LISTED_FIELD_CHANGED',
    description: 'the list shows summaries: every category without its description',
    behaviour: { listBody: (store) => store.map(withoutDescription) },
  },
  {
    name: 'list-mojibake-names',
    breaks: 'created-in-list',
    code: 'LISTED_FIELD_CHANGED',
    description: 'the list decodes stored UTF-8 names as Latin-1 (mojibake: "Ñandú" is listed as "Ã‘andÃº"); the create answer is right',
    behaviour: { listBody: (store) => store.map((r) => ({ ...r, name: Buffer.from(r.name, 'utf8').toString('latin1') })) },
  },
  {
    name: 'list-id-differs-from-created',
    breaks: 'created-in-list',
    // listed under another id: changed, not missing (no re-read waits for it)
    code: 'LISTED_FIELD_CHANGED',
    description: 'the create answers a provisional id; the list shows the stored one, which differs (provisional + 1000)',
    behaviour: { createdBody: (record) => ({ ...record, id: record.id + 1000n }) },
  },
  {
    name: 'create-stores-nothing',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    slow: NEVER_LISTED,
    description: 'a create answers 201 with the record but the write is lost (never committed)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201) store.pop()
        return reply
      },
    },
  },

  {
    name: 'list-rounds-large-ids',
    breaks: 'created-in-list',
    code: 'LISTED_FIELD_CHANGED',
    description:
      'ids are snowflakes past 2^53; the create answer writes them exactly, the list goes through JSON.stringify of a Number and rounds them (1152921504606846977 is listed as 1152921504606846976)',
    behaviour: {
      nextId: (store) => (store.length === 0 ? 2n ** 60n + 1n : store[store.length - 1].id + 1n),
      listBody: (store) => `[${store.map((r) => recordWithRawId(r, String(Number(r.id)))).join(',')}]`,
    },
  },

  // ids reused after gaps, and one create stored twice
  {
    name: 'new-id-collides-with-existing',
    breaks: 'ids-unique',
    code: 'DUPLICATE_ID',
    description: 'the next id is the count of categories plus one, so after gaps in the ids a new category gets an id already taken',
    behaviour: { nextId: (store) => BigInt(store.length + 1) },
    seed: () => [2, 4, 6, 8, 10].map((i) => ({ id: BigInt(i), name: `seeded-${i}` })),
  },
  {
    name: 'create-inserts-twice',
    breaks: 'created-in-list',
    code: 'DUPLICATE_CREATE',
    description: 'every create stores the category twice (a retried insert); the answer names only the first',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201 && store) {
          const last = store[store.length - 1]
          store.push({ ...last, id: last.id + 1n })
        }
        return reply
      },
    },
  },
]
