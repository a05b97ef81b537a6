/**
 * What an answer the document does not allow says of a Node service on an ORM or a database
 * driver that gives it by default: an int8 id as text (node-postgres, postgres.js, and Knex and
 * TypeORM over them), ids past 2^53 read into a JavaScript number (mysql2,
 * better-sqlite3), a driver that refuses undefined as a value (postgres.js, mysql2), a body handed
 * to the ORM whole (Drizzle, Sequelize, TypeORM). Measured on 2026-11-26 against services written
 * as such teams write them (docs/adoption.md): pg 8.23, postgres 3.4, Knex 3.3, Drizzle 0.45,
 * Sequelize 6.37, TypeORM 1.1, mysql2 3.24 and better-sqlite3 12.11, on PostgreSQL 15, MariaDB
 * 10.11 and SQLite 3.53; and SQLAlchemy 1.4 under Flask 2.2 (Debian 12), on SQLite and
 * PostgreSQL. known-answers.ts and the case tables call these beside the other stacks' words; the
 * verdict and the failure code never depend on them.
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'
import { idOf } from './id-index.ts'

/** An id written as text, where a Node driver gives a BIGINT column so (known-answers.ts NUMBER_AS_TEXT). */
export const NODE_DRIVER_ID_AS_TEXT =
  "node-postgres (pg) and postgres.js give an int8 column (BIGINT, BIGSERIAL, a bigint identity) as a string by default, and so do Knex's bigIncrements() and TypeORM's bigint columns over them, as mysql2 does under bigNumberStrings (Drizzle's bigint({ mode: 'bigint' }) gives a BigInt instead): " +
  'an id column of INTEGER (SERIAL) is a number, or parse int8 exactly (pg.types.setTypeParser(20, BigInt); postgres({ types: { bigint: postgres.BigInt } })) and write it into the JSON as a number, which JSON.stringify cannot do for a BigInt ' +
  "(it throws; the common BigInt.prototype.toJSON = function () { return this.toString() } writes the id as text again, where JSON.rawJSON(String(id)), Node 21 and later, or a serializer that writes the digits bare does not)"

/**
 * An id written as text, where Python gives a NUMERIC column as a decimal.Decimal (measured by
 * stackhunt10: Flask 2.2's jsonify writes Decimal('9007199254740993') as "9007199254740993", and
 * json.dumps refuses it).
 */
export const PYTHON_DECIMAL_ID_AS_TEXT =
  "psycopg2 gives a NUMERIC column (an id declared NUMERIC(19), or a sequence's value cast to it) as a decimal.Decimal, which Flask's jsonify writes as text (its DefaultJSONProvider, Flask 2.2 and later), " +
  "as Django REST framework's DecimalField does by default (COERCE_DECIMAL_TO_STRING): an id column of BIGINT is an int, or int(row['id']) before it is written"

/** 2^53: past it, a JavaScript number holds only some integers. */
const DOUBLE_EXACT = 2n ** 53n

/**
 * Why two records share an id past 2^53: the store's ids were distinct, and the service read them
 * into a JavaScript number, which rounds such an integer to its nearest double (9007199254740995 to
 * 9007199254740996, as the next one). Measured: mysql2 without supportBigNumbers, better-sqlite3
 * without safeIntegers (and with it set after the statements were prepared).
 */
export function idPastDoubleOrigin(id: string): string | undefined {
  // an id no double holds (2^53 + 1) was never a JavaScript number: no rounding made it
  if (!/^\d{16,20}$/.test(id) || BigInt(id) <= DOUBLE_EXACT || BigInt(Number(id)) !== BigInt(id)) return undefined
  return (
    `; ${id} is past 2^53: if the store holds them apart, a driver that read its BIGINTs into JavaScript numbers made them one (past 2^53 a number holds only every second integer, then every fourth), ` +
    "as mysql2 does without supportBigNumbers and bigNumberStrings, better-sqlite3 without safeIntegers (db.defaultSafeIntegers(true) holds for the statements prepared after it), and pg with setTypeParser(20, Number) or parseInt; " +
    'read it as a BigInt or as text, and write it into the JSON as a number; ' +
    // measured: a Node gateway in front of a service with ids from 2^53 + 1 that wrote every JSON answer again
    "or a proxy in front made them one: a gateway or backend-for-frontend that parses the service's answers (JSON.parse, response.json()) and writes them again does the same to every id past 2^53: " +
    'pass the body on as it came, or parse it with a parser that keeps big integers (lossless-json, json-bigint)'
  )
}

