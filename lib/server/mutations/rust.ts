/**
 * Mutations written as a Rust service gets them wrong (measured on Debian 12's hyper 0.14.19,
 * serde 1.0.152 and serde_json 1.0.87): the body read with serde_json::from_slice into a struct
 * that derives Deserialize, as axum's Json<T> and actix-web's web::Json<T> read it too.
 */
import type { StoredCategory } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

/**
 * What serde's derived Deserialize makes of a JSON array where the struct is asked for (its
 * visit_seq, serde-rs/serde issue 1587): the elements are the fields' values in their declared
 * order, name then description; a description left out at the end takes its default (None, as a
 * field declared #[serde(default)] does), and an element more is refused (serde_json: "trailing
 * characters"). The values are then checked as an object's are.
 */
function readAsFieldsInOrder(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0 || value.length > 2) return value
  const [name, description] = value as unknown[]
  return { name, ...(value.length === 2 ? { description } : {}) }
}

/** Where `&name[..PANIC_AT]` cuts: a byte the suite's names once never had inside a character. */
const PANIC_AT = 50

/** Whether byte `at` of a text's UTF-8 falls inside a character (a continuation byte): `&text[..at]` panics there. */
const cutsInsideCharacter = (text: unknown, at: number): boolean => {
  if (typeof text !== 'string') return false
  const bytes = Buffer.from(text, 'utf8')
  return at < bytes.length && (bytes[at] & 0xc0) === 0x80
}

/** A reply no one writes: the handler panicked, and hyper closes the connection without an answer. */
const PANICKED: Readonly<Record<string, string>> = { 'x-reference-panicked': '1' }

export const RUST_MUTATIONS: readonly Mutation[] = [
  {
    name: 'name-cut-by-bytes-panics',
    breaks: 'create-returns-201',
    code: 'NO_RESPONSE',
    description:
      `a name longer than ${PANIC_AT} bytes is cut for a log line as \`&name[..${PANIC_AT}]\`, which panics when byte ${PANIC_AT} falls inside a character: ` +
      'hyper closes the connection without an answer and nothing is stored (a name of ASCII, or one whose characters end there, is created)',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        if (!cutsInsideCharacter((request.body as { name?: unknown }).name, PANIC_AT)) return reply
        store.splice(store.indexOf(reply.body as StoredCategory), 1)
        return { status: 500, headers: PANICKED, body: '' }
      },
      transport: { delayMs: 0, chunked: false, connectionClose: false, dropAnswer: (reply) => reply.headers === PANICKED },
    },
  },
  {
    name: 'array-body-read-as-fields-in-order',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description:
      "a body that is an array is read as the fields' values in their declared order, as serde's derived Deserialize reads a struct from a sequence: " +
      '["x", "y"] creates a category named "x" described "y" (serde_json::from_slice::<NewCategory>); an array of objects is refused, as serde refuses a map for the name',
    behaviour: { parseBody: (text) => readAsFieldsInOrder(JSON.parse(text)) },
  },
]
