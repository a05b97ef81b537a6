/** Shape checks: every body is judged by the Ajv validator compiled from spec/openapi.yaml. */
import type { HttpResult } from '../http/client.ts'
import { schemaProblems, type SchemaName } from '../spec/schema-registry.ts'
import { fail, NotApplicable } from './failure.ts'
import { jsonBodyOf } from './response.ts'

const SHOWN_PROBLEMS = 5

export function expectSchema(result: HttpResult, schema: SchemaName, what = `a ${schema} record`): unknown {
  const body = jsonBodyOf(result)
  const problems = schemaProblems(schema, body)
  if (problems === null) return body
  return fail(
    {
      code: 'SCHEMA_MISMATCH',
      message: `the body is not ${what}: ${problems[0]}`,
      expected: `${what} (spec/openapi.yaml#/components/schemas/${schema})`,
      actual: problems.slice(0, SHOWN_PROBLEMS).join('; '),
    },
    result.exchange,
  )
}

/**
 * The body when it conforms to the schema; otherwise NotApplicable, because the rule named in
 * `reportedBy` already reports the shape, and a check of another rule has nothing to judge.
 */
export function conformingBody(result: HttpResult, schema: SchemaName, reportedBy: string): unknown {
  let body: unknown
  try {
    body = jsonBodyOf(result)
  } catch {
    throw new NotApplicable(`the body is not JSON; ${reportedBy} reports it`)
  }
  if (schemaProblems(schema, body) !== null) throw new NotApplicable(`the body is not a ${schema} record; ${reportedBy} reports it`)
  return body
}
