/**
 * Conforming variants of services on a SQL store, with the constraints real schemas have and the
 * store's defaults deciding the answers (measured on 2026-11-26 with a Flask service on MariaDB
 * 10.11 and PostgreSQL 15, seeds 1 to 3 against one store): a UNIQUE name compared under the
 * store's collation (case, accents and trailing spaces ignored) answered 409, a CHECK that refuses
 * the empty name, U+0000 and lengths refused with 400, ids from a sequence past 2^53 that a refused
 * insert leaves a gap in, and records in the store that the suite's "0" and empty name (which
 * every run sends) repeat: an earlier run's "0", another client's "0 " and " ". None of it is a freedom the document takes away: uniqueness, empty names,
 * lengths and ids past 2^53 are left open (§2, §8), and what counts as the same name is too.
 */
import { conformingBehaviour, type StoredCategory } from '../reference-server.ts'
import { errorReply, recordWithRawId, type Variant } from '../server-cases.ts'

/** The records an earlier run left: its "0" and its empty name (the names every run sends: valid-creates.ts, nameOfEveryRun), and another client's categories. */
const earlierRun = (): StoredCategory[] => [
  { id: 1n, name: '0', description: 'cf-0earl-short-name' },
  { id: 2n, name: 'Dog', description: 'Dogs of every breed' },
]

/**
 * Another client's records whose names MariaDB's default collation takes for the suite's "0" and
 * empty name (PAD SPACE: "0 " = "0", " " = ""), so that the store refuses those with 1062 as
 * repeated names though the list shows none of them as sent; and a name that differs from one the
 * suite could send only in case, accents and its trailing space.
 */
const anotherClients = (): StoredCategory[] => [
  { id: 1n, name: '0 ', description: "another client's zero, with a trailing space" },
  { id: 2n, name: ' ', description: "another client's blank name" },
  { id: 3n, name: 'Café ', description: "another client's, with a trailing space" },
]

/**
 * A name's key under MariaDB's default collations at once: utf8mb4_general_ci (10.x: every
 * character beyond U+FFFF weighs as U+FFFD, so one emoji equals another) and utf8mb4_uca1400_ai_ci
 * (11.5 on: accents ignored, "Cafe" = "Café"); both ignore case, and both PAD SPACE ("x" = "x ").
 */
export const mariadbKey = (name: string) =>
  [...name.replace(/ +$/, '').normalize('NFD').replace(/\p{Mn}/gu, '')].map((c) => (c.codePointAt(0)! > 0xffff ? '\ufffd' : c)).join('').toLowerCase()

/**
 * A name's key under SQL Server's default collation, SQL_Latin1_General_CP1_CI_AS (and the other
 * collations before version 100): case, width and trailing spaces ignored, accents kept, and every
 * character its sorting tables leave undefined weighs nothing, so it equals the empty string: U+0000,
 * noncharacters, default-ignorable characters, and surrogates, so every character past U+FFFF (an
 * emoji). Microsoft's SQL Server blog, "Sorting undefined characters in Unicode and/or Windows
 * collation" (2006): two such names collide in a UNIQUE index.
 */
export const sqlServerKey = (name: string) =>
  name
    .normalize('NFKC')
    .replace(/[\u0000\ud800-\udfff\ufdd0-\ufdef\ufffe\uffff\u{10000}-\u{10ffff}\p{Default_Ignorable_Code_Point}]/gu, '')
    .replace(/ +$/, '')
    .toLowerCase()

/** citext: compared as lower() compares, every other character kept. */
const citextKey = (name: string) => name.toLowerCase()

/**
 * A UNIQUE name compared by `key`: a create whose name equals a stored one under it is taken back
 * and answered 409 with an Error record, as a service maps the duplicate-key error (MySQL 1062,
 * PostgreSQL 23505). The sequence already gave the refused insert its id: the next id skips it.
 */
function uniqueUnder(key: (name: string) => string, start: bigint): Pick<Variant['behaviour'], 'finish' | 'nextId'> {
  const next = new WeakMap<StoredCategory[], bigint>()
  return {
    nextId: (store) => {
      const id = next.get(store) ?? start
      next.set(store, id + 1n)
      return id
    },
    finish: (reply, request, store) => {
      if (request.operation !== 'createCategory' || reply.status !== 201) return reply
      const created = store[store.length - 1]!
      if (!store.slice(0, -1).some((r) => key(r.name) === key(created.name))) return reply
      store.pop()
      return errorReply(409, 'conflict', `Duplicate entry '${created.name}' for key 'name'`)
    },
  }
}

