/**
 * Mutations for the values a store accepts and then cannot give back (suites/cases/poison-values.ts),
 * each written the way a real stack goes wrong with it: it stores the value and then fails to
 * encode every list that holds it (500 from then on), or it changes the value on the way in. The
 * source of each is in docs/inputs.md.
 */
import { conformingBehaviour, type StoredCategory } from '../reference-server.ts'
import { errorReply, isPlainObject, seedCategories, type Mutation } from '../server-cases.ts'
import { CHANGED, storedAs } from './inputs.ts'

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const NONCHARACTER_FFFE_FFFF = /[\ufffe\uffff]/g
// eslint-disable-next-line no-control-regex
const NUL = /\u0000/

const stringsOf = (record: StoredCategory) => [record.name, record.description ?? '']
const anyStored = (store: StoredCategory[], test: (text: string) => boolean) => store.some((r) => stringsOf(r).some(test))

/** How deep a JSON value nests (a string or a number: 0). */
export function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0
  let deepest = 0
  for (const inner of Object.values(value)) deepest = Math.max(deepest, depthOf(inner))
  return deepest + 1
}

/** orjson's limit: dumps raises "Recursion limit reached" past 255 levels. */
const ORJSON_DEPTH = 255

/** Bytes as WTF-8: a surrogate written in UTF-8 form (ED A0 80 to ED BF BF) is read as that code unit, everything else as strict UTF-8. */
function decodeAllowingSurrogateBytes(bytes: Buffer): string {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
  let text = ''
  let start = 0
  for (let i = 0; i + 2 < bytes.length; i++) {
    if (bytes[i] === 0xed && bytes[i + 1] >= 0xa0 && bytes[i + 1] <= 0xbf && (bytes[i + 2] & 0xc0) === 0x80) {
      text += strict.decode(bytes.subarray(start, i)) + String.fromCharCode(0xd000 | ((bytes[i + 1] & 0x3f) << 6) | (bytes[i + 2] & 0x3f))
      start = i + 3
      i += 2
    }
  }
  return text + strict.decode(bytes.subarray(start))
}

/** A PHP substr($text, 0, 255): the first 255 bytes, which may end inside a character. */
const cutsInsideCharacter = (text: string, bytes = 255) => {
  const encoded = Buffer.from(text)
  return encoded.length > bytes && (encoded[bytes] & 0xc0) === 0x80
}

/** PHP's json_decode refuses an escaped lone surrogate (JSON_ERROR_UTF16), which a PHP service answers with 400. */
const phpDecoding: Pick<Mutation['behaviour'], 'validate'> = {
  validate: (body) =>
    conformingBehaviour.validate(body) ??
    (isPlainObject(body) && Object.values(body).some((v) => typeof v === 'string' && LONE_SURROGATE.test(v)) ? 'Single unpaired UTF-16 surrogate in unicode escape' : null),
}

