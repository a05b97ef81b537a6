/**
 * A service on Bun or Deno configured to conform, as measured (Bun 1.4.5 and Deno 2.9.6, Hono
 * 4.13.19): the freedoms such a stack uses kept. The suite must pass it.
 */
import { errorReply, type Variant } from '../server-cases.ts'

/**
 * Hono's bodyLimit({ maxSize }) counts the request's bytes, as express.json({ limit }) and a
 * gateway's limit do: between the bytes of plain ASCII as long as a class of strings' values and
 * the bytes of the JSON that carries those values with escapes (\u0001 is six bytes for one), so
 * that only the escaped body goes over it. Measured with maxSize 256 on Bun, answered 413 and, by an
 * onError of the service's own, 400: each failed the run (REFUSED_FOR_CONTENT) before the refusal
 * was compared with plain ASCII in a body as long.
 */
const BODY_LIMIT_BYTES = 300

export const BUN_DENO_VARIANTS: readonly Variant[] = [
  {
    name: 'hono-body-limit-between-sizes',
    description:
      `Hono on Bun with bodyLimit({ maxSize: ${BODY_LIMIT_BYTES} }): a create body over ${BODY_LIMIT_BYTES} bytes is refused with 413 Payload Too Large as text, ` +
      'so values with JSON escapes are refused where plain ASCII of their sizes, in a shorter body, is not (sizes are not shown, §8); answers in application/json;charset=utf-8 (Bun.serve\'s Response.json())',
    behaviour: {
      finish(reply, request, store) {
        if (request.operation === 'createCategory' && Buffer.byteLength(request.rawBody ?? '') > BODY_LIMIT_BYTES) {
          if (reply.status === 201) store.pop()
          return { status: 413, headers: { 'content-type': 'text/plain; charset=UTF-8' }, body: 'Payload Too Large' }
        }
        return { ...reply, headers: { ...reply.headers, 'content-type': 'application/json;charset=utf-8' } }
      },
    },
  },
  {
    name: 'hono-body-limit-answered-400',
    description:
      `Hono on Deno with bodyLimit({ maxSize: ${BODY_LIMIT_BYTES}, onError }) answering 400 with the Error record (as Go's http.MaxBytesReader makes the decoder fail): ` +
      'values with JSON escapes are refused where plain ASCII of their sizes, in a shorter body, is not',
    behaviour: {
      finish(reply, request, store) {
        if (request.operation !== 'createCategory' || Buffer.byteLength(request.rawBody ?? '') <= BODY_LIMIT_BYTES) return reply
        if (reply.status === 201) store.pop()
        return errorReply(400, 'body_too_large', 'the body is too large')
      },
    },
  },
]
