/**
 * Mutations of ids past 2^53 read into a double (a JavaScript number) on one path of the service
 * only: the list written exactly, the create answer rounded. list-rounds-large-ids (create.ts) and
 * browser-list-ids-rounded (list-views.ts) round them on the list's paths instead. Each is caught as
 * a created category listed under another id (lib/checks/listed-under-another-id.ts), which no
 * lag explains: the suite does not wait for it to be listed.
 */
import type { StoredCategory } from '../reference-server.ts'
import { recordWithRawId, type Mutation } from '../server-cases.ts'

export const ID_AS_DOUBLE_MUTATIONS: readonly Mutation[] = [
  {
    name: 'create-answer-rounds-ids',
    breaks: 'created-in-list',
    code: 'LISTED_FIELD_CHANGED',
    description:
      "ids are snowflakes past 2^53 in a BIGINT column; the create handler answers the row that INSERT … RETURNING gave back with Number(row.id), to write a number where node-postgres gives an int8 as text, and rounds it (1152921504606846977 as 1152921504606847000); " +
      'the list is written by PostgreSQL itself (json_agg), exactly',
    behaviour: {
      // 2^22 + 1 apart (a new millisecond each): no two round to one double
      nextId: (store: StoredCategory[]) => (store.length === 0 ? 2n ** 60n + 1n : store[store.length - 1].id + 2n ** 22n + 1n),
      createdBody: (record) => recordWithRawId(record, String(Number(record.id))),
    },
  },
]
