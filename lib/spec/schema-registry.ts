/**
 * The schemas of spec/openapi.yaml, compiled once with Ajv and shared by the checks and the
 * reference server, so that both read the same contract.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { int64StatusAt, numberText } from '../json/exact-json.ts'
import { RUNS_COMPILED } from '../project-root.ts'
import { readSpecFile, specPath } from './spec-files.ts'

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default

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

function createAjv(): Ajv {
  // the schemas are checked against JSON Schema's meta-schema when run from the sources (every
  // test does); a compiled run skips that re-check, about 30 ms of CPU per thread (README, Performance)
  const ajv = new Ajv({ allErrors: false, strict: true, strictTypes: false, validateSchema: !RUNS_COMPILED })
  addFormats(ajv)
  ajv.addKeyword({
    keyword: EXACT_INT64,
    schemaType: 'boolean',
    errors: true,
    validate: function exactInt64(
      this: unknown,
      _schema: boolean,
      data: unknown,
      _parentSchema?: unknown,
      dataCxt?: { parentData: unknown; parentDataProperty: string | number },
    ): boolean {
      if (typeof data !== 'number' || !dataCxt) return true // `type: integer` reports a non-number
      // called once per id of a list: plain ids are judged without a bigint, texts made only for errors
      const status = int64StatusAt(dataCxt.parentData, dataCxt.parentDataProperty)
      if (status === 'int64') return true
      const self = exactInt64 as unknown as { errors?: Partial<ErrorObject>[] }
      const text = numberText(dataCxt.parentData, dataCxt.parentDataProperty)
      const message = status === 'not-integer' ? `must be an integer, got ${text}` : `must be an int64 (from -2^63 to 2^63-1), got ${text}`
      self.errors = [{ keyword: EXACT_INT64, message, params: {} }]
      return false
    },
  })
  // OpenAPI annotations that are not JSON Schema validation keywords
  ajv.addVocabulary(['example', 'xml', 'externalDocs', 'discriminator'])
  for (const [name, schema] of Object.entries(openApiDocument().components.schemas)) {
    ajv.addSchema(toAjvSchema(schema) as object, name)
  }
  return ajv
}

let ajv: Ajv | undefined
const validators = new Map<SchemaName, ValidateFunction>()

/** The compiled validator for a schema of the contract; compiled on first use, then reused. */
export function validatorFor(name: SchemaName): ValidateFunction {
  let validate = validators.get(name)
  if (!validate) {
    ajv ??= createAjv()
    validate = ajv.getSchema(name)
    if (!validate) throw new Error(`schema ${name} is not in ${OPENAPI_PATH}`)
    validators.set(name, validate)
  }
  return validate
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
