/**
 * Names unique over every account while each key lists its own (measured by stackhunt11: Flask
 * over SQLite, a UNIQUE name over all accounts' records, another account holding "0", "" and
 * "__proto__"): the names every run sends were refused 409 where the list showed none of them, and
 * create-returns-201 failed ("POST answered 409, expected 201"), a false alarm on every tenant after
 * the first. Keys are issued for the account (§5.2) and repeats are the service's to refuse (§7 shows
 * no 409): those creates are now not verified (cause name-held-elsewhere), with words that say why,
 * and the run passes (variant repeated-names-409-across-accounts). A name only this run sends,
 * refused as a repeat, still fails (mutation repeated-description-409-as-name-taken), and so does a
 * name every run sends refused where another of them was taken in this run (prototype-name-taken).
 */
import { describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { findCase, startCase } from '../../lib/server/server-cases.ts'
import { partlyVerified } from '../../lib/reporters/wording.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'unlisted-repeat-run-key-0123456789abcdef'
const { serve, conform } = runsWithKey(KEY)

/** create-returns-201's checks of one run, by status. */
const createChecks = (run: Awaited<ReturnType<typeof conform>>, status: 'skip' | 'fail') =>
  run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === status)

describe('names every run sends, taken by another account the list does not show', () => {
  test('variant repeated-names-409-across-accounts: the run passes, "0", "" and "__proto__" not verified, saying why', async () => {
    const run = await conform(serve(await startCase(findCase(VARIANTS, 'repeated-names-409-across-accounts')!, { apiKey: KEY })), '--confirm', '0')
    expect(run.code, run.stdout).toBe(0)
    const skipped = createChecks(run, 'skip').filter((c) => c.cause === 'name-held-elsewhere')
    expect(skipped.map((c) => c.name.match(/^POST \/categories with (an empty name|a one-character name, "0"|the name __proto__)/)?.[1]).sort()).toEqual(['a one-character name, "0"', 'an empty name', 'the name __proto__'])
    for (const check of skipped) {
      expect(check.skipReason).toMatch(/^not verified: POST answered 409 to ("0"|""|"__proto__"), a name every run sends, as the service refuses a repeated name .*another account's record .* holds it/)
    }
    const partly = partlyVerified(run.results!).find((p) => p.rule.id === 'create-returns-201')
    expect(partly?.reasons.join('\n')).toMatch(/names unique across accounts, another account's record holds it/)
    expect(run.files['summary.md']).toMatch(/`create-returns-201`: \d+ checks skipped \(.*names unique across accounts, another account's record holds it/)
  }, 60_000)

  // review54: before, "0" failed ("this run's "__proto__" ... got 201"): a run that stored "0" need not have stored "__proto__"
  test('variant repeated-names-409-across-accounts-partial-run: another account\'s run stored "" and "0" alone; the run passes, those two not verified', async () => {
    const run = await conform(serve(await startCase(findCase(VARIANTS, 'repeated-names-409-across-accounts-partial-run')!, { apiKey: KEY })), '--confirm', '0')
    expect(run.code, run.stdout).toBe(0)
    const skipped = createChecks(run, 'skip').filter((c) => c.cause === 'name-held-elsewhere')
    expect(skipped.map((c) => c.name.match(/^POST \/categories with (an empty name|a one-character name, "0")/)?.[1]).sort()).toEqual(['a one-character name, "0"', 'an empty name'])
  }, 60_000)

  // review54: a name taken after the refused one is evidence only beside a refusal told otherwise than the repeat's
  test.each([
    ['php-empty-refuses-zero-400-as-repeats', /a one-character name, "0"/, '"__proto__"'],
    ['empty-name-409-as-repeats', /an empty name/, '"0"'],
  ])('mutation %s: refused in the repeat\'s status, told otherwise, with a later name every run sends taken, fails', async (mutation, check, later) => {
    const run = await conform(serve(await startCase(findCase(MUTATIONS, mutation)!, { apiKey: KEY })), '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failed = createChecks(run, 'fail')
    expect(failed.map((c) => c.name)).toEqual([expect.stringMatching(check)])
    expect(failed[0].failure!.message).toContain(`this run's ${later}, another name every run sends, got 201: the refusal of`)
    expect(failed[0].failure!.message).toMatch(/is told otherwise than the repeat's/)
  }, 60_000)

  // review54: before, "0" and "__proto__" were not verified, "the key's list shows no record of it", beside the list showing this run's own
  test('mutation name-index-after-insert-across-accounts: "0" and "__proto__" stored, then answered 409, fail', async () => {
    const run = await conform(serve(await startCase(findCase(MUTATIONS, 'name-index-after-insert-across-accounts')!, { apiKey: KEY })), '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    expect(createChecks(run, 'skip').filter((c) => c.cause === 'name-held-elsewhere')).toEqual([])
    const failed = createChecks(run, 'fail').map((c) => c.name)
    expect(failed).toContainEqual(expect.stringMatching(/a one-character name, "0" → 201/))
    expect(failed).toContainEqual(expect.stringMatching(/the name __proto__, .* → 201/))
  }, 60_000)

  test('mutation repeated-description-409-as-name-taken: a name only this run sends, refused 409 with no record, fails', async () => {
    const run = await conform(serve(await startCase(findCase(MUTATIONS, 'repeated-description-409-as-name-taken')!, { apiKey: KEY })), '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failed = createChecks(run, 'fail')
    // the five creates whose description another account's run stored ("null" ×3, "None" ×2), whatever the order
    expect(failed).toHaveLength(5)
    for (const check of failed) {
      expect(check.failure!.message).toMatch(/^POST answered 409, expected 201.*a name only this run sends/)
      expect(check.name).not.toMatch(/an empty name|a one-character name, "0"|the name __proto__/)
    }
    expect(createChecks(run, 'skip').filter((c) => c.cause === 'name-held-elsewhere')).toHaveLength(3)
  }, 60_000)

  test('mutation prototype-name-taken: "__proto__" refused 409 though this run\'s "0" was taken fails, naming "0"', async () => {
    const run = await conform(serve(await startCase(findCase(MUTATIONS, 'prototype-name-taken')!, { apiKey: KEY })), '--confirm', '0')
    expect(run.code, run.stdout).toBe(1)
    const failed = createChecks(run, 'fail')
    expect(failed.map((c) => c.name)).toEqual([expect.stringMatching(/the name __proto__/)])
    expect(failed[0].failure!.message).toMatch(/^POST answered 409, expected 201: .*this run's "0", another name every run sends, got 201/)
  }, 60_000)
})
