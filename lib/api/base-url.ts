/**
 * The address a run is handed as `baseUrl`, once the function or promise that gives it has. A
 * service's test file gives it in many ways that are not an address, and each is answered in its
 * own words: the application itself (Express's app, a Fastify instance: hoping for inject() or
 * supertest's way), the http.Server, what server.address() returns; a function that throws
 * (declared before the hook that starts the service), a promise that is rejected (the service
 * failed to start) or never settles (its start hung), which is waited for no longer than the
 * run's deadline, as a run ends by its deadline whatever the service does.
 */
import { unixSocketProblem } from '../config/url-hints.ts'
import { portableJson } from '../json/portable-json.ts'
import { ConformanceConfigError, ConformanceRunError } from './errors.ts'
import { FROM_INJECT, refuseEmptyBaseUrl, type ConformanceOptions } from './options.ts'

/** When the function is called, and so what it may read. */
const WHEN_CALLED = "a function given as baseUrl is called when the run starts, in defineConformance()'s beforeAll, after the beforeAll hooks declared before defineConformance() and before those declared after it: declare the hook that starts the service first (with sequence.hooks: 'parallel' in the vitest config, hooks run at once: hand a promise of the address, which the hook that starts the service resolves); a service started in a beforeEach is not up yet, as beforeEach runs later, before each test: start it in a beforeAll"

/** What the address of a service started in the test file looks like, for messages. */
const LIKE = "baseUrl: () => `http://127.0.0.1:${port}/v1`"

const isObject = (value: unknown): value is Record<string, unknown> => (typeof value === 'object' || typeof value === 'function') && value !== null
const isThenable = (value: unknown): value is PromiseLike<unknown> => isObject(value) && typeof value.then === 'function'
/** A URL, also one of another realm (happy-dom's, a vm context's), whose String() is its href. */
const isUrl = (value: unknown): boolean => value instanceof URL || (isObject(value) && typeof value.href === 'string' && typeof value.protocol === 'string' && String(value) === value.href)
const errorText = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error))

/**
 * Whether an error holds a secret anywhere vitest prints it from: its message and stack, its own
 * properties ("Serialized Error: { request: … }") and its causes; a getter is not run, and counts
 * as one (what it gives is not known), as does a graph of more than 500 objects.
 */
function holdsSecret(value: unknown, redact: (text: string) => string, seen = new Set<object>()): boolean {
  if (typeof value === 'string') return redact(value) !== value
  if (typeof value !== 'object' || value === null || seen.has(value)) return false
  // an interceptor's error can hold a socket and all it reaches: past so many objects, what it holds is not known
  if (seen.size >= 500) return true
  // the bytes of a request an interceptor kept (vitest prints a Buffer's bytes), read as a whole, not index by index
  if (ArrayBuffer.isView(value)) return holdsSecret(Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('latin1'), redact)
  seen.add(value)
  return Object.getOwnPropertyNames(value).some((name) => {
    const descriptor = Object.getOwnPropertyDescriptor(value, name)
    return redact(name) !== name || descriptor === undefined || !('value' in descriptor) || holdsSecret(descriptor.value, redact, seen)
  })
}

/**
 * The caller's error as the cause of the suite's, which vitest prints under it: itself when none of
 * its texts holds a secret, else a copy whose message, stack and cause are redacted and whose other
 * properties are gone (a start that failed with "no service for Bearer <key>" printed the key in the
 * cause the message had hidden it from; an interceptor's error holding the request printed its
 * Authorization header as a property, and one wrapping another, the key in its cause).
 */
export function causeOf(error: unknown, redact: (text: string) => string, depth = 0): unknown {
  if (!(error instanceof Error)) return redact(String(error))
  if (!holdsSecret(error, redact)) return error
  const cause = error.cause !== undefined && depth < 4 ? { cause: causeOf(error.cause, redact, depth + 1) } : undefined
  const copy = new Error(redact(error.message), cause)
  copy.name = redact(error.name)
  copy.stack = redact(error.stack ?? '')
  return copy
}

/** The loopback address to give for what server.address() returned, when it names a port. */
function addressFor(info: unknown): string | undefined {
  if (!isObject(info) || typeof info.port !== 'number') return undefined
  const v6 = info.family === 'IPv6' || info.family === 6
  const host = info.address === '::' || info.address === '0.0.0.0' || typeof info.address !== 'string' ? '127.0.0.1' : v6 ? `[${info.address}]` : info.address
  return `http://${host}:${info.port}/v1`
}

/**
 * Why `value` is no address, when it is a thing a test file has at hand instead of one: a server,
 * an application, what server.address() returns; undefined for anything else.
 */
