/**
 * What a vitest test shows names the settings as the test file writes them: a check's failure said
 * "missing from the list that followed after 200 ms of re-reads (--list-lag 5000)" and the run's
 * test "(--deadline)", flags a test file has not (its options are listLag and deadline: found
 * playing a service team whose unit tests emptied the shared store while the suite ran). The curl
 * line is a command and stays as it is; vitest-entry.test.ts shows it through a child vitest.
 */
import { expect, test } from 'vitest'
import { inTestFileWords } from '../../lib/api/define-conformance.ts'

test('flags become the options object\'s keys, with their values; the curl line is left alone', () => {
  const failure = [
    '[MISSING_FROM_LIST] created category 1 ("cf-ic2hh-Desc-16") is missing from the list that followed after 200 ms of re-reads (--list-lag 5000)',
    'expected: one record with id 1 among the 0 listed',
    "reproduce: curl -i -X GET 'http://127.0.0.1:9/v1/categories' -H \"authorization: Bearer $CONFORM_API_KEY\" --data-binary '--timeout 5'",
  ].join('\n')
  const said = inTestFileWords(failure).split('\n')
  expect(said[0]).toMatch(/re-reads \(listLag: 5000\)$/)
  expect(said[1]).toBe('expected: one record with id 1 among the 0 listed')
  expect(said[2]).toBe(failure.split('\n')[2])
  expect(inTestFileWords('not verified: --read-only created no record')).toBe('not verified: readOnly: true created no record')
  expect(inTestFileWords('Writes: at most 92 POSTs, and at most 2 more for each failed POST to confirm it (--confirm 2)')).toMatch(/\(confirm: 2\)$/)
  // a flag the options object has not is the command line's, and said so
  expect(inTestFileWords('see --list-rules')).toBe("see the command line's --list-rules")
})

test('the reason --update-baseline wrote is quoted as the baseline file holds it', () => {
  // updateBaseline: true wrote the entries; the line then sent a team looking for "recorded by updateBaseline: true", which no file holds
  const written = 'Baseline written: conform-baseline.json (1 known failure, excusing 2 failed checks; 1 of them still say "recorded by --update-baseline": give each its reason (a ticket) and an "expires" date, so that a known failure does not stay known for ever)'
  expect(inTestFileWords(written)).toBe(written)
  expect(inTestFileWords('known failure (baseline): recorded by --update-baseline on 2026-11-27 (on 2 checks of the rule, and on any other that shows it), then --max-writes 3')).toBe('known failure (baseline): recorded by --update-baseline on 2026-11-27 (on 2 checks of the rule, and on any other that shows it), then maxWrites: 3')
})
