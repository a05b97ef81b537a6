/**
 * Mutations of what a SQL column does to a value it cannot hold whole, where the store answers no
 * error: the create is answered 201 and the record keeps less than was sent (§4.2 rule 2); and a
 * store's refusal of a value's characters that the service leaves unhandled.
 */
/** The longest start of `text` whose UTF-8 form fits `bytes`, whole characters only (as MySQL cuts a value outside strict mode). */
const bytesCut = (text: string, bytes: number): string => {
  let kept = 0
  let out = ''
  for (const character of text) {
    kept += Buffer.byteLength(character)
    if (kept > bytes) break
    out += character
  }
  return out
}

import { conformingBehaviour, type Behaviour } from '../reference-server.ts'
import { errorReply, type Mutation } from '../server-cases.ts'
import { CHANGED, storedAs } from './inputs.ts'

/**
 * VARCHAR columns as the SQL standard has them, in PostgreSQL and in MySQL and MariaDB whatever the
 * sql_mode: a longer value is refused, unless all that is past the length is spaces, which are cut
 * without an error (MySQL notes it). Lengths count characters.
 */
const sqlStandardVarchars = (name: number, description: number): Pick<Behaviour, 'validate' | 'toRecord'> => {
  const limitOf = (field: 'name' | 'description') => (field === 'name' ? name : description)
  const past = (text: string, limit: number) => [...text].slice(limit).join('')
  return {
    validate(body) {
      const problem = conformingBehaviour.validate(body)
      if (problem !== null) return problem
      const fields = body as { name: string; description?: string }
      if (/[^ ]/.test(past(fields.name, name))) return `value too long for type character varying(${name})`
      return /[^ ]/.test(past(fields.description ?? '', description)) ? `value too long for type character varying(${description})` : null
    },
    // only values whose excess is spaces get here: what the column keeps
    ...storedAs((text, field) => [...text].slice(0, limitOf(field)).join('')),
  }
}

export const SQL_COLUMN_MUTATIONS: readonly Mutation[] = [
  {
    name: 'varchar-32-name-cuts-trailing-spaces',
    ...CHANGED,
    description:
      'a VARCHAR(32) name and a TEXT description in PostgreSQL, or in MySQL and MariaDB in strict mode: a longer name is refused with 400, ' +
      'but one whose excess is spaces is cut to 32 without an error (the SQL standard), and the create answers 201 with what was stored',
    behaviour: sqlStandardVarchars(32, Number.POSITIVE_INFINITY),
  },
  {
    name: 'varchar-32-name-beside-varchar-255-description',
    ...CHANGED,
    description:
      'a VARCHAR(32) name and a VARCHAR(255) description, as a schema generated with the defaults of an ORM has them: a longer value is refused with 400, ' +
      'but a name whose excess is spaces is cut to 32 without an error, and the create answers 201 with what was stored',
    behaviour: sqlStandardVarchars(32, 255),
  },
  {
    // caught by create-long-thousands' description, 65,670 bytes of € signs (9,000 characters before: under the cut)
    name: 'text-description-cut-at-64-kib',
    breaks: 'created-in-list',
    code: 'LISTED_FIELD_CHANGED',
    description:
      'descriptions go into a MySQL TEXT column (65,535 bytes; Laravel\'s text(), Sequelize\'s and TypeORM\'s \'text\') outside strict mode, which cuts a longer value with a warning only (1265, Data truncated); ' +
      'the create answers the fields it was sent with LAST_INSERT_ID() (MySQL has no RETURNING), so only the list shows the cut',
    behaviour: {
      toRecord: (body, id) => conformingBehaviour.toRecord({ name: body.name, ...(body.description !== undefined ? { description: bytesCut(body.description, 65_535) } : {}) }, id),
      finish: (reply, request) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const sent = request.body as { name: string; description?: string }
        const { id } = reply.body as { id: bigint }
        return { ...reply, body: conformingBehaviour.toRecord(sent, id) }
      },
    },
  },
  {
    // measured by stackhunt10: the words of its 500 said a column's length (ORA-12899, 22001, 1406), which plain ASCII as long was not refused for
    name: 'utf8mb3-refusal-unhandled-500',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      "a MySQL utf8mb3 column (the character set `utf8` names) in strict mode, the default: a value holding a character beyond U+FFFF (an emoji) fails the insert with 1366, Incorrect string value, " +
      'which the service leaves unhandled: 500 with the store\'s message',
    behaviour: {
      finish: (reply, request, store) => {
        const sent = request.body as { name?: unknown; description?: unknown } | undefined
        const beyond = (value: unknown) => typeof value === 'string' && [...value].some((c) => c.codePointAt(0)! > 0xffff)
        if (request.operation !== 'createCategory' || reply.status !== 201 || !(beyond(sent?.name) || beyond(sent?.description))) return reply
        store.pop()
        return errorReply(500, 'internal', "(1366, \"Incorrect string value: '\\xF0\\x9F\\x90\\x87' for column `pet`.`categories`.`name` at row 1\")")
      },
    },
  },
]
