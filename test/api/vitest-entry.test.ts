/**
 * `<package>/vitest` in a vitest of its own, as a service's test suite runs it: a child vitest on a
 * two-line test file with defineConformance() against a server of lib/server, its verdicts read
 * from vitest's JSON reporter. Against a conforming variant that sends no WWW-Authenticate, with a
 * testTimeout of 1 ms (a service's, set for its unit tests, once failed passing checks): exit 0,
 * one describe per rule, named by id then title, the advisory rule's tests passed with its note as
 * an annotation (vitest's JUnit reporter shows it). Against a mutation that stores a refused
 * create, with the tests shuffled: exit 1, and the failed tests are those of the rules the command
 * line fails, under their describe. A run its deadline cut never passes: the run's own test fails
 * (on each attempt of a vitest that retries, its notes said once).
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { RUN_TEST_NAME } from '../../lib/api/define-conformance.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { findCase, startCase } from '../../lib/server/server-cases.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { failedRules, runConformInProcess } from '../helpers/run-conform.ts'
import { MATRIX_SEED } from '../mutants/matrix.ts'
import { entryFiles } from './api-entry.ts'
import { childVitest } from './child-vitest.ts'

const BROKEN = 'refused-creates-stored'
let work: string

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'conform-vitest-'))
})
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

/** A test file that starts a server case (a mutation or a variant, by name) and declares the suite against it; then vitest on it. */
async function vitestOn(name: string, serverCase: { table: 'MUTATIONS' | 'VARIANTS'; name: string }, args: string[] = [], options = '') {
  const files = entryFiles()
  const apiKey = randomBytes(18).toString('base64url')
  const table = serverCase.table === 'MUTATIONS' ? files.mutations : files.variants
  const server = `import { startCase, findCase } from '${files.serverCases}'\nimport { ${serverCase.table} } from '${table}'\nconst server = startCase(findCase(${serverCase.table}, '${serverCase.name}'), { apiKey: '${apiKey}' })`
  const testFile = `${server}\nimport { defineConformance } from '${files.vitest}'\ndefineConformance({ baseUrl: server.then((s) => s.baseUrl), apiKey: '${apiKey}', seed: ${MATRIX_SEED}${options} })\n`
  return { ...(await childVitest(join(work, name), testFile, args)), apiKey }
}

