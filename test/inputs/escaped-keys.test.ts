/**
 * RFC 8259 §8.3: object names compare once unescaped, so "descr\u0069ption" is the key description.
 * A reader that matches keys as written (simdjson On-Demand compares raw keys; so does a regular
 * expression over the body) drops the field and stores the record without it. No create wrote a
 * key with an escape, so such a service passed under every seed; create-json-escapes now sends its
 * description's key so, and create-echoes-fields fails on it.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { createText, VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'escaped-keys-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('a key written with an escape', () => {
  test('create-json-escapes writes its description key escaped, in both forms, and means the body sent', () => {
    const c = VALID_CREATES.find((v) => v.key === 'create-json-escapes')!
    for (const body of [c.body('cf-abcde'), c.shortForm!('cf-abcde')]) {
      const text = createText(c, body, 1, 'cf-abcde')
      expect(text).toContain('"descr\\u0069ption":')
      expect(JSON.parse(text)).toEqual(body)
    }
  })

  test('a service that matches keys as written fails create-echoes-fields on that create', async () => {
    const server = serve(await startCase(MUTATIONS.find((m) => m.name === 'escaped-keys-read-as-written')!, { apiKey: KEY }))
    const run = await conform(server)
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail')
    const label = VALID_CREATES.find((v) => v.key === 'create-json-escapes')!.label
    expect(failed.map((c) => [c.name.startsWith(`POST /categories with ${label} →`), c.failure?.code])).toEqual([[true, 'FIELD_CHANGED']])
  }, 60_000)
})
