/**
 * What an answer the document does not allow says of a service on Bun or Deno that gives it by
 * default, beside the Node words of node-answers.ts (known-answers.ts calls these first): Elysia's
 * 422 validation body (and that body given status 400 by an onError hook), Bun's empty 404 of a routes table, its NOT_FOUND and "Bad Request" texts, Bun.serve's text/plain;charset=utf-8
 * for a string body and application/octet-stream for a stream body without a type (Hono's
 * HTTPException as its Context hands it on under Bun), @elysiajs/bearer's reading of "Bearer:<key>" (and a hand-written pattern's of "Bearer<key>"),
 * Oak's ctx.throw() as text, and the 500 pages of Bun.serve (development and production) and of
 * Deno.serve for an exception the handler let through. Measured against services written as such
 * teams write them (Bun 1.4.5: Bun.serve with a fetch handler and with routes, Elysia 1.4.30 with @elysiajs/bearer 1.4.4, Hono 4.13.19;
 * Deno 2.9.6: Deno.serve, Oak 14.1.0 from npm, Hono 4.13.19). The verdict and the failure code
 * never depend on these words; each returns undefined for any other answer.
 */
import type { RecordedRequest, RecordedResponse } from '../http/exchange.ts'
import { KEY_PLACEHOLDER } from '../http/redact.ts'

/** The keys of a JSON object body, or none. */
function jsonKeys(response: RecordedResponse): string[] {
  try {
    const body: unknown = JSON.parse(response.body)
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []
  } catch {
    return []
  }
}

const ELYSIA_ON_ERROR =
  ".onError(({ code, error }) => code === 'VALIDATION' || code === 'PARSE' ? " +
  "new Response(JSON.stringify({ code: …, message: error.message, status: 400 }), { status: 400, headers: { 'content-type': 'application/json' } }) : …)"

/** An Error record's shape as Elysia writes its validation errors, which a service may answer with status 400 from onError and still not the Error record. */
export function runtimeErrorBody(keys: readonly string[], body?: unknown): string | undefined {
  if (!keys.includes('type') || !keys.includes('on') || (body as { type?: unknown } | undefined)?.type !== 'validation') return undefined
  return (
    "it is Elysia's validation body (type: validation, on, and property, summary, found or errors), which onError handed on with another status; " +
    `an onError hook answers the Error record in its place, ${ELYSIA_ON_ERROR}`
  )
}

/** Why a status came instead of the one expected, where Bun, Deno or a framework on them answers it so by default. */
export function runtimeStatus(response: RecordedResponse, expected: number, request: RecordedRequest): string | undefined {
  // Elysia 1.4: {type, on, property, message, summary, expected, found, errors}; with NODE_ENV=production {type, on, found}
  if (response.status === 422 && expected === 400) {
    const keys = jsonKeys(response)
    if (keys.includes('type') && keys.includes('on') && /"type"\s*:\s*"validation"/.test(response.body)) {
      return (
        "it is Elysia's answer to a body its schema (t.Object, TypeBox) refuses: 422 with a body of its own (type: validation, on, property, summary, found); " +
        `§4.2 rule 1 and §7 ask 400 with the Error record, which an onError hook answers: ${ELYSIA_ON_ERROR}`
      )
    }
  }
  if (response.status === 404 && expected === 401 && response.body === 'NOT_FOUND') {
    return (
      "NOT_FOUND as text is Elysia's answer to a path no route took, before any hook of a route runs: onBeforeHandle (and @elysiajs/bearer's check in it) runs only for a route Elysia has; " +
      '§1 rule 2 and §5.1 require authentication for every operation the document names, so the key is checked in onRequest, which runs before routing, or the operation is routed'
    )
  }
  // Bun 1.4's routes table with no fetch handler: an empty 404, no Content-Type (measured)
  if (response.status === 404 && expected === 401 && response.bodyBytes === 0 && response.headers['content-type'] === undefined) {
    return (
      "an empty 404 without a Content-Type is what Bun.serve answers for a path none of its routes takes when it has no fetch handler (its routes table, a key checked in each route's handler); " +
      '§1 rule 2 and §5.1 require authentication for every operation the document names, so a fetch handler, which Bun calls for every path no route took, answers 401 with the Error record first, or the operation is routed'
    )
  }
  // the request as recorded: the key is written $CONFORM_API_KEY, so the scheme and what follows it are read
  const authorization = request.headers.authorization ?? ''
  // the key right after "Bearer" is no character after it: a pattern's optional space, not slice(7)
  if (expected === 401 && response.status >= 200 && response.status < 300 && authorization === `Bearer${KEY_PLACEHOLDER}`) {
    return (
      'the key was taken right after "Bearer", without the space: a pattern written by hand that makes the space optional (/^Bearer\\s*(\\S+)$/i, written to take "Bearer<token>" too) reads it as the token; ' +
      '"Bearer" is followed by one or more spaces before the token (RFC 9110 §11.4, RFC 6750 §2.1), and a header without them carries no bearer credential (§5.2): match /^Bearer +(\\S+)$/i'
    )
  }
  if (expected === 401 && response.status >= 200 && response.status < 300 && /^Bearer[^ ]/.test(authorization)) {
    return (
      "the key was taken after \"Bearer\" and one more character, whatever that character is: @elysiajs/bearer reads a header that starts with Bearer as authorization.slice(7), as echo's KeyAuth middleware does, and Go Fiber's keyauth with AuthScheme \"Bearer\" (auth[:6] == \"Bearer\", the key auth[7:]); " +
      '"Bearer" followed by anything but a space is no bearer credential (RFC 6750 §2.1, §5.2): compare the whole header to `Bearer ${key}`'
    )
  }
  if (response.status === 500) return runtimeFault(response)
  return undefined
}