function notAnAddress(value: unknown): string | undefined {
  if (!isObject(value)) return undefined
  // an http.Server, or an application that holds one (Fastify's instance.server)
  const server = typeof value.address === 'function' ? value : isObject(value.server) && typeof value.server.address === 'function' ? value.server : undefined
  const info: unknown = server ? (server.address as () => unknown).call(server) : undefined
  if (typeof value.listen === 'function' && server !== value) {
    const listening = addressFor(info)
    return "baseUrl gave the application itself (it has listen()), not its address: the suite sends its requests over HTTP to a listening service, not through inject() or supertest; start it on port 0 in a beforeAll declared before defineConformance() (Express: app.listen(0, '127.0.0.1'); Fastify: await app.listen({ port: 0 }), which resolves to its address) and give " + LIKE + (listening ? `; it listens now: ${listening}` : '')
  }
  if (server) {
    if (typeof info === 'string') return unixSocketProblem(info, 'baseUrl') ?? `baseUrl gave a server listening on ${portableJson(info)}, not a URL: the suite connects over TCP only; have it listen on a loopback port (port 0) and give ${LIKE}`
    const address = addressFor(info)
    if (address) return `baseUrl gave a server (it has address()), not its address: give the URL it listens on, ${address} here (${LIKE}, port from server.address().port)`
    return `baseUrl gave a server that is not listening: start it in a beforeAll declared before defineConformance() (server.listen(0, '127.0.0.1')) and give ${LIKE}`
  }
  const address = addressFor(value)
  if (address) return `baseUrl gave what server.address() returns ({ address, family, port }), not a URL: give ${address} (${LIKE})`
  return undefined
}

/**
 * A promise given as baseUrl is awaited only when the run starts; one rejected before that (the
 * service failed to start while the test file was collected) would be an unhandled rejection,
 * which vitest reports apart from the suite, with no word of it. Marked handled here: the run
 * reports it when it awaits it.
 */
export function markRejectionHandled(baseUrl: ConformanceOptions['baseUrl']): void {
  if (isThenable(baseUrl) && notAnAddress(baseUrl) === undefined) baseUrl.then(undefined, () => {})
}

/** The run's deadline (when it comes, how long it is), the signal that may end the run before, and what hides the key in a message quoting the caller's error. */
export interface Deadline {
  at: number
  ms: number
  signal?: AbortSignal | undefined
  redact: (text: string) => string
}

/** `pending` settled, before the deadline and before its signal aborts; `what` is how messages call it. */
async function settled(pending: unknown, deadline: Deadline, what: string): Promise<unknown> {
  const { signal } = deadline
  if (!isThenable(pending)) return pending
  const interrupted = () => new ConformanceRunError(`interrupted by ${String(signal?.reason)} before the run started`)
  if (signal?.aborted) throw interrupted()
  let timer: ReturnType<typeof setTimeout> | undefined
  let onAbort = () => {}
  const gaveUp = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConformanceRunError(`${what} gave no address within the run's deadline (${deadline.ms} ms): it never settled, so the service did not start, or its start was never awaited (deadline gives it longer)`)), Math.max(0, deadline.at - Date.now()))
    onAbort = () => reject(interrupted())
    signal?.addEventListener('abort', onAbort, { once: true })
  })
  const given = Promise.resolve(pending).then(undefined, (error: unknown) => {
    throw new ConformanceRunError(`${what} was rejected, ${deadline.redact(errorText(error))}: the service did not start`, { cause: causeOf(error, deadline.redact) })
  })
  try {
    return await Promise.race([given, gaveUp])
  } finally {
    clearTimeout(timer)
    signal?.removeEventListener('abort', onAbort)
  }
}

/**
 * The base URL, once the function or promise that gives it has, waited for until the run's
 * deadline; undefined: none given (the embedded reference server).
 */
export async function resolveBaseUrl(options: ConformanceOptions, deadline: Deadline): Promise<string | undefined> {
  refuseEmptyBaseUrl(options)
  const baseUrl: unknown = options.baseUrl
  if (baseUrl === undefined || typeof baseUrl === 'string' || isUrl(baseUrl)) return baseUrl === undefined ? undefined : String(baseUrl)
  const whole = notAnAddress(baseUrl)
  if (whole) throw new ConformanceConfigError(whole)
  let pending: unknown = baseUrl
  if (typeof baseUrl === 'function') {
    try {
      pending = (baseUrl as () => unknown)()
    } catch (error) {
      throw new ConformanceRunError(`baseUrl's function threw ${deadline.redact(errorText(error))}: ${WHEN_CALLED}`, { cause: causeOf(error, deadline.redact) })
    }
    // a Fastify instance is a thenable: awaited, it would start the application for nothing
    const returned = notAnAddress(pending)
    if (returned) throw new ConformanceConfigError(returned)
  }
  const given = await settled(pending, deadline, typeof baseUrl === 'function' ? "the promise baseUrl's function returned" : 'the promise given as baseUrl')
  if (given === undefined || given === null || given === '') {
    throw new ConformanceConfigError(`baseUrl gave no address: ${WHEN_CALLED}; or hand a promise of the address; ${FROM_INJECT}`)
  }
  if (typeof given === 'string' || isUrl(given)) return String(given)
  throw new ConformanceConfigError(notAnAddress(given) ?? `baseUrl gave ${Array.isArray(given) ? 'an array' : `a ${typeof given}`}, not an address: give a string or URL ending in /v1 (${LIKE})`)
}
