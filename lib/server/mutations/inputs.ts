/**
 * Mutations that only the breadth of the suite's inputs catches: each goes wrong for one class of
 * input the way real services do (a lenient parser, a truncating column, a writer that
 * concatenates, a normalising store) and passes every plain body. Which input class catches which
 * is said beside each one; suites/cases/ holds the inputs.
 */
import { conformingBehaviour, type Behaviour } from '../reference-server.ts'
import { errorReply, isInvalidBody, isPlainObject, NEVER_LISTED, type Mutation } from '../server-cases.ts'
import { columnLimits } from '../variants/inputs.ts'

/** A parser that falls back to `lenient` when JSON.parse refuses the text. */
export const lenientParser = (lenient: (text: string) => unknown): Pick<Behaviour, 'parseBody'> => ({
  parseBody(text) {
    try {
      return JSON.parse(text) as unknown
    } catch (error) {
      if (text.trim() === '') throw error
      return lenient(text)
    }
  },
})

/**
 * JSON5-style text made strict: comments dropped, trailing commas dropped, single-quoted strings
 * and bare keys quoted, NaN and Infinity read as null, a leading + or leading zeros dropped.
 */
function json5AsJson(text: string): string {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '"' || c === "'") {
      let j = i + 1
      let inner = ''
      while (j < text.length && text[j] !== c) {
        if (text[j] === '\\') inner += text.slice(j, (j += 2))
        else inner += text[j++] === '"' ? '\\"' : text[j - 1]
      }
      out += `"${inner}"`
      i = j + 1
    } else if (text.startsWith('//', i)) {
      const end = text.indexOf('\n', i)
      i = end < 0 ? text.length : end
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i)
      i = end < 0 ? text.length : end + 2
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1))) {
      i++
    } else if (/[A-Za-z_$]/.test(c)) {
      const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))![0]
      i += word.length
      if (/^\s*:/.test(text.slice(i))) out += JSON.stringify(word)
      else out += word === 'NaN' || word === 'Infinity' ? 'null' : word
    } else if (c === '+' && /\d/.test(text[i + 1] ?? '')) {
      i++
    } else if (/\d/.test(c) && !/[\d.eE+-]/.test(text[i - 1] ?? '')) {
      const digits = /^\d+/.exec(text.slice(i))![0]
      out += digits.replace(/^0+(?=\d)/, '')
      i += digits.length
    } else {
      out += c === '-' && text.startsWith('-Infinity', i) ? '' : c
      i++
    }
  }
  return out
}

/** Where the first JSON value of a text ends (strings, braces and brackets balanced). */
function endOfFirstValue(text: string): number {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      if (c === '\\') i++
      else if (c === '"') inString = false
    } else if (c === '"') inString = true
    else if (c === '{' || c === '[') depth++
    else if ((c === '}' || c === ']') && --depth === 0) return i + 1
  }
  return text.length
}

/** A field of a stored record changed by `change` (a column, a sanitiser, a normaliser). */
export const storedAs = (change: (text: string, field: 'name' | 'description') => string): Pick<Behaviour, 'toRecord'> => ({
  toRecord: (body, id) =>
    conformingBehaviour.toRecord(
      { name: change(body.name, 'name'), ...(body.description !== undefined ? { description: change(body.description, 'description') } : {}) },
      id,
    ),
})

/** A record written by string concatenation, as a template would: nothing escaped. */
const concatenated = (r: { id: bigint; name: string; description?: string }) =>
  `{"id":${r.id},"name":"${r.name}"${r.description !== undefined ? `,"description":"${r.description}"` : ''}}`

export const INVALID_JSON = { breaks: 'create-rejects-invalid-json', code: 'UNEXPECTED_STATUS' } as const
export const CHANGED = { breaks: 'create-echoes-fields', code: 'FIELD_CHANGED' } as const

/** A column of `limit` characters for names (and 32 for descriptions), plus a refusal of `refuses` as an invalid value: a short column must not hide it (§8). */
const limitedAndRefusing = (limit: number, refuses: RegExp, why: string): Pick<Mutation, 'behaviour'>['behaviour'] => ({
  validate(body) {
    const problem = columnLimits(limit, Math.max(32, limit * 2)).validate!(body)
    if (problem !== null) return problem
    return Object.values(body as Record<string, unknown>).some((v) => typeof v === 'string' && refuses.test(v)) ? why : null
  },
})

