/**
 * A list that breaks its schema (a description written as null, as Perl's DBI, Django REST
 * framework's ModelSerializer and Rails' to_json write a NULL column) is list-returns-category-array's
 * to report; the checks that only look in it for what a create stored must still read it. Before,
 * they read only a list that conformed, so a Mojolicious service (measured on Debian 12's
 * libmojolicious-perl with DBD::MariaDB) that refused the name "0" (`$json->{name} or return …`)
 * passed create-returns-201 as "not verified", and a refused body that was stored was not seen.
 */
import { describe, expect, test } from 'vitest'
import { PERL_MUTATIONS } from '../../lib/server/mutations/perl.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { runsWithKey, type ConformRun } from '../helpers/run-conform.ts'

const KEY = 'list-shape-hides-nothing-key-0123'
const { serve, conform } = runsWithKey(KEY)

const behaviourOf = (name: string) => PERL_MUTATIONS.find((m) => m.name === name)!.behaviour
const failuresOf = (run: ConformRun, rule: string) => run.results!.rules.find((r) => r.id === rule)!.checks.filter((c) => c.status === 'fail').map((c) => ({ name: c.name, code: c.failure?.code, message: c.failure?.message ?? '' }))

describe('a list with null descriptions hides nothing a create did', () => {
  test('the name "0" refused with 400 fails create-returns-201', async () => {
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: behaviourOf('perl-truth-refuses-zero-name') })))
    expect(run.code, run.stdout).toBe(1)
    expect(failuresOf(run, 'list-returns-category-array').length).toBeGreaterThan(0)
    expect(failuresOf(run, 'create-returns-201')).toEqual([
      expect.objectContaining({ name: expect.stringContaining('a one-character name, "0" → 201'), code: 'UNEXPECTED_STATUS', message: expect.stringMatching(/^POST answered 400 to a 1-character name/) }),
    ])
  }, 60_000)

  test('a body without name answered 400 and stored fails create-rejects-missing-name with REFUSED_CREATE_STORED', async () => {
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: behaviourOf('perl-refused-body-stored') })))
    expect(run.code, run.stdout).toBe(1)
    const stored = failuresOf(run, 'create-rejects-missing-name').filter((f) => f.code === 'REFUSED_CREATE_STORED')
    expect(stored.map((f) => f.name)).toContain('POST /categories with a body without name → refused, so the list that follows does not show it')
    expect(stored[0]!.message).toMatch(/^the POST answered 400 was stored: the list shows/)
  }, 60_000)
})
