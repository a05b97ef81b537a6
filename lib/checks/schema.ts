/** Shape checks: every body is judged by the Ajv validator compiled from spec/openapi.yaml. */
import type { HttpResult } from '../http/client.ts'
import { quotedCut } from '../http/quoted-cut.ts'
import { everySchemaProblem, schemaProblems, type SchemaName } from '../spec/schema-registry.ts'
import { fail, NotApplicable } from './failure.ts'
import { valueOrigin } from './known-answers.ts'
import { jsonBodyOf } from './response.ts'

const SHOWN_PROBLEMS = 5

/**
 * Verdicts per parsed body and schema: several checks judge one body (a list is judged by up to
 * five), and bodies are parsed once per response and never changed (jsonBodyOf).
 */
const verdicts = new WeakMap<object, Map<SchemaName, string[] | null>>()

function problemsOf(schema: SchemaName, body: unknown): string[] | null {
  return cachedOn(verdicts, schema, body, () => schemaProblems(schema, body))
}

/**
 * What a baseline compares of a body of another shape: its first problem, without the index of a
 * list's element (any order is the service's, and other records stand before the run's) nor the
 * number an int64 problem quotes (an id the service assigned): `body[].id must be integer`.
 */
export function problemShape(problem: string): string {
  return problem.replace(/\[\d+\]/g, '[]').replace(/, got .*$/s, '')
}

/**
 * problemShape of a body's problems, the same whatever order a list is in: Ajv stops at its first
 * problem, which in a list is the first bad element's, and a list of records wrong in two ways gave
 * the one or the other as the service ordered them (a baseline entry then read as changed, and the
 * gate went red on a service that had not). A list's is the least of its elements' first problems.
 */
function observedProblem(schema: SchemaName, body: unknown, problems: readonly string[]): string {
  const first = problems[0] ?? ''
  if (schema !== 'CategoryList' || !Array.isArray(body) || !/^body\[\d+\]/.test(first)) return problemShape(first)
  const shapes = new Set<string>()
  for (const element of body) {
    const problem = schemaProblems('Category', element)?.[0]
    if (problem !== undefined) shapes.add(problemShape(problem.replace(/^body/, 'body[]')))
  }
  return [...shapes].sort()[0] ?? problemShape(first)
}

/**
 * The body's problems other than `observed`, worded as it is (problemShape), each once, sorted: a
 * list of a thousand records with ids as strings is one problem, `body[].id must be integer`.
 */
function otherProblems(every: EveryProblem, observed: string): string[] {
  return every.shapes.filter((p) => p !== observed).sort()
}

/** A body's every problem (everySchemaProblem): the first few as they are, for `actual`, and the shape of each, once (problemShape). */
interface EveryProblem {
  shown: string[]
  shapes: string[]
}

/** What is found of a body that failed, kept for the other checks that judge it, as `verdicts` are. */
const everyVerdicts = new WeakMap<object, Map<SchemaName, EveryProblem>>()
const observedOnes = new WeakMap<object, Map<SchemaName, string>>()

function cachedOn<T>(cache: WeakMap<object, Map<SchemaName, T>>, schema: SchemaName, body: unknown, find: () => T): T {
  if (body === null || typeof body !== 'object') return find()
  let known = cache.get(body)
  if (!known) cache.set(body, (known = new Map()))
  let found = known.get(schema)
  if (found === undefined) known.set(schema, (found = find()))
  return found
}

/**
 * Every problem of a body that failed, once per body and schema; a list's element by element, so
 * that the errors of one record are held at a time: Ajv's allErrors over a list of a million
 * records with ids as strings held 2 million errors (585 MiB, 3.2 s), for each check that judged it.
 */
function everyProblemOf(schema: SchemaName, body: unknown): EveryProblem {
  return cachedOn(everyVerdicts, schema, body, () => {
    const shown: string[] = []
    const shapes = new Set<string>()
    const add = (problem: string) => {
      if (shown.length < SHOWN_PROBLEMS) shown.push(problem)
      shapes.add(problemShape(problem))
    }
    if (schema === 'CategoryList' && Array.isArray(body)) {
      for (const [at, element] of body.entries()) for (const problem of everySchemaProblem('Category', element)) add(problem.replace(/^body/, `body[${at}]`))
    } else for (const problem of everySchemaProblem(schema, body)) add(problem)
    return { shown, shapes: [...shapes] }
  })
}

/** How long a problem `actual` shows may be: an id of a million digits is quoted by its int64 problem ("got 1000…"). */
const PROBLEM_CHARACTERS = 300

const shortProblem = (problem: string) => (problem.length > PROBLEM_CHARACTERS ? `${quotedCut(problem, PROBLEM_CHARACTERS)}… (${problem.length} characters)` : problem)

/** `originOf`: what a body of another shape says of the stack that wrote it (lib/checks/known-answers.ts), added to the message. */
export function expectSchema(result: HttpResult, schema: SchemaName, what = `a ${schema} record`, originOf?: (body: unknown) => string | undefined): unknown {
  const body = jsonBodyOf(result)
  const problems = problemsOf(schema, body)
  if (problems === null) return body
  const origin = originOf?.(body) ?? valueOrigin(body, problems.slice(0, SHOWN_PROBLEMS))
  const observed = cachedOn(observedOnes, schema, body, () => observedProblem(schema, body, problems))
  // Ajv stops at the first problem; `actual` shows the others too (a missing "status" beside a "code" that is a number)
  const every = everyProblemOf(schema, body)
  return fail(
    {
      code: 'SCHEMA_MISMATCH',
      message: `the body is not ${what}: ${problems[0]}${origin ? `; ${origin}` : ''}`,
      expected: `${what} (spec/openapi.yaml#/components/schemas/${schema})`,
      actual: (every.shown.length > 0 ? every.shown : problems).slice(0, SHOWN_PROBLEMS).map(shortProblem).join('; '),
      observed,
      alsoObserved: otherProblems(every, observed),
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
  if (problemsOf(schema, body) !== null) throw new NotApplicable(`the body is not a ${schema} record; ${reportedBy} reports it`)
  return body
}