export const POISON_MUTATIONS: readonly Mutation[] = [
  {
    name: 'lone-surrogate-poisons-list',
    breaks: 'list-returns-200',
    code: 'SERVER_ERROR',
    description:
      "a lone surrogate (\\ud800) is parsed and stored, then every answer holding it fails to encode: 500, the create's and every later list's " +
      "(Django REST framework: json.dumps(ensure_ascii=False), then .encode('utf-8'): \"surrogates not allowed\")",
    // a service in use: the list held categories before the run, so records as such do not break it
    seed: () => seedCategories(3),
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201 && anyStored(store.slice(-1), (t) => LONE_SURROGATE.test(t))) {
          return errorReply(500, 'internal', "'utf-8' codec can't encode character '\\ud800': surrogates not allowed")
        }
        if (request.operation === 'listCategories' && reply.status === 200 && anyStored(store, (t) => LONE_SURROGATE.test(t))) {
          return errorReply(500, 'internal', "'utf-8' codec can't encode character '\\ud800': surrogates not allowed")
        }
        return reply
      },
    },
  },
  {
    name: 'lone-surrogate-replaced',
    ...CHANGED,
    description: "a lone surrogate is decoded to U+FFFD and the create answers 201 with it (Go's encoding/json: an invalid UTF-16 escape becomes the replacement character)",
    behaviour: storedAs((text) => text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\ufffd')),
  },
  {
    name: 'high-surrogate-pairs-any-escape',
    ...CHANGED,
    description:
      "lone surrogates are refused with 400 (as they may be), but an escaped high surrogate is first paired with whatever escape follows it (Ruby's json 2.6 on Debian 12): " +
      '"\\ud800\\u0041" is read as U+10041, one character, and the create answers 201 with it',
    behaviour: {
      parseBody: (text) => {
        const paired = text.replace(/\\u(d[89ab][0-9a-f]{2})\\u([0-9a-f]{4})/gi, (pair, high: string, next: string) =>
          /^d[c-f]/i.test(next) ? pair : `\\u${high}\\u${(0xdc00 | (parseInt(next, 16) & 0x3ff)).toString(16)}`,
        )
        const value = JSON.parse(paired) as unknown
        // well-formed JSON.stringify writes what is left of a lone surrogate as its escape
        if (/\\ud[89a-f][0-9a-f]{2}/i.test(JSON.stringify(value))) throw new Error('incomplete surrogate pair')
        return value
      },
    },
  },
  {
    name: 'nul-poisons-list',
    breaks: 'list-returns-200',
    code: 'SERVER_ERROR',
    description:
      'the body is kept in a PostgreSQL json column and the list reads its fields as text (body->>\'name\'): U+0000 is stored, and every list then fails ' +
      '("unsupported Unicode escape sequence: \\u0000 cannot be converted to text"): 500',
    // a service in use: the list held categories before the run, so records as such do not break it
    seed: () => seedCategories(3),
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 200 && anyStored(store, (t) => NUL.test(t))
          ? errorReply(500, 'internal', 'unsupported Unicode escape sequence')
          : reply,
    },
  },
  {
    name: 'nul-refused-with-500',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      'VARCHAR(255) columns (longer values refused with 400, as a service may) in PostgreSQL, whose text refuses U+0000: ' +
      'the insert fails (invalid byte sequence for encoding "UTF8": 0x00) and the handler answers 500, where it may refuse with 400',
    behaviour: {
      validate: (body) => {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        return Object.values(body as Record<string, unknown>).some((v) => typeof v === 'string' && [...v].length > 255) ? 'value too long for type character varying(255)' : null
      },
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201 || !anyStored(store.slice(-1), (t) => NUL.test(t))) return reply
        store.pop()
        return errorReply(500, 'internal', 'invalid byte sequence for encoding "UTF8": 0x00')
      },
    },
  },
  {
    name: 'byte-cut-poisons-list',
    breaks: 'list-returns-200',
    code: 'SERVER_ERROR',
    description:
      'a PHP service: descriptions are cut to 255 bytes before they are stored (substr), which can end inside a character; the create answers 201 with what was sent, ' +
      'and every list then fails to encode (json_encode: "Malformed UTF-8 characters, possibly incorrectly encoded"): 500',
    // a service in use: the list held categories before the run, so records as such do not break it
    seed: () => seedCategories(3),
    behaviour: {
      ...phpDecoding,
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 200 && store.some((r) => cutsInsideCharacter(r.description ?? ''))
          ? errorReply(500, 'internal', 'Malformed UTF-8 characters, possibly incorrectly encoded')
          : reply,
    },
  },
  {
    name: 'byte-cut-empties-list',
    breaks: 'list-returns-category-array',
    code: 'NOT_JSON',
    description:
      "a PHP service: descriptions are cut to 255 bytes before they are stored (substr), and the list is written with echo json_encode($rows), which prints nothing " +
      'when the text is not UTF-8 (json_encode returns false): every list is then a 200 with an empty body',
    // a service in use: the list held categories before the run, so records as such do not break it
    seed: () => seedCategories(3),
    behaviour: {
      ...phpDecoding,
      finish: (reply, request, store) =>
        request.operation === 'listCategories' && reply.status === 200 && store.some((r) => cutsInsideCharacter(r.description ?? '')) ? { ...reply, body: '' } : reply,
    },
  },
  {
    name: 'noncharacters-replaced',
    ...CHANGED,
    description: 'U+FFFE and U+FFFF are replaced with U+FFFD on the way in, as a cleaner for XML-safe text does (XML 1.0 has no place for them)',
    behaviour: storedAs((text) => text.replace(NONCHARACTER_FFFE_FFFF, '\ufffd')),
  },
  {
    name: 'deep-value-poisons-list',
    breaks: 'list-returns-200',
    code: 'SERVER_ERROR',
    description:
      'fields NewCategory does not name are kept with the record and answered back (FastAPI with extra="allow"), and answers are encoded with orjson, ' +
      'which refuses values nested past 255 levels ("Recursion limit reached"): a deep one is stored, then its create and every list answer 500',
    // a service in use: the list held categories before the run, so records as such do not break it
    seed: () => seedCategories(3),
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation === 'createCategory' && reply.status === 201 && isPlainObject(request.body)) {
          const { id: _id, name: _name, description: _description, ...extra } = request.body
          if (Object.keys(extra).length === 0) return reply
          store[store.length - 1] = { ...store[store.length - 1], ...extra }
          return depthOf(extra) > ORJSON_DEPTH ? errorReply(500, 'internal', 'Recursion limit reached') : { ...reply, body: store[store.length - 1] }
        }
        if (request.operation === 'listCategories' && reply.status === 200 && store.some((r) => depthOf(r) > ORJSON_DEPTH)) {
          return errorReply(500, 'internal', 'Recursion limit reached')
        }
        return reply
      },
    },
  },
  {
    name: 'surrogate-bytes-accepted',
    breaks: 'create-rejects-invalid-json',
    code: 'UNEXPECTED_STATUS',
    description: 'a surrogate written as UTF-8 bytes (ED A0 80, CESU-8 or WTF-8) is decoded as that code unit instead of refused: UTF-8 has no surrogates (RFC 3629 §3)',
    behaviour: { decodeBody: decodeAllowingSurrogateBytes },
  },
  {
    name: 'line-separators-split',
    ...CHANGED,
    description:
      "line breaks are normalised with Python's \"\\n\".join(text.splitlines()), which also breaks at U+2028, U+2029, U+0085 and U+001C to U+001E, " +
      'turns CR LF into LF and drops a line break at the end',
    behaviour: storedAs((text) => text.split(/\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/).join('\n').replace(/\n$/, '')),
  },
  {
    name: 'utf8mb3-cuts-at-astral',
    ...CHANGED,
    description: 'a MySQL utf8mb3 column without strict mode: text is stored up to its first character beyond U+FFFF (an emoji), with only a warning, and the create answers 201 with what was stored',
    behaviour: storedAs((text) => text.split(/[\u{10000}-\u{10ffff}]/u)[0]),
  },
]