/**
 * Why two creates that sent different values were answered one id: processes that each keep their
 * records and count ids on their own. Measured: a Rack service with an in-memory store under
 * `puma -w 2` (Puma 5.6), ids from 2^53 + 1 in each worker, where the words named the drivers alone;
 * and a PSGI app under Starman 0.4016 on its defaults (5 workers). One process that computes the id
 * before the insert gives two creates that run at once one id as well.
 */
export const OWN_COUNTERS =
  '; processes that each keep their own records and count their own ids give one id twice: an in-memory store (a Hash, a dict, an array) under several worker processes ' +
  "(Puma's cluster mode, puma -w 2 or workers in config/puma.rb; Starman, which starts 5 workers unless told --workers 1; gunicorn --workers; Node's cluster, pm2 -i), or replicas behind a balancer with a store each, " +
  'whose lists then differ from read to read; keep the records in a store every process shares (a database), or run one process; ' +
  'or one process that computes the id before the insert (SELECT MAX(id) + 1, the count of records plus one) gives it to two creates that run at once: let the store assign it (AUTO_INCREMENT, a sequence, an IDENTITY column)'

/** Every create answered one id: no count advanced (mutation id-sequence-stuck), which worker processes counting apart would not do to them all. */
const ONE_ID_FOR_ALL =
  '; every create was answered this one id: an id that never advances (a sequence read but never advanced, an id the code sets, a column default); ' +
  'let the store assign each create an id of its own (AUTO_INCREMENT, a sequence, an IDENTITY column)'

/** Two creates of one name answered one id, with the second's other description: an upsert on the name. */
const UPSERT_BY_NAME =
  "; both creates sent this name: the second updated the first's record (an upsert on a UNIQUE name: INSERT … ON CONFLICT (name) DO UPDATE, ON DUPLICATE KEY UPDATE, an ORM's save() of the record found by name); " +
  'each create is a new record with an id of its own (§2: ids are assigned on creation), or a repeated name is refused (409, or 400 with the Error record)'

/** Why two created records that differ (`first`, `second` of `records`, the run's created records) share an id: one name updated in place, no count advanced, or processes counting ids apart. */
export function sharedIdWords(records: readonly { id?: unknown; name?: unknown }[], first: number, second: number): string {
  if (records[first].name === records[second].name) return UPSERT_BY_NAME
  const id = idOf(records[first])
  return records.length >= 3 && records.every((r) => idOf(r) === id) ? ONE_ID_FOR_ALL : OWN_COUNTERS
}

/** A create that sends an id no record has, answered with that id: the body handed to the ORM whole. */
export const CLIENT_ID_INSERTED =
  "the body was handed to the ORM whole, and it inserts every column the body names, the id too: Drizzle's db.insert(table).values(req.body), Sequelize's Model.create(req.body), SQLAlchemy's declarative constructor Category(**data) (measured); " +
  "so does a record spread from the body after its id ({ id: next++, ...req.body }: the body's id comes last and wins), which a validator of NewCategory lets by, since it does not forbid other fields (measured under express-openapi-validator 5.6); " +
  "give it name and description alone (Sequelize: create(body, { fields: ['name', 'description'] }); { ...req.body, id: next++ })"

/** A create that sends the id of a stored record, answered with it: a save that updated that record. */
export const EXISTING_ID_UPDATED =
  "it is the id of the record the run created first: a save that updated that record answers so (or a service whose ids repeat, which ids-unique then reports too). TypeORM's repository.save(req.body) updates the record whose id the body names (and inserts a new one, with an id of its own, for an id it does not hold), " +
  "as Spring Data JPA's save() merges an entity whose id is set (an update of the row it names in every Hibernate version; 6.6 throws only for an id it does not hold); any client can then overwrite any category by POSTing its id: " +
  'repository.insert(), or save() of an entity built from name and description alone'

/** A fault to a create that sends the id of a stored record. */
export const EXISTING_ID_FAULT =
  "a server fault to a body that carries the id of a stored record: a service that inserts the id it is sent fails on the duplicate key (PostgreSQL 23505, MySQL 1062, SQLite's UNIQUE constraint failed; Drizzle's values(req.body), Sequelize's create(req.body), SQLAlchemy's Category(**data)); " +
  'give the ORM name and description alone, or refuse a body with an id with 400'