/** A 500 that Bun or Deno wrote itself, for an exception the handler let through. */
function runtimeFault(response: RecordedResponse): string | undefined {
  const uncaught =
    'for an exception the handler let through: req.json() throws a SyntaxError for a body that is not JSON, and destructuring a body of null (const { name } = await req.json()) a TypeError; ' +
    'catch them and answer 400 with the Error record (§5.4, §4.2 rule 1)'
  if (response.body.includes('DevErrorPage')) {
    return `it is Bun.serve's development error page (text/html, the source and stack of the error; Bun serves it unless NODE_ENV=production or development: false) ${uncaught}, and an error(error) handler of Bun.serve answers the Error record for the rest`
  }
  if (response.body === 'Something went wrong!') return `Something went wrong! is Bun.serve's own answer in production ${uncaught}, and an error(error) handler of Bun.serve answers the Error record for the rest`
  // Node's http adds Keep-Alive: timeout=5 to a kept-alive answer, which Deno.serve does not: such an answer is micro's (node-answers.ts)
  if (response.body === 'Internal Server Error' && response.headers['content-type'] === undefined && response.headers['keep-alive'] === undefined) {
    return `Internal Server Error without a Content-Type is what Deno.serve's default onError answers ${uncaught}, and an onError of Deno.serve's options answers the Error record for the rest`
  }
  return undefined
}

/** Why a response is declared with another media type, where Bun, Deno or a framework on them declares it so. */
export function runtimeContentType(contentType: string | undefined, response?: RecordedResponse): string | undefined {
  if (contentType === 'application/octet-stream' && response !== undefined && response.status >= 400) {
    return (
      'application/octet-stream is what Bun.serve declares for a Response whose body is a stream and that carries no Content-Type: ' +
      "Hono's HTTPException (bearerAuth's 401 and 400, its validator's 'Malformed JSON in request body') is handed on so by Hono's Context under Bun (on Node and Deno it is text/plain;charset=UTF-8); " +
      '§4 makes every payload JSON: app.onError and app.notFound answer the Error record with c.json()'
    )
  }
  if (contentType === 'text/plain;charset=utf-8') {
    return (
      "text/plain;charset=utf-8 is what Bun.serve declares for a string body (new Response(text)): Elysia answers so for its own errors (ParseError's Bad Request, NotFoundError's NOT_FOUND, a thrown error's message); " +
      `§4 makes every payload JSON: an onError hook answers the Error record, ${ELYSIA_ON_ERROR}`
    )
  }
  if (contentType === 'text/plain; charset=UTF-8') {
    return (
      "Oak answers so too, for ctx.throw(status, message) and any HttpError a middleware let through (its message as text); " +
      'an error middleware first in the chain (try { await next() } catch (e) { ctx.response.status = …; ctx.response.body = { code, message, status } }) answers the Error record'
    )
  }
  return undefined
}

/** Why a body that is not JSON came with this answer, where Elysia or Hono on Bun writes it so. */
export function runtimeTextBody(response: RecordedResponse): string | undefined {
  const type = response.headers['content-type']
  if (type === 'text/plain;charset=utf-8' && response.status === 400 && response.body === 'Bad Request') {
    return `Bad Request as text is Elysia's ParseError, its answer to a body its parser could not read (req.json() threw); an onError hook answers the Error record for it, ${ELYSIA_ON_ERROR}`
  }
  if (type === 'application/octet-stream' && (response.status === 400 || response.status === 401)) {
    return "it is the message of Hono's HTTPException as text (bearerAuth's Unauthorized and Bad Request, the validator's Malformed JSON in request body), which app.onError answers as the Error record with c.json()"
  }
  return undefined
}
