/**
 * compare and merge redact with the key of the variable a run names (its options.keyFrom, a fleet's
 * apiKeyEnv): a name read from a results.json another job wrote. A crafted one named CI (`true` in
 * every CI job): compare said "the answer was [REDACTED]" of a
 * server's "the answer was true", each word the variable of a crafted file held hidden. And it named any variable of the job (a CI's secrets are in every
 * job's environment on GitLab) with the runs of a third of its value hidden: a file that
 * quoted 7 known characters and a guess of the 8th each time read, in a report its author could
 * read, which guess was right, the secret a character at a time. Now a variable named like a key
 * (KEY, TOKEN or SECRET in an upper-case name), holding 8 characters or more, is hidden whole (in
 * each of its forms) and no run of it; CONFORM_API_KEY's key is hidden as before.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { compareMain } from '../../lib/cli/compare.ts'
import { mergeMain } from '../../lib/cli/merge.ts'
import type { RunResult } from '../../lib/result/run-result.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import type { RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'keys-runs-name-key-5d2e8a'
const dir = mkdtempSync(join(tmpdir(), 'conform-keys-runs-name-'))
let server: RunningServer
let run: ConformRun

beforeAll(async () => {
  server = await startCase(MUTATIONS.find((m) => m.name === 'missing-key-answers-403')!, { apiKey: KEY })
  run = await runConformInProcess(['--base-url', server.baseUrl, '--confirm', '0', '--rule', 'auth-missing-key-401'], { env: { CONFORM_API_KEY: KEY } })
}, RUN_TIMEOUT_MS)
afterAll(async () => {
  run?.cleanup()
  await server?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** The run's results.json naming `keyFrom`, each failure's message `message`, in a folder of its own. */
function crafted(name: string, keyFrom: string, message: string): string {
  const results = JSON.parse(run.files['results.json']!) as RunResult
  results.options.keyFrom = keyFrom
  for (const c of results.rules.flatMap((rule) => rule.checks)) if (c.failure) c.failure.message = message
  mkdirSync(join(dir, name), { recursive: true })
  writeFileSync(join(dir, name, 'results.json'), JSON.stringify(results))
  return join(dir, name)
}

/** What compare prints and merge writes of two folders, with `env` as the job's environment. */
function outputs(a: string, b: string, env: NodeJS.ProcessEnv, name: string): { said: string; fleetJson: string; fleet: string } {
  let said = ''
  const io = { out: (t: string) => void (said += t), err: (t: string) => void (said += t) }
  compareMain([a, b], io, dir, env)
  const fleet = join(dir, `${name}-fleet`)
  mergeMain([a, b, '--report-dir', fleet], io, dir, env)
  return { said, fleetJson: readFileSync(join(fleet, 'fleet.json'), 'utf8'), fleet: readdirSync(fleet).map((f) => readFileSync(join(fleet, f), 'utf8')).join('\n') }
}

test('a run naming CI (true in every CI job): no word of what compare and merge write is hidden', () => {
  const [a, b] = [crafted('ci-a', 'CI', 'the answer was true'), crafted('ci-b', 'CI', 'the answer was true')]
  const { said, fleetJson, fleet } = outputs(a, b, { CI: 'true', GITHUB_RUN_ATTEMPT: '1' }, 'ci')
  expect(() => JSON.parse(fleetJson)).not.toThrow()
  expect(fleet + said).not.toContain('[REDACTED]')
  expect(said).toContain('the answer was true')
})

test("a run naming another secret of the job: no guess of a run of it is told apart from another, and the whole of it is still hidden", () => {
  const secret = 'github_pat_11AB9cD3eF5gH7'
  // its runs of 8 (a third of it) were hidden: 7 characters known, a guess of the 8th each
  const known = secret.slice(11, 18)
  const guesses = `known ${known}2, ${known}3 and ${known}4; whole ${secret}.`
  const [a, b] = [crafted('pat-a', 'DEPLOY_TOKEN', guesses), crafted('pat-b', 'DEPLOY_TOKEN', guesses)]
  const { said, fleet } = outputs(a, b, { DEPLOY_TOKEN: secret }, 'pat')
  // the fleet's junit.xml quotes each failure
  for (const text of [said, fleet]) {
    expect(text).toContain(`${known}2, ${known}3 and ${known}4`)
    expect(text).not.toContain(secret)
  }
  expect(said).toContain('whole [REDACTED].')
})
