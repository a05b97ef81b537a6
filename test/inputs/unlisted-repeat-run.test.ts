/**
 * Names unique over every account while each key lists its own (measured by stackhunt11: Flask
 * over SQLite, a UNIQUE name over all accounts' records, another account holding "0", "" and
 * "__proto__"): the names every run sends were refused 409 where the list showed none of them, and
 * the failure said only "POST answered 409, expected 201". It fails as before, and now says that the
 * service refuses repeats so (this run's own repeated name got 409 too), and that a record the list
 * does not show holds the name.
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'unlisted-repeat-run-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

describe('names every run sends, taken by another account the list does not show', () => {
  test('create-returns-201 fails, naming a record the list does not show', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'repeated-names-409-across-accounts')!, { apiKey: KEY })), '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.filter((r) => r.status === 'fail')
    expect(failed.map((r) => r.id)).toEqual(['create-returns-201'])
    const messages = failed[0].checks.filter((c) => c.status === 'fail').map((c) => c.failure!.message)
    expect(messages).toHaveLength(2)
    for (const message of messages) {
      expect(message).toMatch(/^POST answered 409, expected 201: the service refuses a repeated name so \(this run's own, create-repeated-name, got 409 too\), .*a record the list does not show holds it/)
    }
  }, 60_000)
})
