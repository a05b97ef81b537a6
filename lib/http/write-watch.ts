import type { Dispatcher } from 'undici'

/** What a request carries (as undici's `opaque`) to hear when it is written to a connection. */
export interface WriteWatch {
  onWritten: () => void
  /** A final answer's head came before the request was written whole (its body still going: in pieces, in chunks); heard only where undici tells when a request was sent whole (its handler's onRequestSent). */
  onAnsweredEarly?: () => void
}

/** undici's handler of a request() call, as its dispatcher hands it to a connection (the handler API of undici 6, which undici 7's request() still uses). */
interface RequestHandler {
  onConnect(abort: (error?: Error) => void, context?: unknown): void
  onError(error: Error): void
  onUpgrade?(statusCode: number, headers: unknown, socket: unknown): void
  onResponseStarted?(): void
  onHeaders?(statusCode: number, headers: unknown, resume: () => void, statusText: string): boolean
  onData?(chunk: Buffer): boolean
  onComplete?(trailers: unknown): void
  onBodySent?(chunk: unknown): void
  onRequestSent?(): void
}

/**
 * `dispatcher`, telling each request when undici hands it to a connection to write its head (the
 * handler's onConnect, called by undici's HTTP/1 writer just before the head goes out): that
 * moment, not the call, is when a request was sent, and it comes late for a request that waited
 * for one of the bounded connections. The journal records it, and --timeout starts there.
 *
 * Not an interceptor of `compose()`: undici converts each request's handler to its newer API
 * for an interceptor and back for the connection, parsing every answer's headers twice
 * (WrapHandler, UnwrapHandler); a fleet of ten deployments spent ~5 % of its CPU time there. This
 * wraps request()'s own handler in the API it already speaks.
 */
export function watchingWrites<D extends Dispatcher>(dispatcher: D): D {
  const dispatch = dispatcher.dispatch.bind(dispatcher)
  const watched = (opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean => {
    const watch = (opts as { opaque?: Partial<WriteWatch> }).opaque
    if (typeof watch?.onWritten !== 'function') return dispatch(opts, handler)
    const once = onlyOnce(watch.onWritten)
    // an undici whose request() speaks the newer API: watched in that one, never not at all
    // (--timeout starts at the write: a request never said written would wait out the deadline)
    if ('onRequestStart' in handler) return dispatch(opts, watchedInNewerApi(handler, once))
    const h = handler as unknown as RequestHandler
    let aborted = false
    let sentWhole = false
    const wrapped: RequestHandler = {
      onConnect: (abort, context) => {
        h.onConnect((error) => {
          aborted = true
          abort(error)
        }, context)
        // a request aborted while it waited is handed over only to be aborted at once, and never written
        if (!aborted) once()
      },
      onError: (error) => h.onError(error),
      onUpgrade: (statusCode, headers, socket) => h.onUpgrade?.(statusCode, headers, socket),
      onResponseStarted: () => h.onResponseStarted?.(),
      onHeaders: (statusCode, headers, resume, statusText) => {
        // an answer before the request's last byte: legal (RFC 9112 §9.3), and what the reports say of it (early13)
        if (!sentWhole && statusCode >= 200) watch.onAnsweredEarly?.()
        return h.onHeaders?.(statusCode, headers, resume, statusText) ?? true
      },
      onData: (chunk) => h.onData?.(chunk) ?? true,
      onComplete: (trailers) => h.onComplete?.(trailers),
      onBodySent: (chunk) => h.onBodySent?.(chunk),
      onRequestSent: () => {
        sentWhole = true
        h.onRequestSent?.()
      },
    }
    return dispatch(opts, wrapped as unknown as Dispatcher.DispatchHandler)
  }
  return new Proxy(dispatcher, { get: (target, key) => (key === 'dispatch' ? watched : Reflect.get(target, key)) })
}

function onlyOnce(onWritten: () => void): () => void {
  let written = false
  return () => {
    if (written) return
    written = true
    onWritten()
  }
}

/** The same watch for a handler of undici's newer API (onRequestStart: its head is about to be written). */
function watchedInNewerApi(handler: Dispatcher.DispatchHandler, once: () => void): Dispatcher.DispatchHandler {
  return {
    onRequestStart: (controller, context) => {
      handler.onRequestStart?.(controller, context)
      if (!controller.aborted) once()
    },
    onRequestUpgrade: (controller, statusCode, headers, socket) => handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
    onResponseStart: (controller, statusCode, headers, statusMessage) => handler.onResponseStart?.(controller, statusCode, headers, statusMessage),
    onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
    onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
  }
}
