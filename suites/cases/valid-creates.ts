/**
 * §4.2 rule 2: valid create bodies, each carrying in its name and its description one class of the
 * strings that break real services (a column that truncates, a writer that concatenates, a store
 * that normalises). Two classes per create keep the records a default run makes few; after the two with
 * a priority, a small --max-writes keeps them in the order of this table (suites/cases/write-order.ts).
 * Names are short (the run's prefix is eight characters) and the classes that come in long values
 * have a short form, so that a service with short columns still gets every class (§8).
 */
import { createHash } from 'node:crypto'
import type { NewCategory } from '../../lib/checks/category.ts'
import { CLIENT_ID_INSERTED, EXISTING_ID_FAULT, EXISTING_ID_UPDATED } from '../../lib/checks/orm-driver-answers.ts'
import { FORMAT_FAULT, LENGTH_FAULT } from './create-faults.ts'
import { POISON_CREATES } from './poison-values.ts'
import { READ_AS_OTHER_CREATES } from './read-as-other-creates.ts'
import { REPEATED_NAME_REFUSALS, type ValidCreate } from './valid-create.ts'
import { DATE_DESCRIPTION, DESCRIPTION_FLOOR, LONG_DESCRIPTION, LONG_DESCRIPTION_BYTES, longDescription, NAME_FLOOR, numericName, textOfLength } from './create-values.ts'
export type { ValidCreate } from './valid-create.ts'
export { DESCRIPTION_FLOOR, LONG_DESCRIPTION, LONG_DESCRIPTION_BYTES, NAME_FLOOR, numericName, runDigits, textOfLength } from './create-values.ts'


/** A class refused for length is sent again in this form: why, as reports say it. */
export const LENGTH_REASON = 'lengths are not shown (§8)'

/**
 * Every character JSON must escape (RFC 8259 §7) but U+0000, in one string: U+0001 to U+001F. A
 * store may be unable to hold U+0000 (PostgreSQL text), so it travels in a create that may be refused.
 */
const CONTROL_CHARACTERS = Array.from({ length: 0x1f }, (_, code) => String.fromCharCode(code + 1)).join('')

/**
 * The id the create-sends-id body carries: drawn from the run's seed, so --seed sends it again and
 * runs with other seeds send others (a service that took one would refuse a second for a duplicate
 * instead of showing why); between 2^30 and 2^31, so that it fits every id column, a 32-bit one
 * too (a service with one refused an id past it as an invalid value, and so never showed that it
 * takes an id that fits), and stays exact in a double.
 */
export function clientId(seed: number): string {
  return (2n ** 30n + (BigInt('0x' + createHash('sha256').update(String(seed)).digest('hex').slice(0, 13)) % 2n ** 30n)).toString()
}

/** The name of the name-only create, which create-repeated-name sends again. */
const plainName = (prefix: string) => `${prefix}-plain`