/** Whether a recorded create body is a JSON object without a description. */
function withoutDescription(request: RecordedRequest): boolean {
  try {
    const body: unknown = JSON.parse(request.body ?? '')
    return body !== null && typeof body === 'object' && !Array.isArray(body) && !('description' in body)
  } catch {
    return false
  }
}

/**
 * Why a create without a description got a server fault: a driver that refuses undefined as a value,
 * where the handler passes body.description as it came (measured: postgres.js's sql(object, …columns)
 * insert helper, mysql2's execute()).
 */
export function undefinedValueStatus(response: RecordedResponse, expected: number, request: RecordedRequest): string | undefined {
  if (expected !== 201 || request.method !== 'POST' || response.status < 500 || response.status === 503 || !withoutDescription(request)) return undefined
  return (
    'a server fault to a create without a description (the only kind that sends none): a driver that refuses undefined as a value, where the handler passes body.description as it came, fails so: ' +
    'postgres.js (UNDEFINED_VALUE: Undefined values are not allowed, unless postgres({ transform: { undefined: null } })), ' +
    "mysql2's execute() (Bind parameters must not contain undefined. To pass SQL NULL specify JS null); pass description ?? null, and leave the field out of the answer"
  )
}

/** A number or a boolean taken for text by an ORM that was handed the body (suites/cases/wrong-types.ts). */
export const SEQUELIZE_COERCED =
  "Sequelize's DataTypes.STRING validation (6.37) refuses only arrays and objects, so Model.create(req.body) stores a number or a boolean as its text " +
  "(a validate: { isString(v) { if (typeof v !== 'string') throw new Error('not text') } } on the attribute, or a type check before create)"

/** A null taken by an ORM that was handed the body (suites/cases/wrong-types.ts). */
export const SEQUELIZE_NULL_TAKEN = "Sequelize's attributes allow null unless allowNull: false, so Model.create(req.body) stores \"description\": null (a type check before create)"

/** A fault to a field NewCategory does not name: a constructor that takes only mapped attributes, handed the body (poison-values.ts create-deep-value). */
export const UNKNOWN_FIELD_FAULT =
  "a server fault to a body with a field NewCategory does not name: SQLAlchemy's declarative constructor raises TypeError for a key that is no mapped attribute (Category(**data): 'extra' is an invalid keyword argument for Category), " +
  'so a service that hands it the body answers a fault to any unknown field; give it name and description alone, or refuse unknown fields with 400'

/**
 * A fault to a value nested 300 deep: a nesting limit below it, its error let through. Measured: a Rack
 * service under Puma 5.6 that rescued no JSON::NestingError, where the words named SQLAlchemy alone.
 */
const NESTING_LIMIT_FAULT =
  "a nesting limit below 300 levels, its error let through: Ruby's JSON.parse stops at max_nesting 100 with JSON::NestingError (measured under Puma, whose development answer is the error's text), " +
  "serde_json at 128 levels, MongoDB at 100, and orjson's dumps at 255 when the record is written back (Recursion limit reached); " +
  'answer it 400 as any body the parser refuses (JSON::NestingError is a JSON::ParserError), or leave out what NewCategory does not name before the record is written'

/** What a server fault to create-deep-value (poison-values.ts) says of the service: the answer's words tell a nesting limit from the rest. */
export function deepValueFault(answer: string): string {
  if (/nesting|too deep|recursion|depth/i.test(answer)) return `a server fault to a value nested 300 levels deep, which the answer puts down to its depth: ${NESTING_LIMIT_FAULT}`
  return `${UNKNOWN_FIELD_FAULT}; or ${NESTING_LIMIT_FAULT}`
}

/** A fault to a lone surrogate: text with no UTF-8 form, which the driver cannot write (poison-values.ts). */
export const LONE_SURROGATE_FAULT =
  "a server fault to a lone surrogate: Python's json reads the escape into a str that no UTF-8 encoder takes, and sqlite3 and psycopg2 raise UnicodeEncodeError (surrogates not allowed) on the insert (measured under SQLAlchemy 1.4); " +
  "refuse it with 400 (value.encode('utf-8') raises; in Node, !value.isWellFormed()), as §4.2 rule 1 lets a service refuse a value its store cannot hold"
