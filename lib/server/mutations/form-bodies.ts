/**
 * A create body sent as a form (application/x-www-form-urlencoded) read as the create's fields,
 * as body parsers mounted beside the JSON one do (measured: Express 5 with express.urlencoded(),
 * which express-generator's app.js mounts, koa-bodyparser and @koa/bodyparser on their defaults, and
 * webargs' json_or_form location under Flask): a body
 * that is not JSON stored (§5.4: answered 400).
 */
import { conformingBehaviour } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

export const FORM_BODY_MUTATIONS: readonly Mutation[] = [
  {
    // caught by malformed-form-body (suites/cases/malformed-json.ts)
    name: 'form-body-read',
    breaks: 'create-rejects-invalid-json',
    code: 'UNEXPECTED_STATUS',
    description:
      "a create sent as application/x-www-form-urlencoded (name=…) is read as form fields and stored, as express.urlencoded() beside express.json() does: a body that is not JSON created a record",
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 400 || !/^application\/x-www-form-urlencoded\b/i.test(request.contentType ?? '')) return reply
        const fields = Object.fromEntries(new URLSearchParams(request.rawBody ?? ''))
        if (conformingBehaviour.validate(fields) !== null) return reply
        const record = conformingBehaviour.toRecord(fields as { name: string; description?: string }, conformingBehaviour.nextId(store))
        store.push(record)
        return { status: 201, headers: {}, body: conformingBehaviour.createdBody(record) }
      },
    },
  },
]
