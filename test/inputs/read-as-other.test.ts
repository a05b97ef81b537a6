/**
 * Values a service reads as something other than the text they are (suites/cases/read-as-other-creates.ts):
 * - A description of three spaces: a service that refuses '' (Joi.string()'s default, as the
 *   document lets it) and drops a blank description passed, since no create sent one; it now fails
 *   create-echoes-fields on create-blank-description. A service that refuses it passes.
 * - The name __proto__: categories kept in a plain object keyed by name store nothing for it, and
 *   a taken-name check written `if (categories[name])` refuses it with 409; both passed, since every
 *   name a run sent carried its prefix or was "0" or ''. They now fail created-in-list and
 *   create-returns-201 on create-prototype-name.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { findCase, startCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'read-as-other-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

async function runAgainst(name: string) {
  const serverCase = findCase(MUTATIONS, name) ?? findCase(VARIANTS, name)!
  return conform(serve(await startCase(serverCase, { apiKey: KEY })))
}

/** Each failed check of the rule: its name and its failure's message (the list's one check names the record it missed there). */
const failedChecks = (run: Awaited<ReturnType<typeof runAgainst>>, rule: string) =>
  run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail').map((c) => `${c.name}: ${c.failure?.message}`)

describe('values read as something else', () => {
  test('a blank description refused with 400, as an empty one: the run passes', async () => {
    const run = await runAgainst('blank-descriptions-refused')
    expect(failedRules(run), run.stdout).toEqual([])
  }, 60_000)

  test.each([
    ['blank-description-dropped', 'create-echoes-fields', 'a description of three spaces'],
    ['blank-description-defaulted', 'create-echoes-fields', 'a description of three spaces'],
    ['prototype-name-not-stored', 'created-in-list', '__proto__'],
    ['prototype-name-taken', 'create-returns-201', 'the name __proto__'],
  ])('%s fails %s on that create alone', async (name, rule, label) => {
    const run = await runAgainst(name)
    expect(failedRules(run), run.stdout).toEqual([rule])
    expect(failedChecks(run, rule)).toEqual([expect.stringContaining(label)])
  }, 60_000)
})