export const VALID_CREATES: readonly ValidCreate[] = [
  {
    key: 'create-described',
    priority: 1,
    label: `a ${NAME_FLOOR}-character name and a ${DESCRIPTION_FLOOR}-character description that reads as a date and time (ISO 8601), description first, indented over several lines as Python's json.dumps(indent=2) writes a dict, a line break before and after it`,
    // an upper-case letter: a store that lower-cases names meets it here when it refuses the long names for their lengths
    // and a description that reads as a date and time, which Json.NET's reader takes for a DateTime (a
    // body read as dynamic or JObject), a JSON.parse reviver for a Date: the one create that sends such text
    body: (p) => ({ name: textOfLength(`${p}-Desc`, NAME_FLOOR), description: DATE_DESCRIPTION }),
    // JSON.stringify writes no whitespace between tokens and name first, as every other create goes:
    // a reader written for that text alone (regular expressions for "name":"…", values bound in the
    // order the keys came, one readLine() of the body) passes them all. Python's json.dumps(indent=2)
    // writes a line for each member, a space after each colon, and a dict, a map or a hand-written
    // body may hold description first. The first create, so that a run of any --max-writes sends it
    // And a line break after the value, as a file ends (curl --data-binary @body.json): a parser written
    // by hand that checks it stopped at the end of the text, whitespace not skipped, refuses it. And
    // one before it, as a body written in a template literal, a triple-quoted string or a heredoc
    // begins: a check of the first character for "{" before the parse, whitespace not skipped, refuses it
    text: (body) => `\n{\n  "description": ${JSON.stringify(body.description)},\n  "name": ${JSON.stringify(body.name)}\n}\n`,
    writtenAs:
      "description before name, over several lines, indented, as Python's json.dumps(indent=2) writes a dict, and a line break after the value, as a file ends, and one before it, as a template literal or a heredoc begins: " +
      "RFC 8259 §2 allows whitespace around every structural character, before and after the value, and §4 makes an object's members unordered",
  },
  {
    key: 'create-json-escapes',
    priority: 2,
    label: "double and single quotes, backslashes (one last), slashes, a tab and CR LF, HTML's < > & and entities, printf's %s and an unclosed ( [ { in name; control characters U+0001 to U+001F, CR LF, U+2028, U+2029, HTML tags, quotes and a backslash in description",
    body: (p) => ({
      // ' and < > &: what hand-made SQL escaping doubles and HTML sanitisers escape or strip on the way in
      // &amp; and &#65;: text that an entity decoder on the way in turns into & and A; typographic
      // quotes, which a "smart punctuation" filter straightens; an emoji the request text writes as
      // an escaped surrogate pair in upper-case hex (\uD83D\uDC07), as Jackson and .NET's encoders
      // write it (the description's controls go in lower-case, as JSON.stringify and Python's
      // json.dumps write them: a parser written by hand for one case refuses the other); and a format directive
      // and a plus sign ("50%+%s"): a service that logs the create with a format string built of the
      // name (Java's printf("created " + name), String.format) throws on the %s it has no argument
      // for, and one that URL-decodes the body refuses the escape or reads + as a space; "100%25", which
      // unquote/rawurldecode (invalid escapes and + left as they are) turn into "100%"
      // and a tab and CR LF: a guard against log injection (CWE-117) that takes them out of the
      // field it logs, the name, keeps them in multi-line text, the description
      // and an unclosed parenthesis, bracket and brace, then a backslash last (a Windows path, "C:\\"):
      // a service that builds a regular expression of the name (a case-insensitive lookup:
      // new RegExp(`^${name}$`, 'i')) or a message pattern (MessageFormat, string.Format, str.format)
      // throws on them, and a tokenizer that takes every quote after a backslash for an escaped one
      // (prev != '\\', the backslashes before it not counted) reads past the closing quote
      name: `${p}-"quoted" back\\slash \\" /slash/ \\\\ O'Brien's\ttab\r\nline <b>Tom & Jerry</b> &amp;&#65; ‘it’ “is” 🐇 50%+%s 100%25 ([{ C:\\`,
      // CR LF as Windows writes a line break (a store that normalises line endings keeps only LF), and
      // tags in the description too: sanitisers are often set on one field only
      // C1 controls too (U+007F to U+009F); and a line break at the very end, which a chomp takes away
      // and quotes and a backslash, as the name holds them: a description written into SQL by string
      // concatenation (a statement of its own, added later) fails on the quote where the name did not;
      // and C:\new\u00e9 as text: a hand-written reader unescaping with a chain of replace calls reads
      // the escaped backslash, then the letter after it, as one more escape
      description: `controls [${CONTROL_CHARACTERS}] c1 [\u007f\u0085\u009f] crlf\r\nline line\u2028separator paragraph\u2029separator <i>tag</i> it's "quoted" C:\\new\\u00e9 back\\slash\n`,
    }),
    // the solidus goes out escaped (\/), which a parser must read as "/"; the rest as JSON.stringify writes it.
    // And the description's key with an escape ("descr\u0069ption"): names compare once unescaped (RFC
    // 8259 §8.3), but a reader that matches keys as written (simdjson On-Demand, a regular expression)
    // drops the description. Its key only: one that loses the name refuses the create, which would
    // read as a refusal of the values' characters
    text: (body) => JSON.stringify(body).replaceAll('/', '\\/').replaceAll('🐇', '\\uD83D\\uDC07').replace('"description":', '"descr\\u0069ption":'),
    mayRefuse: LENGTH_REASON,
    faultMeans: FORMAT_FAULT,
    // the short form meets the classes of both long values a store with short columns gets no other
    // way: a printf directive (%( throws as %s does) and the pattern characters in the name (an unclosed
    // ( for a regular expression, as [ would be; the prefix keeps its "-", which reports read), the brace
    // before the apostrophe (MessageFormat quotes what follows a lone one), the backslash last; in the
    // description a C1 control, a quote, a backslash before n as text, the emoji (sent as an upper-case
    // surrogate pair), a typographic quote and a line break last: 16 and 32 bytes hold no more, and
    // the body stays under 100 bytes, as every body the suite requires 201 for (test/inputs/body-size-limit.test.ts)
    shortForm: (p) => ({ name: `${p}-"%({'<\\`, description: `\u0001\u0008\t\r\n\u0085\u2028"'\\n/<i>🐇‘\n` }),
  },
  {
    key: 'create-unicode',
    label: 'emoji, ZWJ sequences, right-to-left text, a right-to-left override and a decomposed accent in name; decomposed accents, zero-width characters and bidirectional controls in description',
    body: (p) => ({
      // e + U+0301 etc., sent decomposed, in both fields: a store that normalises to NFC (often the name
      // only, a lookup key) changes them
      // and a right-to-left override closed by its pop, which a guard against spoofing takes out of
      // names (the field a list shows: "gnp.exe" after U+202E reads "exe.png"), not of descriptions
      name: `${p}-Ñandú Cafe\u0301 🐇 👩‍👩‍👧‍👦 🏳️‍🌈 שלום עליכם مرحبا \u202egnp.exe\u202c`,
      // bidirectional marks, overrides and isolates, which a Trojan-Source filter strips
      // and fullwidth forms (U+FF01 to U+FF5E), which an NFKC store folds into ASCII; and the flag of
      // Scotland, a black flag and tag characters (U+E0067 … U+E007F), which a filter against ASCII
      // smuggling strips
      description: 'Cafe\u0301 n\u0303 A\u030a o\u0308\u0304 | zero\u200bwidth\u200cnon\u200djoiner\u2060word\ufeffjoiner | \u200emark\u200f \u202eoverride\u202c \u2066isolate\u2069 | ＡＢＣ１ | \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}',
    }),
    mayRefuse: LENGTH_REASON,
    faultMeans: LENGTH_FAULT,
    // a cancel tag (U+E007F) after the emoji: the 4 bytes left of the description's 32; and in the name
    // a right-to-left override, which a guard against spoofing takes out of names only (the emoji is in the description),
    // last, in 12 code points as the emoji's name had: columns of 12 and 16 take this create alone (variant name-limit-12-description-16)
    shortForm: (p) => ({ name: `${p}-e\u0301\u202e`, description: 'שלום 👩\u200d👧\u{e007f} \u200e\u202e' }),
    // split inside the Ñ: a loopback body arrives in one read, a network's in several (Node's
    // `body += chunk` decodes each on its own)
    inPieces: true,
  },
  {
    key: 'create-whitespace',
    label: 'leading and trailing spaces, CR LF and a tab in name (64 characters, the last 44 spaces); runs of spaces, non-breaking and other Unicode spaces, fullwidth letters, an HTML entity, a vertical tab first and U+001F last in description',
    body: (p) => ({
      // and CR LF and a tab, which a guard against log injection takes out of names: a store that refuses the escapes create's long name meets them here
      // and spaces from the 21st character to the 64th: a column of 20 to 63 characters cuts them without an error
      // (the SQL standard: PostgreSQL, MySQL, MariaDB) or a cut at 32 or 45 (MySQL outside strict mode) takes them, behind a
      // check in front that takes up to 255 characters (@Size(max = 255)), 64 bytes (Go's len) or 64 UTF-16 code units
      // (Java's @Size(max = 64)); the padded names of 256 characters are refused by such a check, and create-unicode's 62
      // characters hold more than spaces past 32, in 69 code units and 114 bytes. ASCII, 64 bytes, as long as such a check
      // lets through in every count: a name column of 64 or 255 takes it; one of 45 (MySQL Workbench's default) or 50 may refuse it
      // (§8), and gets the short form (a name of 44 let a cut at 44 to 63 behind a check of 64 pass: valuehunt5)
      name: `  ${p}-padded\r\n\t`.padEnd(64, ' '),
      // and its &amp;, which an entity decoder on the way in reads as &, in both forms
      // and fullwidth letters beside the ideographic space, which a width fold (NFKC, jaconv's z2h) makes ASCII, in both forms
      // and a vertical tab first and U+001F last, which Java's trim() takes away (every character up to U+0020), Python's
      // strip() too (U+001F is whitespace to str.isspace), JavaScript's trim() and Go's TrimSpace the vertical tab only.
      // JSON writes each as a six-byte escape: the short form is 98 bytes, as large as the escapes create's, which a
      // service that took no body as large may refuse for its size (accepted-sizes.ts); create-sends-id, 99 bytes,
      // shows one taken only where a member NewCategory does not name is (its id)
      description: '\u000b\u00a0 runs   of\u00a0\u00a0spaces\u2002en\u2003em\u2009thin\u3000ideographic\u3000ＡＢＣ１\u202fnarrow &amp;  \u001f',
    }),
    mayRefuse: LENGTH_REASON,
    faultMeans: LENGTH_FAULT,
    shortForm: (p) => ({ name: ` ${p}-s\r\n\t `, description: '\u000b\u00a0 a  b\u2003c\u3000Ａ\u200bd e\u0301&amp;\u001f' }),
    // and whitespace of JSON's own between its tokens, the two kinds no other create sends: a tab
    // and a carriage return, as a body file written on Windows holds them (an editor's tab indents,
    // CRLF line ends; curl --data-binary @body.json). A tokenizer written by hand that skips spaces
    // and line feeds only (as a body written on Unix has them) refuses it
    text: (body) => `{\r\n\t"name":\t${JSON.stringify(body.name)},\r\n\t"description":\t${JSON.stringify(body.description)}\r\n}`,
    writtenAs: 'indented with tabs and ended with CRLF, as a body file written on Windows: RFC 8259 §2 counts the tab and the carriage return as whitespace between tokens, as it does the space and the line feed',
  },
  {
    key: 'create-name-only',
    label: "name only, with curl's Accept: */*",
    body: (p) => ({ name: plainName(p) }),
    // §4: every payload is JSON, whatever the client accepts; a service that negotiates may pick another type
    sentAs: { accept: '*/*' },
  },
  {
    key: 'create-repeated-name',
    label: 'the name of the name-only create again, with a description, once that one was answered',
    body: (p) => ({ name: plainName(p), description: `${p}-repeated` }),
    repeats: 'create-name-only',
    mayRefuse: 'uniqueness of names is not shown: a service may refuse a repeated name (409, 422, or 400 with an Error record)',
    refusals: REPEATED_NAME_REFUSALS,
  },
  {
    key: 'create-empty-description',
    label: 'an empty description, with no Accept header',
    // the document asks clients for no Accept header: its answer is JSON all the same (§4)
    sentAs: { accept: '' },
    // Go's omitempty and Oracle's '' = NULL lose it on the way out; a 201 must carry it back
    body: (p) => ({ name: `${p}-empty`, description: '' }),
    mayRefuse: 'an empty string may be an invalid value for the service (§4.2 rule 1), as an empty name may be',
  },
  {
    key: 'create-empty-name',
    label: 'an empty name',
    // what happens to an empty name is the service's choice (§4.2 rule 1 may call it invalid); a
    // server fault is not (a 5xx is no answer to a request that gets 201 or 400). The description
    // carries the prefix, so the record stays findable.
    body: (p) => ({ name: '', description: `${p}-empty-name` }),
    mayRefuse: 'an empty name may be an invalid value for the service (§4.2 rule 1)',
    // every run sends it: a service with unique names (MySQL's or PostgreSQL's UNIQUE) answers an
    // earlier run's empty name with 409 from the second run on, as it may any repeated name
    nameOfEveryRun: true,
  },
  {
    key: 'create-numeric-name',
    label: 'a name of digits that reads as a negative number with leading zeros, with no Accept header',
    // numeric text in the name: a column of NUMERIC affinity (SQLite's for a type named STRING or
    // NUMERIC), a loosely typed store or a parse on the way back answers a number (-42…); a
    // CSV-injection sanitiser prefixes its "-" with a quote, and the description's "=" too, where one is set on
    // descriptions alone (create-sends-id's "-0042" goes beside an id). Short and plain, so that every limit a conforming
    // service may set lets it through; the run's own digits, the prefix in the description. Both of the
    // floor's lengths, in compact JSON: the first create's refusal (a reader of one layout of JSON) is
    // then no length limit, where the service refuses every longer description (create-checks.ts)
    body: (p) => ({ name: numericName(p), description: textOfLength(`=${p}-numeric-name`, DESCRIPTION_FLOOR) }),
    sentAs: { accept: '' }, // as create-empty-description's, which may be refused for its empty description
  },
  {
    key: 'create-short-name',
    label: 'a one-character name, "0"',
    // §2 gives a name no least length, and §8 leaves only maximum lengths open: a service that sets
    // a minimum (Laravel's min:3) refuses it, as does PHP's empty(), for which "0" is no value. The
    // same name in every run, so the description carries the prefix, as the empty name's does
    body: (p) => ({ name: '0', description: `${p}-short-name` }),
    nameOfEveryRun: true,
  },
  {
    key: 'create-zero-description',
    label: 'a one-character description, "0", and a precomposed é in the name, sent in chunks (Transfer-Encoding: chunked)',
    // PHP's empty() and ?: take "0" for no value, as they take '': a service that refuses an empty
    // description (as it may) with empty() refuses "0" too, and one that stores `$d ?: null` drops
    // it; the empty description alone could be refused, and so never show either
    // and an é, precomposed (U+00E9), which a store that normalises to NFD decomposes: every other accent the
    // creates send comes decomposed (for NFC), and the one precomposed, create-unicode's Ñandú, in a name a limit of
    // 32 characters or 64 bytes refuses; after a space, apart from the name's marker (cf-xxxxx-z), in 12 characters, as a
    // name column of 12 takes (not plain ASCII, a refusal of it is no length limit's)
    body: (p) => ({ name: `${p}-z \u00e9`, description: '0' }),
    // in chunks, as clients that stream their body send it: a server that reads a body only up to its
    // Content-Length (a WSGI app reading CONTENT_LENGTH bytes of wsgi.input) sees none, and answers
    // 400 to a valid body. This create, because a server that answers 411 instead (mod_wsgi's
    // default, which HTTP allows) is no PHP one, for which "0" matters; no create more (the records
    // a run makes stay as few)
    chunked: true,
  },
  {
    key: 'create-sends-id',
    label: 'an id the client never sends (§2), which the service must not take, a description that reads as a negative number, and after them a field NewCategory does not name, "Name", holding another name',
    // a number as text, with a leading zero: a store that coerces numeric text changes it (to -42);
    // and a leading "-", which a CSV-injection sanitiser turns into "'-0042" (as it does = + @)
    body: (p) => ({ name: `${p}-sent-id`, description: '-0042' }),
    sendsId: clientId,
    // "Name" is not name (RFC 8259 §8.3): a binder matching keys in any case (Go, ASP.NET Core) takes the later one.
    // Its body is 99 bytes, at least the escapes create's short form (98) and at most 100: a service that takes it
    // took a body as large, so a refusal of that short form is not of its size (accepted-sizes.ts)
    alsoSends: (p) => ({ Name: `${p}-Name-2nd-of-two` }),
    mayRefuse: 'a service may refuse a field NewCategory does not name (§4.2 rule 1: an invalid value)',
    // a request body bound to the JPA entity: save() merges what has an id, and Hibernate 6.6 throws
    // where it used to insert
    faultMeans:
      "a server fault to a body that carries an id: bound to a JPA entity, Spring Data's save() merges a record whose id is set, and Hibernate 6.6 (Spring Boot 3.4) throws an OptimisticLockException for an id it does not hold; " +
      'bind the request to a class without id, or have Jackson leave it unset (@JsonProperty(access = JsonProperty.Access.READ_ONLY) on the id)',
    idTakenMeans: CLIENT_ID_INSERTED,
  },
  {
    key: 'create-sends-existing-id',
    label: "the id of the run's first record, which the client never sends (§2): a new record, not that one; the description \"null\", as text",
    // an id the service holds: TypeORM's repository.save(req.body) updates the record it names (and
    // inserts a new one, with an id of its own, for an id it does not hold: create-sends-id's);
    // the run's own record, so that a service that overwrites it changes nothing of anyone else's
    // the description "null": the text form of no value in Java and JavaScript (String.valueOf(null),
    // String(null)), which a service that wrote no value as text, or that cleans form fields a
    // script filled so, takes back as none (the JSON null, or no field). Whole, as a value: one of
    // the three forms in each of three creates that carry the name's prefix
    body: (p) => ({ name: `${p}-own-id`, description: 'null' }),
    sendsIdOf: 'create-described',
    mayRefuse: 'a service may refuse a field NewCategory does not name (§4.2 rule 1: an invalid value)',
    faultMeans: EXISTING_ID_FAULT,
    idTakenMeans: EXISTING_ID_UPDATED,
  },
  {
    key: 'create-padded-name',
    label: `a 256-character name, ${NAME_FLOOR} characters (a tag and a percent escape among them) and ${256 - NAME_FLOOR} spaces, and the description "undefined", as text`,
    // the trailing spaces of create-long-hundreds alone, beside a description every service stores:
    // there a VARCHAR(255) description refuses the create for its 1,001 digits, and a VARCHAR(32)
    // name, which cuts what is spaces past its length without an error (the SQL standard), was
    // never judged. Its description "undefined", plain text every service stores: what JavaScript
    // writes for no value (`${body.description}`), which a store of text fields takes back as none
    // And the escapes create's tag and percent escape in the name, which a sanitiser set on names strips
    // or decodes: a store with short descriptions refuses the escapes create and create-whitespace
    body: (p) => ({ name: `${p}-p<b>%25` + ' '.repeat(256 - NAME_FLOOR), description: 'undefined' }),
    mayRefuse: LENGTH_REASON,
    faultMeans: LENGTH_FAULT,
    // all of it again in 16 and 32 (no other description is free to hold "undefined" whole, nor a
    // short name the tag and escape): a store with short names refuses the 256 characters
    shortForm: (p) => ({ name: `${p}-<b>%25 `, description: 'undefined' }),
  },
  {
    key: 'create-long-hundreds',
    label: `a 256-character name, ${NAME_FLOOR} characters and ${256 - NAME_FLOOR} spaces, and a 1,001-character description made of digits (10^1000 as text)`,
    // the spaces: a VARCHAR column shorter than the name refuses it, unless all that is past its
    // length is spaces, which it cuts without an error (the SQL standard: PostgreSQL, and MySQL and
    // MariaDB in every sql_mode), so a VARCHAR(16) to VARCHAR(255) name answers 201 and keeps less
    // than was sent. Digits: a store that keeps every field as text and parses what reads as JSON
    // on the way back (a Redis hash, read through JSON.parse to restore the id's number) answers a
    // number, or null
    body: (p) => ({ name: textOfLength(`${p}-long`, NAME_FLOOR) + ' '.repeat(256 - NAME_FLOOR), description: `1${'0'.repeat(1_000)}` }),
    mayRefuse: LENGTH_REASON,
    faultMeans: LENGTH_FAULT,
  },
  {
    key: 'create-long-thousands',
    label: `a ${NAME_FLOOR}-character name and a ${LONG_DESCRIPTION.toLocaleString('en-US')}-character description of € signs (${LONG_DESCRIPTION_BYTES.toLocaleString('en-US')} bytes)`,
    // no U+0000 (create-nul holds it, in both fields): a service that refuses it took no long description
    // while this one held it, and a cut past 1,001 characters behind that refusal passed. A name that fits: refused, if at
    // all, for its description alone, so a service that stores the name, then the description (two
    // statements, no transaction) shows the record it kept after a 400 (the list then holds the name)
    body: (p) => ({ name: `${p}-bigdesc`, description: longDescription() }),
    mayRefuse: LENGTH_REASON,
    faultMeans: LENGTH_FAULT,
  },
  ...READ_AS_OTHER_CREATES,
  // last, and sent after every refusal (write-order.ts): the values that can break every later list
  ...POISON_CREATES,
]

/**
 * What the record of a create refused with 400 would hold, so the list that follows can show it was
 * stored: its name, or its description when the name is empty or another create's.
 */
export const createMarker = (c: ValidCreate, sent: NewCategory): string => (sent.name === '' || c.repeats || c.nameOfEveryRun ? (sent.description as string) : sent.name)

/** The text a valid create sends. */
export function createText(c: ValidCreate, body: NewCategory, seed: number, prefix: string): string {
  if (c.text) return c.text(body)
  const members = JSON.stringify({ ...body, ...c.alsoSends?.(prefix) })
  return c.sendsId ? `{"id":${c.sendsId(seed)},${members.slice(1)}` : members
}
