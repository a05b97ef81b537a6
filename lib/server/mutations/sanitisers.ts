/**
 * Mutations a service gets from what sits in front of its store: a sanitiser or normaliser set on
 * one field only, a line-ending fix, an entity decoder, an unescaper that lets through escapes
 * JSON does not have, SQL built by concatenation for one field. Each passes every plain body and changes only the one class of string it
 * touches, in the field it is set on; the valid creates carry each class in both fields where a
 * service's sanitisers differ by field (suites/cases/valid-creates.ts).
 */
import { conformingBehaviour } from '../reference-server.ts'
import { CHANGED, lenientParser, storedAs } from './inputs.ts'
import type { Mutation } from '../server-cases.ts'

/** A few HTML entities, as a decoder on the way in reads them. */
const decodeEntities = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&amp;', '&')

/** Python's urllib.parse.unquote (PHP's rawurldecode alike): runs of valid %XX escapes decoded as UTF-8, an invalid one left as it is, + kept. */
const unquote = (text: string) => text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'))

/** The escapes of a JSON string, as a chain of replace calls reads them: the escaped backslash first, the \u escapes last. */
const REPLACE_CHAIN: readonly [string, string][] = [['\\\\', '\\'], ['\\"', '"'], ['\\/', '/'], ['\\b', '\b'], ['\\f', '\f'], ['\\n', '\n'], ['\\r', '\r'], ['\\t', '\t']]
const unescapedByChain = (inner: string) =>
  REPLACE_CHAIN.reduce((text, [escape, character]) => text.replaceAll(escape, character), inner).replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