/** The records of other accounts, which the store's one UNIQUE name covers and no list of this key shows. */
const ofOtherAccounts = new WeakSet<StoredCategory>()

/** The names every run sends, in the order a run sends them (suites/cases/write-order.ts), with the description another account's run stored them under. */
const EVERY_RUN_NAMES: readonly (readonly [string, string])[] = [
  ['', 'cf-0othr-empty-name'],
  ['0', 'cf-0othr-short-name'],
  ['__proto__', 'cf-0othr-proto-name'],
]

/**
 * Another account's run of the suite, under its own key: the first `fixed` of the names every run sends
 * (all three, or fewer for a run under --max-writes, or of a version before "__proto__"), its own category, and `more`.
 */
const anotherAccountsRun = (more: readonly StoredCategory[], fixed: number): StoredCategory[] => {
  const records: StoredCategory[] = [
    ...EVERY_RUN_NAMES.slice(0, fixed).map(([name, description], i) => ({ id: BigInt(i + 1), name, description })),
    { id: 4n, name: 'Dog', description: "another account's dogs" },
    ...more.map((record) => ({ ...record })),
  ]
  for (const record of records) ofOtherAccounts.add(record)
  return records
}

/**
 * Names unique over every account's records (SQLite's UNIQUE on name, '' a value like any other),
 * each key listing its own account's alone, with another account's run in the store (and `more` of
 * its records); measured by stackhunt11 on Flask over SQLite. Mutation
 * repeated-description-409-as-name-taken builds on it.
 */
export const namesUniqueAcrossAccounts = (more: readonly StoredCategory[] = [], fixed = EVERY_RUN_NAMES.length): Pick<Variant, 'behaviour' | 'seed'> => ({
  behaviour: { ...uniqueUnder((name) => name, 10n), listBody: (store) => store.filter((record) => !ofOtherAccounts.has(record)) },
  seed: () => anotherAccountsRun(more, fixed),
})

const nameOf = (body: unknown) => (body as { name: string }).name

/** `service`, its 409 telling the values sent and a request number ({"name":…,"description":…} exists, request 8123). */
const echoingRefusals = (service: Pick<Variant, 'behaviour' | 'seed'>): Pick<Variant, 'behaviour' | 'seed'> => {
  let requests = 8000
  return {
    ...service,
    behaviour: {
      ...service.behaviour,
      finish: (reply, request, store) => {
        const answered = service.behaviour.finish!(reply, request, store)
        requests += 1
        return answered.status === 409 ? errorReply(409, 'conflict', `${JSON.stringify(request.body)} exists, request ${requests}`) : answered
      },
    },
  }
}
const descriptionOf = (body: unknown) => (body as { description?: string }).description

