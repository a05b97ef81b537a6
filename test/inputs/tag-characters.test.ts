/**
 * Tag characters (U+E0000 to U+E007F), which the flags of Scotland, Wales and England are made of,
 * are invisible: a filter against ASCII smuggling strips them, and the flag comes back a black
 * flag. No create sent one, so such a service passed under every seed. create-unicode now sends a
 * subdivision flag, and a cancel tag in its short form, which a service with short columns gets.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { columnLimits } from '../../lib/server/variants/inputs.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'tag-characters-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)
const stripping = MUTATIONS.find((m) => m.name === 'tag-characters-stripped')!

const failedEchoes = (run: Awaited<ReturnType<typeof conform>>) =>
  run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail').map((c) => `${c.failure?.code}: ${c.failure?.message}`)

describe('tag characters', () => {
  test('stripped: create-echoes-fields fails on the flag of create-unicode', async () => {
    const run = await conform(serve(await startCase(stripping, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    expect(failedEchoes(run)).toEqual([expect.stringMatching(/^FIELD_CHANGED: .*sent U\+E0067/)])
  }, 60_000)

  test('stripped by a service with a VARCHAR(16) name and a VARCHAR(32) description: fails on the short form', async () => {
    const server = await startReferenceServer({ apiKey: KEY, behaviour: { ...columnLimits(16, 32, 'bytes'), toRecord: stripping.behaviour.toRecord! } })
    const run = await conform(serve(server))
    expect(run.code, run.stdout).toBe(1)
    expect(failedEchoes(run)).toEqual([expect.stringMatching(/^FIELD_CHANGED: .*sent U\+E007F/)])
  }, 60_000)
})
