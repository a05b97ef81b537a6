/**
 * A create answered 201 with another create's record: the newest row read back after the insert
 * (SELECT … ORDER BY id DESC LIMIT 1), as measured on PHP under php-fpm on MariaDB, where creates
 * run at once. It was one fault told three ways: create-echoes-fields, said to be values "bound by
 * their place in the body" where the empty description's create was answered with the empty name's
 * record, ids-unique (two answers share the id of the record both got) and, on some runs,
 * created-in-list. It is told once now, as another create's record, with the change.
 */
import { expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { findCase } from '../../lib/server/server-cases.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'another-creates-record-key-0123'
const { serve, conform } = runsWithKey(KEY)

test("a create answered with the row stored before its own fails create-echoes-fields alone, named as another create's record", async () => {
  const mutation = findCase(MUTATIONS, 'create-answers-the-row-before-its-own')!
  const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: mutation.behaviour })))
  expect(run.code, run.stdout).toBe(1)
  expect(failedRules(run), run.stdout).toEqual(['create-echoes-fields'])
  const messages = (run.results?.rules ?? []).flatMap((r) => r.checks.map((c) => c.failure?.message ?? '')).filter((m) => m !== '')
  expect(messages.filter((m) => /the answer is another create's record \(its "(name|description)" holds cf-\w{5}-[a-z0-9-]+, which this body did not send\)/.test(m)).length).toBeGreaterThan(10)
  expect(messages.join('\n')).not.toMatch(/by their place in the body/)
}, 60_000)
