/**
 * A description of "0": measured on PHP 8.2 (`php -S`, json_decode, PDO SQLite) refusing an empty
 * description with `if (array_key_exists('description', $b) && empty($b['description']))`, as the
 * document lets it refuse '' (an invalid value, §4.2 rule 1). empty() holds for "0" too, so the
 * service refused the description "0", a valid string (§2), and the run passed: no create sent one.
 * - Refusing '' alone passes.
 * - Refusing '' and "0" fails create-returns-201 on the create that sends "0".
 */
import { describe, expect, test } from 'vitest'
import { conformingBehaviour, startReferenceServer } from '../../lib/server/reference-server.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'zero-description-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

const refusing = (values: string[]) => ({
  validate: (body: unknown) => conformingBehaviour.validate(body) ?? (values.includes((body as { description?: string }).description ?? 'x') ? 'description must not be empty' : null),
})

describe('a description of "0"', () => {
  test('an empty description refused with 400: the run passes', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: refusing(['']) }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual([])
  }, 60_000)

  test('"0" refused with it, as PHP\'s empty() does: create-returns-201 fails on the create that sends "0"', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: refusing(['', '0']) }))
    const run = await conform(server)
    expect(failedRules(run), run.stdout).toEqual(['create-returns-201'])
    const failed = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail').map((c) => c.name)
    expect(failed).toEqual([expect.stringContaining('a one-character description, "0"')])
  }, 60_000)
})
