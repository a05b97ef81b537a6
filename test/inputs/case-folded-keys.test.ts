/**
 * RFC 8259 §8.3: object names compare code unit by code unit, so "Name" is not name. Go's
 * encoding/json (and ASP.NET Core's web defaults) bind it to name all the same, the later of the two
 * winning. A Go service that looks name up under its exact key first (a map[string]json.RawMessage,
 * as the failure of {"Name": …} alone advises) and then binds the body to its struct refuses that
 * body, and stored {"name": "a", "Name": "b"} as "b": it passed every seed. create-sends-id now
 * sends "Name" after its fields (measured on Go 1.19's net/http, docs/adoption.md); and since a
 * service that refuses unknown fields refuses its id, create-name-in-two-cases sends "Name" beside
 * name alone (Go's DisallowUnknownFields binds "Name" as name: test/inputs/go-net-http.test.ts).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { createText, VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'case-folded-keys-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)
const failedChecks = (run: Awaited<ReturnType<typeof conform>>, rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail')

describe('a field name in another case', () => {
  test('create-sends-id sends "Name" after name, holding another name of the run', () => {
    const c = VALID_CREATES.find((v) => v.key === 'create-sends-id')!
    const text = createText(c, c.body('cf-abcde'), 1, 'cf-abcde')
    expect(text).toMatch(/^\{"id":\d+,"name":"cf-abcde-sent-id","description":"-0042","Name":"cf-abcde-Name-2nd-of-two"\}$/)
  })

  test('a service that checks name under its key, then binds keys in any case, fails create-echoes-fields on that create, naming the binder', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'json-keys-bound-case-insensitively-after-a-check')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const labels = ['create-sends-id', 'create-name-in-two-cases'].map((key) => VALID_CREATES.find((v) => v.key === key)!.label)
    const failed = failedChecks(run, 'create-echoes-fields')
    expect(failed.map((c, i) => [c.name.startsWith(`POST /categories with ${labels[i]} →`), c.failure?.code, c.failure?.observed])).toEqual(labels.map(() => [true, 'FIELD_CHANGED', '"name" changed']))
    expect(failed[0].failure!.message).toMatch(/holds what the body sent under the key "Name" after "name": .*Go's encoding\/json/)
    expect(run.results!.rules.filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['create-echoes-fields'])
  }, 60_000)

  test('a binder that takes "Name" alone too fails both rules, as one finding', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'json-keys-bound-case-insensitively')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    expect(failedChecks(run, 'create-rejects-missing-name')).toHaveLength(1)
    expect(failedChecks(run, 'create-echoes-fields')).toHaveLength(2)
    expect(run.stdout).toMatch(/✗ deterministic: 3 creates were taken whose body held "Name", which is not name .*, across 2 rules;/)
  }, 60_000)
})