describe('defineConformance() in a vitest of its own', () => {
  test('against a conforming variant: exit 0, one describe per rule named by id then title, an advisory note as an annotation, under a testTimeout of 1 ms', async () => {
    // the service's testTimeout is for its unit tests: a check's test, whose annotation waits on vitest's main process, keeps its own
    const run = await vitestOn('conforming', { table: 'VARIANTS', name: 'no-www-authenticate' }, ['--testTimeout=1'])
    expect(run.code, run.output).toBe(0)
    const describes = [...new Set(run.assertions.flatMap((a) => a.ancestorTitles))]
    expect(describes).toEqual(ruleCatalogue().map((rule) => `${rule.id}: ${rule.title}`))
    expect(run.assertions.filter((a) => a.status === 'failed')).toEqual([])
    expect(run.assertions.find((a) => a.title === RUN_TEST_NAME)?.status).toBe('passed')
    const advisory = run.assertions.filter((a) => a.ancestorTitles[0]?.startsWith('advisory-www-authenticate:'))
    expect(advisory.filter((a) => a.status === 'passed').length).toBeGreaterThan(0)
    expect(advisory.filter((a) => a.status === 'failed')).toEqual([])
    expect(run.junit).toMatch(/<property name="notice" value="401 without a WWW-Authenticate header/)
    // the json reporter's meta holds notes where there are some: a test with none has no empty conformance key
    expect(run.assertions.filter((a) => a.meta?.conformance !== undefined && Object.keys(a.meta.conformance).length === 0).map((a) => a.title)).toEqual([])
    expect(run.output + run.junit).not.toContain(run.apiKey)
  }, 150_000)

  test(`against ${BROKEN}, the tests shuffled: exit 1, failed tests under the describes of the rules the command line fails`, async () => {
    const apiKey = randomBytes(18).toString('base64url')
    const server = await startCase(findCase(MUTATIONS, BROKEN)!, { apiKey })
    const cli = await runConformInProcess(['--base-url', server.baseUrl, '--seed', MATRIX_SEED], { env: { CONFORM_API_KEY: apiKey } }).finally(() => server.close())
    cli.cleanup()
    expect(cli.code).toBe(1)

    const run = await vitestOn('broken', { table: 'MUTATIONS', name: BROKEN }, ['--sequence.shuffle', '--sequence.seed=7'])
    expect(run.code, run.output).toBe(1)
    const failed = run.assertions.filter((a) => a.status === 'failed')
    const failedDescribes = [...new Set(failed.map((a) => a.ancestorTitles[0]?.split(':')[0]))].sort()
    expect(failedDescribes).toEqual(failedRules(cli).sort())
    expect(failedDescribes).toContain(findCase(MUTATIONS, BROKEN)!.breaks)
    // each failure reads as the terminal shows it: code, expected, actual, a curl line with the key as a variable
    const stored = failed.find((a) => a.failureMessages[0]?.includes('[REFUSED_CREATE_STORED]'))
    expect(stored?.failureMessages[0]).toMatch(/expected: .+\nactual: .+\n(recurred: .+\n)?reproduce: curl .*\$CONFORM_API_KEY/)
    expect(run.output + run.junit + JSON.stringify(run.assertions)).not.toContain(run.apiKey)
    // the failing checks are the command line's, one test each
    const cliFailed = (cli.results?.rules ?? []).flatMap((r) => r.checks.filter((c) => c.status === 'fail').map((c) => `${r.id} › ${c.name}`)).sort()
    expect(failed.map((a) => `${a.ancestorTitles[0]?.split(':')[0]} › ${a.title}`).sort()).toEqual(cliFailed)
  }, 150_000)

  test('a run cut by its deadline: exit 1, the run\'s own test failed with the reason, the unfinished checks skipped', async () => {
    // a service's vitest that retries a failed test: the run's test fails on each attempt
    const run = await vitestOn('cut', { table: 'VARIANTS', name: 'slow-answers' }, ['--retry=2'], ', deadline: 300')
    expect(run.code, run.output).toBe(1)
    const failed = run.assertions.filter((a) => a.status === 'failed')
    expect(failed.map((a) => a.title)).toEqual([RUN_TEST_NAME])
    // in the words of the test file, which set deadline: 300 and has no --deadline (nor --confirm, which the Writes annotation named)
    expect(failed[0]?.failureMessages[0]).toContain('the run did not finish within 300 ms (deadline)')
    expect(run.junit).toContain('(confirm: 2)')
    expect(`${failed[0]?.failureMessages[0]}${run.junit}`).not.toMatch(/--(deadline|confirm|max-writes|timeout)\b/)
    expect(run.assertions.filter((a) => a.status === 'skipped').length).toBeGreaterThan(400)
    // vitest's JUnit reporter writes <skipped/> bare: each skipped test carries its reason as a property
    const skipped = run.junit.split('<testcase').filter((testCase) => testCase.includes('<skipped/>'))
    expect(skipped.length).toBeGreaterThan(400)
    expect(skipped.filter((testCase) => !/<property name="skipped" value="[^"]+">/.test(testCase))).toEqual([])
    // vitest's JSON reporter writes no annotation and no skip reason, but a test's meta: the reason is there
    const unexplained = run.assertions.filter((a) => a.status === 'skipped' && !a.meta?.conformance?.skipped)
    expect(unexplained.map((a) => a.title)).toEqual([])
    const notes = run.assertions.find((a) => a.title === RUN_TEST_NAME)?.meta?.conformance?.notes ?? []
    expect(notes).toContainEqual(expect.stringContaining('(confirm: 2)'))
    // its last attempt's, each once (an attempt's were added to the earlier ones': three times each)
    expect(notes).toEqual([...new Set(notes)])
  }, 150_000)

  // a green file said nothing of having checked the suite's own server: defineConformance() with no address, as a team wrote it
  test('no baseUrl: the embedded reference server is checked, and said so (stderr, the run\'s test)', async () => {
    const run = await childVitest(join(work, 'embedded'), `import { defineConformance } from '${entryFiles().vitest}'\ndefineConformance({ rule: 'list-returns-200' })\n`)
    expect(run.code, run.output).toBe(0)
    const said = /defineConformance\(\): no baseUrl given \(nor CONFORM_BASE_URL\), so the embedded reference server at http:\/\/127\.0\.0\.1:\d+\/v1 was checked, not a service of yours; give baseUrl/
    // the run's test's annotation (vitest's default reporter shows the same words as the file's stderr)
    expect(run.junit).toMatch(said)
    // its writes went to the embedded server's memory: not a service's write plan (380 POSTs at most, 3800 resends)
    const notes = run.assertions.find((a) => a.title === RUN_TEST_NAME)?.meta?.conformance?.notes ?? []
    expect(notes.filter((note) => note.startsWith('Writes:'))).toEqual([expect.stringMatching(/^Writes: only to the embedded reference server's memory, gone when the run ends/)])
    expect(run.junit).not.toMatch(/at most \d+ POSTs/)
  })
})
