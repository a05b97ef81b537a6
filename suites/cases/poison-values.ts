/**
 * §4.2 rule 2, §4.1: the values a real service accepts, stores, and then cannot give back. One
 * such create and every later list answers 500, for every client, until someone edits the store:
 * a Python service that encodes a lone surrogate (Django REST framework), a PostgreSQL `json`
 * column read as text holding U+0000, PHP's json_encode on text cut inside a character, a
 * serialiser with a nesting limit below its parser's. Each class is a create of its own (one class
 * refused must not hide another); a list that answered 200 as the run found it and breaks after
 * them names the create and the class (suites/categories/poisoned-list.ts). docs/inputs.md gives
 * the source of each class.
 *
 * Refusing one with 400 and an Error record is the service's freedom (§4.2 rule 1: it may call it
 * an invalid value); a 201 must carry it back unchanged (§4.2 rule 2), and the list must still
 * answer 200 (§4.1). They follow every refusal in the write order (write-order.ts), so a small
 * --max-writes keeps the POSTs it had.
 */
import { deepValueFault, LONE_SURROGATE_FAULT } from '../../lib/checks/orm-driver-answers.ts'
import type { ValidCreate } from './valid-create.ts'

/** Why any of them may be refused. */
const MAY_REFUSE = 'a service may call a value it cannot store an invalid value (§4.2 rule 1)'

/** How deep the unknown field of create-deep-value nests: past orjson's 255 and MongoDB's 100, within Python's 1,000 and Jackson's 1,000. */
export const POISON_DEPTH = 300

/** "xy" and then 3-byte characters: a cut at 64, 100, 255, 256, 1,000 or 1,024 bytes falls inside one. */
export const CUT_BYTES_DESCRIPTION = `xy${'€'.repeat(100)}`

/** 72 characters of 4 bytes each (U+1F407): after the prefix's 9 bytes, every byte but 1 in 4 is inside one, to 297. */
const CUT_ANYWHERE_TAIL = '\u{1f407}'.repeat(72)

