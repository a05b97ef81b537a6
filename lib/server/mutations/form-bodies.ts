/**
 * A create body sent as a form (application/x-www-form-urlencoded) read as the create's fields,
 * as body parsers mounted beside the JSON one do (measured: Express 5 with express.urlencoded(),
 * which express-generator's app.js mounts, koa-bodyparser and @koa/bodyparser on their defaults, and
 * webargs' json_or_form location under Flask): a body
 * that is not JSON stored (§5.4: answered 400).
 */
import { conformingBehaviour } from '../reference-server.ts'
import { errorReply, type Mutation } from '../server-cases.ts'

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
  {
    // caught by malformed-form-body; the words name Express 5's req.body (lib/checks/node-answers.ts). Measured (stackhunt11): Express 5.3, express.json() alone
    name: 'express5-form-body-undefined-500',
    breaks: 'create-rejects-invalid-json',
    code: 'SERVER_ERROR',
    description:
      "a create sent as application/x-www-form-urlencoded leaves req.body undefined under Express 5 (express.json() reads application/json alone), and the handler's const { name } = req.body throws: 500, with Express's X-Powered-By",
    behaviour: {
      finish: (reply, request) =>
        request.operation === 'createCategory' && reply.status === 400 && /^application\/x-www-form-urlencoded\b/i.test(request.contentType ?? '')
          ? errorReply(500, 'internal', "Cannot destructure property 'name' of 'req.body' as it is undefined.", { 'x-powered-by': 'Express' })
          : reply,
    },
  },
]
