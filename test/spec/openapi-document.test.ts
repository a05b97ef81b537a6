import { validate } from '@readme/openapi-parser'
import { describe, expect, test } from 'vitest'
import { OPENAPI_PATH, openApiDocument } from '../../lib/spec/schema-registry.ts'

describe('spec/openapi.yaml', () => {
  test('is a valid OpenAPI document', async () => {
    const result = await validate(OPENAPI_PATH)
    expect(result.valid ? [] : result.errors).toEqual([])
    expect(result.valid).toBe(true)
  })

  test('the validator is able to fail: the same document without info.version is rejected', async () => {
    const broken = structuredClone(openApiDocument()) as Record<string, any>
    delete broken.info.version
    const result = await validate(broken as any)
    expect(result.valid).toBe(false)
  })

  test('says what the interface document says: servers, security, operations, version', () => {
    const doc = openApiDocument() as Record<string, any>
    expect(doc.info.version).toBe('1.0.0')
    expect(doc.servers.map((s: any) => Object.values(s.variables)[0] as any).map((v: any) => v.default)).toSatisfy((urls: string[]) =>
      urls.every((u) => u.endsWith('/v1')),
    )
    expect(doc.security).toEqual([{ bearerAuth: [] }])
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' })
    expect(doc.paths['/categories'].get.operationId).toBe('listCategories')
    expect(doc.paths['/categories'].post.operationId).toBe('createCategory')
    expect(doc.paths['/categories'].post.requestBody.required).toBe(true)
    expect(doc.paths['/pets/{petId}'].get.deprecated).toBe(true)
    expect(doc.paths['/store/orders'].get).toBeDefined()
    expect(doc.tags.map((t: any) => t.name)).toEqual(['Categories', 'Pets', 'Store'])
    expect(doc.components.schemas.Category.required).toEqual(['id', 'name'])
    expect(doc.components.schemas.Category.properties.id).toMatchObject({ type: 'integer', format: 'int64' })
    expect(doc.components.schemas.NewCategory.required).toEqual(['name'])
    expect(doc.components.schemas.Error.required).toEqual(['code', 'message', 'status'])
  })

  test('leaves extra properties allowed: the document does not forbid them', () => {
    const text = JSON.stringify(openApiDocument())
    expect(text).not.toContain('additionalProperties')
  })
})
