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