export const SQL_STORE_VARIANTS: readonly Variant[] = [
  {
    name: 'mariadb-unique-name-default-collation',
    description:
      "MariaDB, name VARCHAR(64) NOT NULL UNIQUE under its default collation (case, accents and trailing spaces ignored; general_ci's every emoji alike): a name equal to a stored one under it answered 409, " +
      "a longer name refused with 400 before the insert, AUTO_INCREMENT ids with a gap for each refused insert, and another client's \"0 \" and \" \" in the store, which the collation takes for the suite's \"0\" and empty name",
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? ([...nameOf(body)].length > 64 ? "Data too long for column 'name' at row 1" : null),
      ...uniqueUnder(mariadbKey, 5n),
    },
    seed: anotherClients,
  },
  {
    name: 'sql-server-unique-name-default-collation',
    description:
      "SQL Server, name NVARCHAR(255) NOT NULL UNIQUE under its default collation SQL_Latin1_General_CP1_CI_AS (case, width and trailing spaces ignored; U+0000, noncharacters and every character past U+FFFF weigh nothing): " +
      'a name equal to a stored one under it answered 409 (Msg 2627), a name longer than 255 UTF-16 units refused with 400 before the insert, IDENTITY ids with a gap for each refused insert, and another client\'s "0🐇" and " " in the store',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? (nameOf(body).length > 255 ? 'String or binary data would be truncated in table categories, column name' : null),
      ...uniqueUnder(sqlServerKey, 1001n),
    },
    // another client's "0" and an emoji, which the collation takes for "0"; its blank name
    seed: () => [
      { id: 1n, name: '0\u{1f407}', description: "another client's zero and a rabbit" },
      { id: 2n, name: ' ', description: "another client's blank name" },
    ],
  },
  {
    name: 'postgresql-citext-constraints-400',
    description:
      "PostgreSQL, name citext UNIQUE CHECK (name <> '') and VARCHAR(64) lengths checked before the insert, ids from an identity past 2^53: a name equal to a stored one but for case answered 409, " +
      "the empty name (the CHECK, 23514), U+0000 (22021) and longer values refused with 400, and an earlier run's records in the store",
    behaviour: {
      validate: (body) => {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        const name = nameOf(body)
        const description = descriptionOf(body)
        if (name === '') return 'new row for relation "categories" violates check constraint "categories_name_check"'
        if (name.includes('\u0000') || description?.includes('\u0000')) return 'invalid byte sequence for encoding "UTF8": 0x00'
        return [...name].length > 64 ? 'value too long for type character varying(64)' : null
      },
      ...uniqueUnder(citextKey, 2n ** 53n + 1n),
    },
    seed: earlierRun,
  },
  {
    name: 'oracle-unique-name-12-empty-as-null',
    description:
      "Oracle, name VARCHAR2(12 CHAR) UNIQUE, where '' is NULL, which a UNIQUE index never compares, listed back as \"\" (Go's string from a NullString): a repeated name answered 409, the empty name taken in every run, " +
      'a longer name refused with 400 (ORA-12899), and an earlier run\'s "0" and empty name in the store: its 409 to "0" is a repeat\'s, though the empty name was taken again',
    behaviour: {
      validate: (body) => conformingBehaviour.validate(body) ?? ([...nameOf(body)].length > 12 ? 'ORA-12899: value too large for column "NAME"' : null),
      // NULLs (the empty name) never collide: each gets a key of its own
      ...uniqueUnder((name) => (name === '' ? `\u0000${Math.random()}` : name), 21n),
    },
    seed: () => [
      { id: 1n, name: '0', description: 'cf-0earl-short-name' },
      { id: 2n, name: '', description: 'cf-0earl-empty-name' },
    ],
  },
  {
    name: 'repeated-names-409-across-accounts',
    description:
      "Flask over SQLite, name UNIQUE over every account's records, and each key lists its own account's categories alone (keys are issued for the account, §5.2): another account's run stored \"0\", \"\" and \"__proto__\" " +
      '(the names every run sends) before this one, so their creates are refused 409 as repeats of records the list does not show; a repeated name of the run is refused 409 too. ' +
      'The run passes: those three are not verified (cause name-held-elsewhere)',
    ...namesUniqueAcrossAccounts(),
  },
  {
    // review54: the order a small --max-writes keeps sends "" and "0" before "__proto__", and a version of the suite before
    // 2026-11-26 sent no "__proto__": such a run of another account stored the first two alone
    name: 'repeated-names-409-across-accounts-partial-run',
    description:
      "the service of variant repeated-names-409-across-accounts, where another account's run stored \"\" and \"0\" but not \"__proto__\" (a run under --max-writes 16, or of a suite " +
      'that sent no "__proto__"): this run\'s "__proto__" is taken, and "" and "0", refused 409 where the list shows none, are not verified; the run passes. ' +
      'Its refusals echo the values sent and a request number, which differ between creates: the same refusal all the same',
    ...echoingRefusals(namesUniqueAcrossAccounts([], 2)),
  },
  {
    // §2 gives the id the type integer, format int64; spec/openapi.yaml is OpenAPI 3.1, whose JSON Schema (2020-12)
    // counts a number with a zero fractional part as an integer: 12.0 is the integer 12 (valuehunt5)
    name: 'ids-written-as-whole-doubles',
    description:
      "a SQLite table whose id column was declared REAL: Python's sqlite3 reads each id as a float, and json.dumps writes it with its decimal point (12.0), " +
      'in the create answer and the list alike; every id is whole and exact',
    behaviour: {
      createdBody: (record) => recordWithRawId(record, `${record.id}.0`),
      listBody: (store) => `[${store.map((r) => recordWithRawId(r, `${r.id}.0`)).join(',')}]`,
    },
  },
]
