import type { Dispatcher } from 'undici'

/** What a request carries (as undici's `opaque`) to hear when it is written to a connection. */
export interface WriteWatch {
  onWritten: () => void
}

/**
 * An interceptor that tells a request when undici hands it to a connection to write its head (the
 * handler's onRequestStart): that moment, not the call, is when a request was sent, and it comes
 * late for a request that waited for one of the bounded connections. The journal records it, and
 * --timeout starts there.
 */
export const watchWrites: Dispatcher.DispatcherComposeInterceptor = (dispatch) => (opts, handler) => {
  const watch = (opts as { opaque?: Partial<WriteWatch> }).opaque
  if (typeof watch?.onWritten !== 'function') return dispatch(opts, handler)
  const onWritten = watch.onWritten
  let written = false
  return dispatch(opts, {
    onRequestStart: (controller, context) => {
      // a request aborted while it waited is started only to be aborted at once, and never written
      handler.onRequestStart?.(controller, context)
      if (written || controller.aborted) return
      written = true
      onWritten()
    },
    onRequestUpgrade: (controller, statusCode, headers, socket) => handler.onRequestUpgrade?.(controller, statusCode, headers, socket),
    onResponseStart: (controller, statusCode, headers, statusMessage) => handler.onResponseStart?.(controller, statusCode, headers, statusMessage),
    onResponseData: (controller, chunk) => handler.onResponseData?.(controller, chunk),
    onResponseEnd: (controller, trailers) => handler.onResponseEnd?.(controller, trailers),
    onResponseError: (controller, error) => handler.onResponseError?.(controller, error),
  })
}
