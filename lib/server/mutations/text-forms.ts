/**
 * Mutations that only forms of JSON text and characters no other case sends catch: a key written
 * with an escape, which a reader that matches keys as written misses, tag characters, which a
 * filter strips (create-echoes-fields), and the text forms of no value ("null", "None",
 * "undefined"), which a store that writes no value as text takes back as none.
 * suites/cases/valid-creates.ts sends each; docs/inputs.md says which create.
 */
import type { StoredCategory } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'
import { CHANGED, storedAs } from './inputs.ts'
import { ISO_DATE_TIME } from '../../checks/date-text-answers.ts'

/** A moment as .NET's DateTime.ToString() writes it in the invariant culture (a UTC one stays in UTC: DateTimeZoneHandling.RoundtripKind). */
const dotnetGeneral = (text: string): string => {
  const [date, time] = new Date(text).toISOString().split('T') as [string, string]
  const [year, month, day] = date.split('-')
  return `${month}/${day}/${year} ${time.slice(0, 8)}`
}

/** A record whose description is the text `form` kept without it: what a store that reads that text as no value gives back. */
const withoutText = (record: StoredCategory, form: string): StoredCategory => (record.description === form ? { id: record.id, name: record.name } : record)

export const TEXT_FORM_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the create whose description key goes out escaped (create-json-escapes: "descr\u0069ption")
    name: 'escaped-keys-read-as-written',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'object keys are matched as written, escapes and all (simdjson On-Demand compares raw keys; so do regex-based readers): "descr\\u0069ption" is not taken for description (RFC 8259 §8.3 compares names once unescaped), so the record is stored without it',
    // every string token in turn (a value's quotes and colons stay inside it); a key with an escape keeps its backslashes
    behaviour: { parseBody: (text) => JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"(\s*:)?/g, (token, colon?: string) => (colon && token.includes('\\') ? token.replaceAll('\\', '\\\\') : token))) as unknown },
  },
  {
    // caught by create-unicode's description: a flag of a subdivision (🏴 and tag characters), and a cancel tag in its short form
    name: 'tag-characters-stripped',
    ...CHANGED,
    description:
      "Unicode tag characters (U+E0000 to U+E007F) are stripped, as filters against ASCII smuggling (instructions hidden from the reader in tags) do: the flags of Scotland, Wales and England lose their tags and read as a black flag",
    behaviour: storedAs((text) => text.replace(/[\u{e0000}-\u{e007f}]/gu, '')),
  },
  {
    // caught by create-deep-value's description, "None", and create-none-description's (behind-refused-members.ts)
    name: 'none-text-read-as-no-value',
    ...CHANGED,
    description:
      'fields are kept as text (a Redis hash written with str(value), so a description not sent is stored as "None"), and a field read back as "None" is taken for no value: ' +
      'a description sent as the text "None" is created without one, and the create answers what was stored',
    behaviour: { toRecord: (body, id) => withoutText({ id, name: body.name, ...(body.description !== undefined ? { description: body.description } : {}) }, 'None') },
  },
  {
    // caught by create-padded-name's description, "undefined", in the list: the create answers what was sent
    name: 'undefined-text-listed-as-no-value',
    breaks: 'created-in-list',
    code: 'LISTED_FIELD_CHANGED',
    description:
      'fields are kept as text (a Redis hash written from a template string, `${body.description}`, so a description not sent is stored as "undefined"), and the list takes a field that reads "undefined" for no value; ' +
      'the create answers the fields it was sent, so a description sent as the text "undefined" is missing from the list only',
    behaviour: { listBody: (store) => store.map((r) => withoutText(r, 'undefined')) },
  },
  {
    // caught by create-sends-existing-id's description, "null", create-cut-anywhere's and create-null-description's (behind-refused-members.ts)
    name: 'null-text-answered-as-json-null',
    breaks: 'create-returns-category',
    code: 'SCHEMA_MISMATCH',
    description:
      'a description is read back through a helper that takes the text "null" for no value (`"null".equals(d) ? null : d`, as code written for form fields that JavaScript filled with String(null) does), ' +
      'and the record is written with "description": null',
    behaviour: {
      createdBody: (record) => (record.description === 'null' ? { ...record, description: null } : record),
      listBody: (store) => store.map((r) => (r.description === 'null' ? { ...r, description: null } : r)),
    },
  },
  {
    // caught by create-described's description, "2024-02-29T23:59:59.123456+00:00"
    name: 'json-net-dynamic-reformats-dates',
    ...CHANGED,
    description:
      "the body is read as Json.NET's dynamic (the Azure Functions template: dynamic data = JsonConvert.DeserializeObject(body); string description = data?.description), whose reader takes text that reads as an " +
      'ISO 8601 date and time for a DateTime (DateParseHandling.DateTime, its default), so the description stored is that DateTime\'s ToString(): "2024-02-29T23:59:59.1234567Z" becomes "02/29/2024 23:59:59"',
    behaviour: storedAs((text) => (ISO_DATE_TIME.test(text) ? dotnetGeneral(text) : text)),
  },
  {
    // the same description, in the list only: the create answers the fields it was sent
    name: 'date-reviver-reformats-listed-dates',
    breaks: 'created-in-list',
    code: 'LISTED_FIELD_CHANGED',
    description:
      'records are kept as JSON text and read back with a reviver that makes text that reads as an ISO 8601 date a Date (JSON.parse(text, dateReviver)), which JSON.stringify writes as toISOString(): ' +
      'a description "2024-02-29T23:59:59.1234567Z" is listed as "2024-02-29T23:59:59.123Z"; the create answers the fields it was sent',
    behaviour: { listBody: (store) => store.map((r) => (r.description !== undefined && ISO_DATE_TIME.test(r.description) ? { ...r, description: new Date(r.description).toISOString() } : r)) },
  },
]
