/**
 * What an acceptance engineer states after a run against production: exactly which POSTs went and
 * how each was answered. The reports listed the records created and counted the POSTs ("5 POSTs
 * sent, of at most 5"), but which 5, with which bodies and answers, only results.json's journal
 * said: a run under --max-writes 5 created 2 records and sent 3 POSTs that summary.md and
 * report.html named nowhere. Now the Sent/Writes line gives their answers, and summary.md and
 * report.html list every POST that went out (probe, answer, body); a read-only run lists none.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'
import { findCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'

const KEY = 'posts-sent-key-3f9a1c7e'
const runs: ConformRun[] = []
let server: RunningServer | undefined
afterAll(async () => {
  runs.forEach((r) => r.cleanup())
  await server?.close()
})

async function run(...args: string[]): Promise<ConformRun> {
  server ??= await startReferenceServer({ apiKey: KEY })
  const made = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '3', ...args], { env: { CONFORM_API_KEY: KEY } })
  runs.push(made)
  return made
}

test(
  'under --max-writes 5: the Sent line gives the answers, and summary.md and report.html list each POST that went out',
  async () => {
    const made = await run('--max-writes', '5')
    expect(made.code, made.stdout).toBe(0)
    const sent = made.results!.journal!.filter((e) => e.method === 'POST' && e.onWire)
    expect(sent).toHaveLength(5)
    expect(made.stdout).toMatch(/^Sent: 5 POSTs sent, of at most 5 \(--max-writes 5\), answered 400 ×3, 201 ×2; /m)
    const summary = made.files['summary.md']!
    const html = readFileSync(join(made.reportDir, 'report.html'), 'utf8')
    expect(summary).toContain('### POSTs sent: 5')
    expect(html).toContain('<h2>POSTs sent: 5</h2>')
    for (const post of sent) {
      expect(summary).toMatch(new RegExp(`\\| \\d \\| ${post.probe} \\| ${post.status} \\|`))
      expect(html).toContain(`<code>${post.probe}</code></td><td>${post.status}</td>`)
    }
    for (const text of [summary, html, made.stdout]) expect(text).not.toContain(KEY)
  },
  RUN_TIMEOUT_MS,
)

test(
  'a --max-writes above the plan is the bound the Sent line names, as given',
  async () => {
    // it said "116 POSTs sent, of at most 90 (--max-writes 90)" of a run given --max-writes 200: a bound exceeded, and a value nobody gave
    const made = await run('--max-writes', '200')
    expect(made.code, made.stdout).toBe(0)
    expect(made.stdout).toMatch(/^Sent: \d+ POSTs sent, of at most 200 \(--max-writes 200\), answered /m)
    expect(made.results!.options.maxWrites).toBe(200)
  },
  RUN_TIMEOUT_MS,
)

test(
  '--read-only: no POST listed, and the terminal says none went',
  async () => {
    const made = await run('--read-only')
    expect(made.code).toBe(0)
    expect(made.stdout).toContain('no POST sent')
    // where a CI log ends: that nothing was written, and that the pass leaves the rules about creating unverified
    const unverified = made.results!.rules.filter((r) => r.level === 'must' && r.status === 'skip').length
    expect(unverified).toBeGreaterThan(0)
    expect(made.stdout).toMatch(/^Sent: read-only \(--read-only\): no POST sent, nothing created; /m)
    expect(made.stdout.trimEnd().split('\n').at(-1)).toBe(`Verdict: PASS (exit 0): every must-rule that ran passed; ${unverified} must-rules not verified (listed above)`)
    expect(made.files['summary.md']).not.toContain('### POSTs sent')
    expect(readFileSync(join(made.reportDir, 'report.html'), 'utf8')).not.toContain('id="posts"')
  },
  RUN_TIMEOUT_MS,
)

test(
  'a POST sent again (a 503 waited out) is one row of report.html, its attempts counted and their answers in order',
  async () => {
    // a run behind a limit of 3 POSTs a second had a row for each of 1,213 attempts of 84 requests: 969 KB
    const once = await startReferenceServer({ apiKey: KEY, behaviour: findCase(VARIANTS, 'unavailable-503-once')!.behaviour })
    try {
      const made = await runConformInProcess(['--base-url', once.baseUrl, '--rule', 'create-rejects-missing-body', '--confirm', '0'], { env: { CONFORM_API_KEY: KEY } })
      runs.push(made)
      expect(made.code, made.stdout).toBe(0)
      const sent = made.results!.journal!.filter((e) => e.method === 'POST' && e.onWire)
      expect(sent.map((e) => [e.probe, e.attempt ?? 1, e.status])).toEqual([['empty-body', 1, 503], ['empty-body', 2, 400]])
      const html = readFileSync(join(made.reportDir, 'report.html'), 'utf8')
      expect(html).toContain('<h2>POSTs sent: 2</h2>')
      expect(html).toContain('(1 request, 1 attempt again; each attempt is a line of the journal)')
      expect(html).toContain('<code>empty-body</code> (2 attempts)</td><td>503, then 400</td>')
    } finally {
      await once.close()
    }
  },
  RUN_TIMEOUT_MS,
)
