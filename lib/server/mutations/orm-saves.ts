/**
 * Mutations of what an ORM's save does with a create body handed to it whole: an id the body
 * carries that names a stored record makes the save an update of that record, while an id no
 * record has is dropped and the service assigns its own (TypeORM's repository.save(req.body),
 * measured on TypeORM 1.1 over PostgreSQL 15; Spring Data JPA's save() merging an entity whose id is
 * set, which updates the row it names in every Hibernate version, where 6.6 throws only for an id it
 * does not hold). A create that sends an id no record has (create-sends-id) gets a new
 * record; only one that sends a stored record's id shows it (create-sends-existing-id). And the
 * record read back after the insert as the newest row, which another create's may be (measured:
 * PHP on MariaDB with SELECT … ORDER BY id DESC LIMIT 1 after the insert, under php-fpm).
 */
import type { StoredCategory } from '../reference-server.ts'
import { isPlainObject, type Mutation } from '../server-cases.ts'

/** The stored record a create body's id names, other than the record the create just stored (last). */
function namedRecord(body: unknown, store: StoredCategory[]): number {
  const sent = isPlainObject(body) ? body.id : undefined
  if (typeof sent !== 'number' || !Number.isSafeInteger(sent)) return -1
  return store.findIndex((record, i) => i < store.length - 1 && record.id === BigInt(sent))
}

export const ORM_SAVE_MUTATIONS: readonly Mutation[] = [
  {
    name: 'existing-id-saves-as-update',
    breaks: 'create-returns-category',
    code: 'CLIENT_ID_ACCEPTED',
    // its attempts send the run's record's id again (RunContext.createdIds): unconfirmed, "not needed", before
    recurrence: 'deterministic',
    description:
      "a create body that carries the id of a stored record updates that record and answers 201 with it (TypeORM's repository.save(req.body)); " +
      'an id no record has is dropped, and the service assigns its own',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const at = namedRecord(request.body, store)
        if (at < 0) return reply
        // the save's UPDATE: the sent fields over the record the id names; no new record
        const created = store.pop()!
        const updated: StoredCategory = { id: store[at]!.id, name: created.name, ...(created.description !== undefined ? { description: created.description } : {}) }
        store[at] = updated
        return { ...reply, body: updated }
      },
    },
  },
  {
    name: 'create-answers-the-row-before-its-own',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'the record is read back after the insert as the newest row (SELECT … ORDER BY id DESC LIMIT 1) on a connection of the pool that does not see the insert yet: ' +
      'every create but the first is answered 201 with the record stored before its own, which another create sent',
    behaviour: {
      finish: (reply, request, store) => (request.operation !== 'createCategory' || reply.status !== 201 || store.length < 2 ? reply : { ...reply, body: store[store.length - 2] }),
    },
  },
]