export const POISON_CREATES: readonly ValidCreate[] = [
  {
    key: 'create-lone-surrogates',
    label: 'lone surrogates, escaped (\\ud800 in name, \\udfff and a reversed pair in description)',
    holds: 'lone surrogates (\\ud800, \\udfff): JSON text with no UTF-8 form (RFC 8259 §8.2)',
    // JSON.stringify writes a lone surrogate as its escape (ES2019 well-formed JSON.stringify)
    body: (p) => ({ name: `${p}-\ud800`, description: 'low \udfff, reversed \udc07\ud83d' }),
    mayRefuse: MAY_REFUSE,
    faultMeans: LONE_SURROGATE_FAULT,
  },
  {
    key: 'create-surrogate-before-escape',
    label: 'a lone high surrogate before the escape \\u0041, alone in its body',
    holds: 'a lone high surrogate before another escape (\\ud800\\u0041)',
    // a parser that pairs a high surrogate with whatever escape follows reads one character,
    // U+10041 (Ruby's json 2.6); alone in its body, as such a parser refuses the other lone
    // surrogates (as it may), and that refusal would hide the pairing
    body: (p) => ({ name: `${p}-pair`, description: 'high \ud800A' }),
    text: (body) => JSON.stringify(body).replace('\\ud800A', '\\ud800\\u0041'),
    mayRefuse: MAY_REFUSE,
    faultMeans: LONE_SURROGATE_FAULT,
  },
  {
    key: 'create-nul',
    label: 'U+0000 in a short name and in a short description',
    holds: 'U+0000, which PostgreSQL text and jsonb cannot hold',
    // U+0000 in both fields, short, and in no other create: create-long-thousands' description, which held
    // it too, is refused by a VARCHAR(255) description, and a service that ends descriptions at U+0000 (a
    // C-string layer) behind one passed while this description was "None" (create-none-description holds that now)
    body: (p) => ({ name: `${p}-\u0000nul`, description: 'nul [\u0000] end' }),
    mayRefuse: MAY_REFUSE,
    faultMeans:
      'a server fault to U+0000: PostgreSQL text cannot hold it (SQLSTATE 22021, invalid byte sequence for encoding "UTF8": 0x00), and lib/pq, pgx and the pg gem raise it to a service that leaves it unhandled, ' +
      "as psycopg2 raises its ValueError (A string literal cannot contain NUL (0x00) characters) before sending; " +
      "refuse it with 400 before the store (Django REST framework's CharField does, by its ProhibitNullCharactersValidator), or keep it apart (bytea)",
  },
  {
    key: 'create-cut-bytes',
    label: 'a 102-character description of 302 bytes, mostly 3-byte characters',
    holds: 'multi-byte characters across a byte limit (a cut at 255 bytes falls inside one)',
    body: (p) => ({ name: `${p}-€uro`, description: CUT_BYTES_DESCRIPTION }),
    mayRefuse: `${MAY_REFUSE}; lengths are not shown (§8)`,
  },
  {
    key: 'create-cut-anywhere',
    label: 'a name of 4-byte characters after the prefix, then "-cut", 301 bytes: a cut by bytes at any n from 10 to 297 but 1 in 4 falls inside one; the description "null", as text',
    holds: 'multi-byte characters across every byte offset of a name but 1 in 4 (a cut at 12, 20, 24, 50, 100, 128 or 256 bytes falls inside one)',
    // the names of the other creates leave such cuts unmet (one text cannot hold a character
    // across every byte: each ends one); this one leaves only n ≡ 1 (mod 4), which round limits
    // never are, and many of which the other names meet
    // the description "null", as create-sends-existing-id's is: a service that refuses an id or a
    // field NewCategory does not name (Jackson's FAIL_ON_UNKNOWN_PROPERTIES, a plain ObjectMapper's
    // default; Joi's) refuses that one, and a helper that takes the text "null" for no value showed
    // it nowhere else (create-described's description reads as a date and time, as this one did)
    // and "-cut" after them: SQL Server's default collation (SQL_Latin1_General_CP1_CI_AS) gives every
    // character past U+FFFF, U+0000 and the noncharacters no weight, so without it this name, the
    // noncharacters' and the lone surrogate's were one name, "<prefix>-", to a UNIQUE index: 409 to two
    // of them (variant sql-server-unique-name-default-collation). After, not before: the cuts stay where they were
    body: (p) => ({ name: `${p}-${CUT_ANYWHERE_TAIL}-cut`, description: 'null' }),
    mayRefuse: `${MAY_REFUSE}; lengths are not shown (§8)`,
    faultMeans:
      'a server fault, or no answer, to a name of multi-byte characters: most often the name cut by bytes inside a character for a log line or a preview ' +
      "(Rust's `&name[..n]` panics there, and hyper or axum closes the connection; Go's `name[:n]` and PHP's substr() make invalid UTF-8 that the store or the serialiser refuses); " +
      "cut at a character boundary (Rust's `char_indices`, `floor_char_boundary`; Go's `utf8.ValidString` loop; PHP's mb_substr)",
  },
  {
    key: 'create-noncharacters',
    label: 'noncharacters in name (U+FDD0, U+FFFE, U+FFFF); U+1FFFE, U+10FFFF and private use characters in description',
    holds: 'noncharacters (U+FDD0, U+FFFE, U+FFFF, U+1FFFE, U+10FFFF) and private use characters (U+E000, U+F8FF, U+F0000, U+10FFFD)',
    // "nc": apart from the lone surrogate's name to a collation that weighs neither (create-cut-anywhere says why)
    body: (p) => ({ name: `${p}-nc\ufdd0\ufffe\uffff`, description: 'nc \u{1fffe}\u{10ffff} pua \ue000\uf8ff\u{f0000}\u{10fffd}' }),
    mayRefuse: MAY_REFUSE,
  },
  {
    key: 'create-deep-value',
    label: `a field NewCategory does not name, holding arrays nested ${POISON_DEPTH} deep, and the description "None", as text`,
    holds: `a value nested ${POISON_DEPTH} levels deep in a field NewCategory does not name`,
    // the description "None": what Python writes for no value (str(None)), which a store of text
    // fields takes back as none; beside a value only a service that keeps unknown fields stores
    body: (p) => ({ name: `${p}-deep`, description: 'None' }),
    // the unknown field goes last: a service may ignore it, store it, or refuse it with 400
    text: (body) => `${JSON.stringify(body).slice(0, -1)},"extra":${'['.repeat(POISON_DEPTH)}${']'.repeat(POISON_DEPTH)}}`,
    mayRefuse: `${MAY_REFUSE}, or a field NewCategory does not name`,
    faultMeans: deepValueFault,
  },
]
