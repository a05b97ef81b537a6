/**
 * The schemas of spec/openapi.yaml, compiled once with Ajv and shared by the checks and the
 * reference server, so that both read the same contract. A compiled run (dist/, `npm run build`)
 * loads the validators that the build generated with Ajv's standalone code, so that it neither loads
 * Ajv's compiler nor compiles (about 45 ms of CPU and 9 MiB per thread that validates); a run from
 * the sources compiles them on first use.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'
import type { Ajv, ErrorObject, KeywordCxt, ValidateFunction } from 'ajv'
import { int64StatusAt, numberText } from '../json/exact-json.ts'
import { CODE_ROOT, RUNS_COMPILED } from '../project-root.ts'
import { readSpecFile, specPath } from './spec-files.ts'

// loaded on demand: a compiled run needs neither Ajv's compiler nor ajv-formats' plugin
const require = createRequire(import.meta.url)

export const OPENAPI_PATH = specPath('openapi')

export type SchemaName = 'Category' | 'CategoryList' | 'NewCategory' | 'Error'

/** Keyword added wherever the contract says int64: checks the exact value, not JSON.parse's double. */
const EXACT_INT64 = 'x-exact-int64'

interface OpenApiDocument {
  components: { schemas: Record<string, Record<string, unknown>> }
  [key: string]: unknown
}

let document: OpenApiDocument | undefined
export function openApiDocument(): OpenApiDocument {
  document ??= readSpecFile('openapi') as OpenApiDocument
  return document
}

/** Rewrites `#/components/schemas/X` to the Ajv id `X` and marks int64 fields for the exact check. */
function toAjvSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toAjvSchema)
  if (node === null || typeof node !== 'object') return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/')) {
      out.$ref = value.slice('#/components/schemas/'.length)
    } else {
      out[key] = toAjvSchema(value)
    }
  }
  if (out.format === 'int64') out[EXACT_INT64] = true
  return out
}

/**
 * Why the number at parent[property] is not an int64, or null when it is (or is not a number, which
 * `type: integer` reports). Called once per id of a list: plain ids are judged without a bigint,
 * texts made only for errors.
 */
function exactInt64Problem(parent: unknown, property: string | number): string | null {
  if (parent === null || typeof parent !== 'object' || typeof (parent as Record<string, unknown>)[property] !== 'number') return null
  const status = int64StatusAt(parent, property)
  if (status === 'int64') return null
  const text = numberText(parent, property)
  return status === 'not-integer' ? `must be an integer, got ${text}` : `must be an int64 (from -2^63 to 2^63-1), got ${text}`
}

/** The name under which the generated validators (standaloneValidators) are given exactInt64Problem. */
const EXACT_INT64_PROBLEM = 'exactInt64Problem'

function createAjv(forStandaloneCode = false, allErrors = false): Ajv {
  const { Ajv: AjvClass, _, Name } = require('ajv') as typeof import('ajv')
  const addFormats = require('ajv-formats') as (ajv: Ajv) => Ajv
  const ajv = new AjvClass({ allErrors, strict: true, strictTypes: false, ...(forStandaloneCode ? { code: { source: true } } : {}) })
  addFormats(ajv)
  ajv.addKeyword({
    keyword: EXACT_INT64,
    schemaType: 'boolean',
    error: { message: ({ params }) => _`${params.problem}` },
    code(cxt: KeywordCxt) {
      const { gen, it } = cxt
      // standalone code names the function; compiled here, Ajv calls the reference itself
      const check = gen.scopeValue('func', { ref: exactInt64Problem, code: _`${new Name(EXACT_INT64_PROBLEM)}` })
      const problem = gen.const('problem', _`${check}(${it.parentData}, ${it.parentDataProperty})`)
      cxt.setParams({ problem })
      cxt.fail(_`${problem} !== null`)
    },
  })
  // OpenAPI annotations that are not JSON Schema validation keywords
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator'])
  for (const [name, schema] of Object.entries(openApiDocument().components.schemas)) {
    ajv.addSchema(toAjvSchema(schema) as object, name)
  }
  return ajv
}