export const SANITISER_MUTATIONS: readonly Mutation[] = [
  {
    name: 'line-endings-normalised',
    ...CHANGED,
    description: 'CR LF in text is stored as LF (a store or framework that normalises line endings, as HTML form handling does)',
    behaviour: storedAs((text) => text.replaceAll('\r\n', '\n')),
  },
  {
    // caught by create-json-escapes' name, which holds a tab and CR LF (its description always did)
    name: 'line-breaks-stripped-from-names',
    ...CHANGED,
    description:
      "CR, LF and tab are taken out of the name, the field the service logs, against log injection (CWE-117, neutralised in the value itself rather than in the log line), " +
      'while the description, multi-line text, keeps them',
    behaviour: storedAs((text, field) => (field === 'name' ? text.replace(/[\r\n\t]/g, '') : text)),
  },
  {
    // caught by create-json-escapes' description, which holds quotes and a backslash (only names and short forms did)
    name: 'description-sql-built-by-concatenation',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      "the name goes into SQL as a bound parameter, the description by string concatenation (`UPDATE categories SET description = '${description}' …`, a statement added later): " +
      "a single quote in a description is a syntax error, answered 500 (and SQL injection); a name with one is stored",
    behaviour: {
      toRecord(body, id) {
        if (body.description?.includes("'")) throw new Error('syntax error at or near "s"')
        return conformingBehaviour.toRecord(body, id)
      },
    },
  },
  {
    name: 'bidi-controls-stripped',
    ...CHANGED,
    description: 'bidirectional marks, overrides and isolates (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069) are stripped against Trojan Source',
    behaviour: storedAs((text) => text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')),
  },
  {
    // caught by create-unicode's name, which holds a right-to-left override (its description always held bidi controls)
    name: 'bidi-overrides-stripped-from-names',
    ...CHANGED,
    description:
      'bidirectional overrides and isolates (U+202A to U+202E, U+2066 to U+2069) are taken out of names, which a list shows, against right-to-left override spoofing ("gnp.exe" after U+202E reads "exe.png"), ' +
      'as display names and file names are guarded; descriptions keep them',
    behaviour: storedAs((text, field) => (field === 'name' ? text.replace(/[\u202a-\u202e\u2066-\u2069]/g, '') : text)),
  },
  {
    name: 'html-entities-decoded',
    ...CHANGED,
    description: 'HTML entities in text are decoded on the way in ("&amp;" is stored as "&", "&#65;" as "A")',
    behaviour: storedAs(decodeEntities),
  },
  {
    name: 'names-nfc-normalised',
    ...CHANGED,
    description: 'names only are stored in Unicode normal form C (a lookup key), so "e" + U+0301 in a name comes back as "é"',
    behaviour: storedAs((text, field) => (field === 'name' ? text.normalize('NFC') : text)),
  },
  {
    name: 'description-tags-stripped',
    ...CHANGED,
    description: 'an HTML sanitiser is set on the description only (the field a page shows as rich text): "<i>tag</i>" is stored as "tag"',
    behaviour: storedAs((text, field) => (field === 'description' ? text.replace(/<[^>]*>/g, '') : text)),
  },
  {
    // caught by create-json-escapes' name (<b>Tom & Jerry</b>), and behind short columns by create-padded-name's (<b>, in both forms)
    name: 'name-tags-stripped',
    ...CHANGED,
    description:
      'the name is plain text, the field a list shows, and passes a sanitiser that keeps no tag (sanitize-html with allowedTags: [], strip_tags): "<b>Tom</b>" is stored as "Tom"; ' +
      'the description, rich text, keeps its markup',
    behaviour: storedAs((text, field) => (field === 'name' ? text.replace(/<[^>]*>/g, '') : text)),
  },
  {
    // caught by create-json-escapes' name, which holds 100%25 (its 50%+%s is no valid escape, and + is no space to unquote)
    name: 'names-url-decoded',
    ...CHANGED,
    description:
      "the name is URL-decoded on the way in, as for a web client that sends it encodeURIComponent'd, with Python's urllib.parse.unquote (PHP's rawurldecode alike): " +
      'a valid escape is decoded ("100%25" is stored as "100%"), an invalid one is left as it is and + is not read as a space, so "50%+%s" comes back whole',
    behaviour: storedAs((text, field) => (field === 'name' ? unquote(text) : text)),
  },
  {
    // caught by create-json-escapes' description, which holds C:\new\u00e9 as text (a backslash before n and before u)
    name: 'escapes-read-again-by-a-replace-chain',
    ...CHANGED,
    description:
      "a JSON reader written by hand checks each string against JSON's grammar, then unescapes it with a chain of replace calls, the escaped backslash first, " +
      'then \\", \\n, \\t and the others, the \\u escapes last (Java\'s s.replace(…) one after another): a backslash the text holds is read again with the letter after it, ' +
      'so "C:\\new\\u00e9" comes back with a line break and an é',
    behaviour: {
      parseBody: (text) => {
        JSON.parse(text)
        return JSON.parse(text.replace(/"((?:[^"\\]|\\.)*)"/g, (_, inner: string) => JSON.stringify(unescapedByChain(inner)))) as unknown
      },
    },
  },
  {
    name: 'unknown-escapes-accepted',
    breaks: 'create-rejects-invalid-json',
    code: 'UNEXPECTED_STATUS',
    description: 'the parser lets escapes JSON does not have through as the character after the backslash ("\\q" is read as "q", "\\x41" as "x41")',
    behaviour: lenientParser((text) => JSON.parse(text.replace(/\\([^"\\/bfnrtu])/g, '$1'))),
  },
  {
    name: 'c1-controls-stripped',
    ...CHANGED,
    description: 'C1 control characters (U+007F to U+009F) are stripped from text, as a sanitiser for printable text does',
    behaviour: storedAs((text) => text.replace(/[\u007f-\u009f]/g, '')),
  },
  {
    name: 'fullwidth-folded',
    ...CHANGED,
    description: 'fullwidth forms are folded into ASCII ("ＡＢＣ１" is stored as "ABC1"), as a store that applies NFKC does',
    behaviour: storedAs((text) => text.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))),
  },
  {
    name: 'smart-quotes-straightened',
    ...CHANGED,
    description: 'typographic quotes are straightened (‘ ’ to \', “ ” to ")',
    behaviour: storedAs((text) => text.replace(/[\u2018\u2019]/g, "'").replace(/[\u201c\u201d]/g, '"')),
  },
  {
    name: 'trailing-line-break-chomped',
    ...CHANGED,
    description: 'one line break at the end of a text is taken away (a chomp, as Perl and Ruby readers do)',
    behaviour: storedAs((text) => text.replace(/\r?\n$/, '')),
  },
  {
    name: 'escaped-surrogates-mangled',
    ...CHANGED,
    description: 'an emoji sent as an escaped surrogate pair ("\\uD83D\\uDC07") is read as U+FFFD',
    behaviour: { parseBody: (text) => JSON.parse(text.replace(/\\ud[89ab][0-9a-f]{2}\\ud[c-f][0-9a-f]{2}/gi, '\\ufffd')) as unknown },
  },
  {
    name: 'numeric-text-coerced',
    ...CHANGED,
    description: 'a description that reads as a number is stored as one ("-0042" comes back as -42), as a loosely typed store does',
    behaviour: {
      toRecord: (body, id) => {
        const record = conformingBehaviour.toRecord(body, id)
        return /^-?\d+$/.test(record.description ?? '') ? ({ ...record, description: Number(record.description) } as unknown as typeof record) : record
      },
    },
  },
  {
    name: 'name-column-numeric-affinity',
    ...CHANGED,
    description:
      'a name that reads as a number is stored as one, as SQLite does in a column declared `name STRING` (NUMERIC affinity): "-0042518273" comes back as -42518273',
    behaviour: {
      toRecord: (body, id) => {
        const record = conformingBehaviour.toRecord(body, id)
        return /^\s*[+-]?\d+(\.\d*)?\s*$/.test(record.name) ? ({ ...record, name: Number(record.name) } as unknown as typeof record) : record
      },
    },
  },
  {
    name: 'csv-injection-quote-prefixed',
    ...CHANGED,
    description: "a CSV-injection sanitiser prefixes a value that starts with =, +, - or @ with a quote (\"-0042\" is stored as \"'-0042\")",
    behaviour: storedAs((text) => (/^[=+\-@]/.test(text) ? `'${text}` : text)),
  },
]
