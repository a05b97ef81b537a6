/**
 * A Rust service configured to conform, as measured (hyper 0.14.19, serde 1.0.152 and serde_json
 * 1.0.87 from Debian 12, the records in a HashMap behind a Mutex): the freedoms such a stack uses
 * kept. The suite must pass it.
 */
import { randomBytes } from 'node:crypto'
import { conformingBehaviour } from '../reference-server.ts'
import { errorReply, isPlainObject, type Variant } from '../server-cases.ts'

/** An id of an AtomicI64 started past 2^53 (a table migrated from a service with more records). */
const FIRST_ID = 2n ** 53n + 1n

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** serde_json refuses a \u escape of a lone surrogate ("lone leading surrogate in hex escape"): a Rust String cannot hold one. */
function holdsLoneSurrogate(value: unknown): boolean {
  if (typeof value === 'string') return LONE_SURROGATE.test(value)
  if (Array.isArray(value)) return value.some(holdsLoneSurrogate)
  return isPlainObject(value) && Object.entries(value).some(([key, inner]) => LONE_SURROGATE.test(key) || holdsLoneSurrogate(inner))
}

/** The order a HashMap<i64, Category> gives its values: its hasher's keys are random per process. */
function hashMapOrder<T extends { id: bigint }>(records: readonly T[], salt: bigint): T[] {
  const bucket = (id: bigint) => BigInt.asUintN(64, (id ^ salt) * 0x9e3779b97f4a7c15n)
  return [...records].sort((a, b) => (bucket(a.id) < bucket(b.id) ? -1 : bucket(a.id) > bucket(b.id) ? 1 : 0))
}

const salt = BigInt(`0x${randomBytes(8).toString('hex')}`)

export const RUST_VARIANTS: readonly Variant[] = [
  {
    name: 'hyper-serde-configured',
    description:
      'a hyper 0.14 service reading its body with serde_json, configured to conform: #[serde(deny_unknown_fields)] (an unknown field, an id among them, refused with 400), ' +
      'a lone surrogate escape refused with 400 as serde_json refuses it, a name of at most 64 bytes and a description of at most 255 (String::len()), ' +
      'ids from an AtomicI64 started past 2^53, the list in a HashMap\'s order, and 501 with an Error record for the pets and store operations it does not implement',
    behaviour: {
      parseBody(text) {
        const body: unknown = JSON.parse(text)
        if (holdsLoneSurrogate(body)) throw new Error('lone leading surrogate in hex escape')
        return body
      },
      validate(body) {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        const unknown = Object.keys(body as object).find((key) => key !== 'name' && key !== 'description')
        if (unknown !== undefined) return `unknown field \`${unknown}\`, expected \`name\` or \`description\``
        // the validator's length checks, written with String::len(), which counts bytes
        const { name, description = '' } = body as { name: string; description?: string }
        return Buffer.byteLength(name) > 64 || Buffer.byteLength(description) > 255 ? 'name must be at most 64 bytes and description at most 255' : null
      },
      nextId: (store) => (store.length === 0 ? FIRST_ID : store[store.length - 1].id + 1n),
      listBody: (store) => hashMapOrder(store, salt),
      finish(reply, request) {
        const unimplemented = request.operation === 'getPet' || request.operation === 'listStoreOrders'
        if (unimplemented && reply.status !== 401) return errorReply(501, 'not_implemented', 'not implemented here')
        return reply.status === 401 ? { ...reply, headers: { ...reply.headers, 'www-authenticate': 'Bearer' } } : reply
      },
    },
  },
]