const SCHEMA_NAMES: SchemaName[] = ['Category', 'CategoryList', 'NewCategory', 'Error']
const GENERATED = 'schema-validators.cjs'
/** The same validators with Ajv's allErrors: every problem of a body, read only of a body that fails (everySchemaProblem). */
export const GENERATED_ALL_ERRORS = 'schema-validators-all-errors.cjs'

/**
 * The validators as a CommonJS module (build/compile.mjs writes it to dist/spec/): Ajv's standalone
 * code, inside a function that is given exactInt64Problem.
 */
export function standaloneValidators(allErrors = false): string {
  const ajv = createAjv(true, allErrors)
  const standaloneCode = require('ajv/dist/standalone') as { default: (ajv: Ajv, refs: Record<string, string>) => string }
  const code = standaloneCode.default(ajv, Object.fromEntries(SCHEMA_NAMES.map((name) => [name, name])))
  return `// generated by build/compile.mjs from spec/openapi.yaml (Ajv standalone code): do not edit
module.exports = function schemaValidators(${EXACT_INT64_PROBLEM}) {
const exports = {};
${code}
return exports;
};
`
}

/** The validators of one kind: stopping at a body's first problem, or finding every one (allErrors). */
interface ValidatorSet {
  allErrors: boolean
  ajv?: Ajv
  generated?: Record<SchemaName, ValidateFunction>
  validators: Map<SchemaName, ValidateFunction>
}
const FIRST_PROBLEM: ValidatorSet = { allErrors: false, validators: new Map() }
const EVERY_PROBLEM: ValidatorSet = { allErrors: true, validators: new Map() }

function validatorOf(set: ValidatorSet, name: SchemaName): ValidateFunction {
  let validate = set.validators.get(name)
  if (!validate) {
    if (RUNS_COMPILED) {
      set.generated ??= (require(join(CODE_ROOT, 'spec', set.allErrors ? GENERATED_ALL_ERRORS : GENERATED)) as (problem: typeof exactInt64Problem) => Record<SchemaName, ValidateFunction>)(exactInt64Problem)
      validate = set.generated[name]
    } else {
      set.ajv ??= createAjv(false, set.allErrors)
      validate = set.ajv.getSchema(name)
    }
    if (!validate) throw new Error(`schema ${name} is not in ${OPENAPI_PATH}`)
    set.validators.set(name, validate)
  }
  return validate
}

/** The compiled validator for a schema of the contract; compiled on first use, then reused. */
export function validatorFor(name: SchemaName): ValidateFunction {
  return validatorOf(FIRST_PROBLEM, name)
}

/**
 * Every problem of a body (Ajv's allErrors), not only the first: what a baseline entry compares,
 * so that a known missing "status" does not hide a "code" that became a number. Asked only of a
 * body that failed, whose problems are few.
 */
export function everySchemaProblem(name: SchemaName, body: unknown): string[] {
  const validate = validatorOf(EVERY_PROBLEM, name)
  return validate(body) ? [] : describeSchemaErrors(validate.errors)
}

/** One readable line per Ajv error: where in the body, and what is wrong there. */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const where = e.instancePath === '' ? 'body' : `body${e.instancePath.replaceAll('/', '.').replace(/\.(\d+)(?=\.|$)/g, '[$1]')}`
    if (e.keyword === 'required') return `${where} lacks required property "${(e.params as { missingProperty: string }).missingProperty}"`
    return `${where} ${e.message ?? 'is invalid'}`
  })
}

/** Validates a parsed body; returns null when it conforms, else the problems found. */
export function schemaProblems(name: SchemaName, body: unknown): string[] | null {
  const validate = validatorFor(name)
  if (validate(body)) return null
  return describeSchemaErrors(validate.errors)
}
