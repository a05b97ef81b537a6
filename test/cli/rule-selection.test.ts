/** --rule ID (repeatable) runs only those rules' checks; --list-rules prints the catalogue and sends nothing. */
import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

const KEY = `select-${randomBytes(12).toString('hex')}`
let server: RunningServer
const runs: ConformRun[] = []

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY })
})
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await server?.close()
})

async function conform(...args: string[]): Promise<ConformRun> {
  server.requests.length = 0
  const run = await runConformInProcess(['--base-url', server.baseUrl, ...args], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  return run
}

describe('--rule', () => {
  test('one rule: only that rule is run and reported, everywhere', async () => {
    const run = await conform('--rule', 'list-returns-200')
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.results!.rules.map((r) => r.id)).toEqual(['list-returns-200'])
    expect(run.results!.options.rules).toEqual(['list-returns-200'])
    expect(run.stdout.match(/^ {2}[✓✗!-] \S+/gm)).toEqual(['  ✓ list-returns-200'])
    expect(run.files['junit.xml'].match(/<testsuite /g)).toHaveLength(1)
    expect(run.files['report.html']).toContain('<dt>Rules selected</dt><dd>list-returns-200</dd>')
    expect(server.requests.length).toBeGreaterThan(0)
    // its lists after the run's POSTs are skipped as no selected rule needed a POST: not only "when an answer calls for them"
    expect(run.stdout).toMatch(/checks: 4 passed, 0 failed, 2 skipped \(not needed: sent only when an answer or the rules selected call for them\)/)
  })

  test('repeated: exactly the rules named, in catalogue order', async () => {
    const run = await conform('--rule', 'auth-missing-key-401', '--rule', 'list-returns-200')
    expect(run.code, run.stdout + run.stderr).toBe(0)
    expect(run.results!.rules.map((r) => r.id)).toEqual(['list-returns-200', 'auth-missing-key-401'])
    for (const rule of run.results!.rules) expect(rule.status, rule.id).toBe('pass')
  })

  test('a rule about creating, with --read-only: reported as not verified, and no POST sent', async () => {
    const run = await conform('--rule', 'create-returns-201', '--read-only')
    expect(run.code).toBe(0)
    expect(run.results!.notVerified.map((n) => n.id)).toEqual(['create-returns-201'])
    expect(run.stdout).toContain('Not verified (no check of these rules ran):')
    expect(server.requests.filter((r) => r.method === 'POST')).toEqual([])
  })

  test('an unknown rule is exit 2 with one line pointing to --list-rules, and nothing is sent', async () => {
    const run = await conform('--rule', 'no-such-rule')
    expect(run.code).toBe(2)
    expect(run.stderr).toBe('conform: unknown rule "no-such-rule"; --list-rules prints the catalogue\n')
    expect(server.requests).toEqual([])
  })
})

describe('--list-rules', () => {
  test('prints every rule of the catalogue with its level and section, exits 0 and sends nothing', async () => {
    const run = await conform('--list-rules')
    expect(run.code).toBe(0)
    expect(run.stderr).toBe('')
    const lines = run.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(ruleCatalogue().length)
    ruleCatalogue().forEach((rule, i) => {
      expect(lines[i]).toMatch(new RegExp(`^${rule.id}\\s+${rule.level}\\s+§${rule.section.replace(/[.]/g, '\\.')}\\s+`))
      expect(lines[i].endsWith(rule.title)).toBe(true)
    })
    expect(server.requests).toEqual([])
  })

  test('needs no key and no server', async () => {
    const run = await runConformInProcess(['--list-rules'])
    runs.push(run)
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('list-returns-200')
  })
})