export const INPUT_MUTATIONS: readonly Mutation[] = [
  {
    name: 'name-limit-32-refuses-non-ascii',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description: 'a VARCHAR(32) name whose column is Latin-1: every non-ASCII name is refused with 400, hidden behind the length limit unless the class comes again short',
    behaviour: limitedAndRefusing(32, /[^\x00-\x7f]/, 'Incorrect string value'),
  },
  {
    name: 'name-limit-16-refuses-quotes',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description: 'a VARCHAR(16) name behind a WAF rule that refuses quotes and angle brackets as "SQL injection" with 400',
    behaviour: limitedAndRefusing(16, /['"<>]/, 'request blocked: suspicious characters'),
  },
  {
    name: 'refuses-quotes-without-limit',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description: 'a WAF rule refuses quotes and angle brackets in any field with 400, though the values are valid strings',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ?? (Object.values(body as Record<string, unknown>).some((v) => typeof v === 'string' && /['"<>]/.test(v)) ? 'request blocked' : null),
    },
  },
  {
    name: 'names-cut-at-32',
    ...CHANGED,
    description: 'a VARCHAR(32) name in a MySQL without strict mode: longer names are cut to 32 characters and the create answers 201 with what was stored',
    behaviour: storedAs((text, field) => (field === 'name' ? [...text].slice(0, 32).join('') : text)),
  },
  // the malformed-JSON corpus (suites/cases/malformed-json.ts)
  {
    name: 'json5-parser',
    ...INVALID_JSON,
    description: 'the body is parsed as JSON5 when it is not JSON: comments, trailing commas, single quotes, bare keys, NaN, +1 and 007 are accepted',
    behaviour: lenientParser((text) => JSON.parse(json5AsJson(text))),
  },
  {
    name: 'first-value-read',
    ...INVALID_JSON,
    description: "a streaming decoder reads the first JSON value and ignores what follows (Go's json.Decoder.Decode, Jackson's default)",
    behaviour: lenientParser((text) => JSON.parse(text.slice(0, endOfFirstValue(text)))),
  },
  {
    name: 'python-nan-accepted',
    ...INVALID_JSON,
    description: "NaN, Infinity and -Infinity are read as numbers (Python's json.loads default)",
    behaviour: lenientParser((text) => JSON.parse(text.replace(/-?\b(NaN|Infinity)\b/g, 'null'))),
  },
  {
    name: 'raw-control-characters-accepted',
    ...INVALID_JSON,
    description: "unescaped control characters inside strings are accepted (Python's json.loads(strict=False))",
    // eslint-disable-next-line no-control-regex
    behaviour: lenientParser((text) => JSON.parse(text.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`))),
  },
  {
    name: 'invalid-utf8-replaced',
    ...INVALID_JSON,
    description: 'bytes that are not UTF-8 are decoded to U+FFFD and the body accepted (body-parser and iconv-lite do this)',
    behaviour: { decodeBody: (bytes) => bytes.toString('utf8') },
  },
  {
    name: 'byte-order-mark-crashes-parser',
    breaks: 'create-rejects-invalid-json',
    code: 'SERVER_ERROR',
    description: 'a body that starts with a UTF-8 byte order mark makes the parser throw past the error handler: 500',
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'createCategory' && (request.rawBody ?? '').startsWith('\ufeff') ? errorReply(500, 'internal', 'Unexpected token \ufeff') : reply,
    },
  },

  // valid strings of each class (suites/cases/valid-creates.ts)
  {
    name: 'text-cut-at-255',
    ...CHANGED,
    description: 'names and descriptions go into VARCHAR(255) columns that cut longer text silently (MySQL without strict mode)',
    behaviour: storedAs((text) => text.slice(0, 255)),
  },
  {
    name: 'description-cut-at-1000',
    ...CHANGED,
    description: 'descriptions go into an NVARCHAR(1000) column that cuts longer text; names are whole',
    behaviour: storedAs((text, field) => (field === 'description' ? text.slice(0, 1000) : text)),
  },
  {
    name: 'description-cut-at-4000',
    ...CHANGED,
    description: 'descriptions go into a VARCHAR2(4000) column that cuts longer text (Oracle); names are whole',
    behaviour: storedAs((text, field) => (field === 'description' ? text.slice(0, 4000) : text)),
  },
  {
    name: 'strings-cut-at-nul',
    ...CHANGED,
    description: 'strings are stored through a C-string API that ends them at U+0000, and the create answers 201 with what was stored',
    behaviour: storedAs((text) => text.split('\u0000')[0]),
  },
  {
    name: 'refuses-control-characters-with-400',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description: 'a string holding a control character (U+0001 to U+001F) is refused with 400 as "unsafe", although JSON carries it escaped and it is a valid value',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ??
        (isPlainObject(body) && Object.values(body).some((v) => typeof v === 'string' && /[\u0001-\u001f]/.test(v)) ? 'control characters are not allowed' : null),
    },
  },
  {
    name: 'records-written-by-concatenation',
    breaks: 'create-returns-category',
    code: 'NOT_JSON',
    description: 'records are written by string concatenation, so a quote, a backslash or a control character in a field breaks the JSON',
    behaviour: {
      createdBody: concatenated,
      listBody: (store) => `[${store.map(concatenated).join(',')}]`,
    },
  },
  {
    name: 'control-characters-become-spaces',
    ...CHANGED,
    description: 'tabs, newlines and carriage returns in fields are stored as spaces (a sanitiser for log-safe text)',
    behaviour: storedAs((text) => text.replace(/[\t\n\r]/g, ' ')),
  },
  {
    name: 'nfc-normalising-store',
    ...CHANGED,
    description: 'text is stored in Unicode normal form C, so "e" + U+0301 comes back as "é"',
    behaviour: storedAs((text) => text.normalize('NFC')),
  },
  {
    name: 'zero-width-characters-stripped',
    ...CHANGED,
    description: 'zero-width characters (U+200B, ZWNJ, ZWJ, word joiner, U+FEFF) are stripped, which also breaks emoji ZWJ sequences',
    behaviour: storedAs((text) => text.replace(/[\u200b-\u200d\u2060\ufeff]/g, '')),
  },
  {
    name: 'unicode-spaces-become-ascii',
    ...CHANGED,
    description: 'non-breaking and other Unicode spaces are stored as ASCII spaces',
    behaviour: storedAs((text) => text.replace(/[\u00a0\u2000-\u200a\u202f\u3000]/g, ' ')),
  },
  {
    name: 'astral-characters-refused',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description: 'text with a character beyond U+FFFF (an emoji) is refused with 400, as by MySQL utf8mb3 ("Incorrect string value")',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(body) ??
        (Object.values(body as Record<string, unknown>).some((v) => typeof v === 'string' && /[\u{10000}-\u{10ffff}]/u.test(v)) ? 'Incorrect string value' : null),
    },
  },

  {
    name: 'html-escaped-on-input',
    ...CHANGED,
    description: 'every string passes an XSS-cleaning middleware on the way in (xss-clean), which stores "<" as "&lt;": text without HTML comes back whole',
    behaviour: storedAs((text) => text.replaceAll('<', '&lt;')),
  },
  {
    name: 'html-tags-stripped',
    ...CHANGED,
    description: 'names and descriptions pass an HTML sanitiser that strips tags (strip_tags, sanitize-html): "<b>Tom</b>" is stored as "Tom"',
    behaviour: storedAs((text) => text.replace(/<[^>]*>/g, '')),
  },
  {
    name: 'single-quotes-doubled',
    ...CHANGED,
    description: "SQL is built by hand with single quotes doubled twice over (escaped, then escaped again by the driver), so O'Brien is stored as O''Brien",
    behaviour: storedAs((text) => text.replaceAll("'", "''")),
  },

  // values of the wrong type, generated from the schema (suites/cases/wrong-types.ts)
  {
    name: 'description-scalars-coerced',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description: 'a description that is a number or a boolean is accepted and stored as text (PHP-style coercion)',
    behaviour: {
      validate: (body) =>
        conformingBehaviour.validate(
          isPlainObject(body) && ['number', 'boolean'].includes(typeof body.description) ? { ...body, description: String(body.description) } : body,
        ),
      toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, ...(body.description !== undefined ? { description: String(body.description) } : {}) }, id),
    },
  },

  // whole-run invariants (suites/categories/)
  {
    name: 'list-capped-at-ten-newest-first',
    breaks: 'created-in-list',
    code: 'VANISHED_FROM_LIST',
    slow: NEVER_LISTED,
    description: 'the list stops at the 10 newest categories without saying so (no paging is declared), so older ones vanish from it',
    behaviour: { listBody: (store) => [...store].reverse().slice(0, 10) },
    seed: () => Array.from({ length: 10 }, (_, i) => ({ id: BigInt(i + 1), name: `seeded-${i + 1}` })),
  },
  {
    name: 'name-stored-before-description',
    breaks: 'create-returns-201',
    code: 'REFUSED_CREATE_STORED',
    description:
      'the name is inserted, then the description set by a second statement, with no transaction (an ORM that saves, then updates): a name past VARCHAR(32) is refused with 400 and nothing stored, a description past VARCHAR(255) with 400 after the name was stored, which stays',
    behaviour: {
      finish: (reply, request, store) => {
        const record = store[store.length - 1]
        if (request.operation !== 'createCategory' || reply.status !== 201 || !record) return reply
        if ([...record.name].length > 32) return store.pop(), errorReply(400, 'too_long', 'value too long for type character varying(32)')
        if ([...(record.description ?? '')].length <= 255) return reply
        delete record.description
        return errorReply(400, 'too_long', 'value too long for type character varying(255)')
      },
    },
  },
  {
    name: 'refused-creates-stored',
    breaks: 'create-rejects-invalid-values',
    code: 'REFUSED_CREATE_STORED',
    description: 'the record is inserted before the body is validated and not rolled back: the answer is 400, the category stays',
    behaviour: {
      finish: (reply, request, store) => {
        if (!isInvalidBody(reply, request) || !isPlainObject(request.body)) return reply
        const { name, description } = request.body
        const text = (value: unknown) => (typeof value === 'string' ? value : String(JSON.stringify(value)))
        store.push({ id: conformingBehaviour.nextId(store), name: text(name), ...(description !== undefined ? { description: text(description) } : {}) })
        return reply
      },
    },
  },
]
