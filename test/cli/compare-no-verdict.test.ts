/**
 * `compare A B` where a run reached no verdict (exit 2): production run with a key it refused,
 * beside a staging run that passed. It judged nothing, so it "fails nothing that A did not", and
 * compare exited 0 on it: an acceptance engineer read staging and production as alike. It exits 2
 * now, and its last line says which run reached no verdict and why.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { compareMain } from '../../lib/cli/compare.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { RUN_TIMEOUT_MS } from '../hostile/expect-run.ts'

const KEY = 'compare-no-verdict-key-3f81a2'
let server: RunningServer
let passed: ConformRun
let refused: ConformRun

beforeAll(async () => {
  server = await startReferenceServer({ apiKey: KEY })
  ;[passed, refused] = await Promise.all(
    [KEY, 'another-environments-key-0d4c'].map((key) => runConformInProcess(['--base-url', server.baseUrl, '--confirm', '0'], { env: { CONFORM_API_KEY: key } })),
  )
}, RUN_TIMEOUT_MS)
afterAll(async () => {
  ;[passed, refused].forEach((run) => run?.cleanup())
  await server?.close()
})

function compare(a: string, b: string, ...more: string[]): { code: number; out: string } {
  let out = ''
  const code = compareMain([a, b, ...more], { out: (t) => void (out += t), err: (t) => void (out += t) }, tmpdir())
  return { code, out }
}

test('a pass beside a run whose key was refused (exit 2): compare exits 2, not 0, and says B reached no verdict and why', () => {
  expect(passed.code).toBe(0)
  expect(refused.code).toBe(2)
  const { code, out } = compare(passed.reportDir, refused.reportDir)
  expect(code, out).toBe(2)
  expect(out).toMatch(/^B fails nothing that A did not.*, but B reached no verdict \(the server refused the key: all \d+ requests sent with it were answered 401\): what it did not judge is not compared: exit 2$/m)
  expect(out).not.toMatch(/exit 0$/m)
  // the other way round, A's
  const reversed = compare(refused.reportDir, passed.reportDir)
  expect(reversed.code).toBe(2)
  expect(reversed.out).toMatch(/, but A reached no verdict \(the server refused the key: .*\): what it did not judge is not compared: exit 2$/m)
  // two runs that reached their verdicts: exit 0 as ever
  expect(compare(passed.reportDir, passed.reportDir).code).toBe(0)
})

test("why a run reached no verdict is a run's words: in the terminal no control sequence, in the Markdown no markup", () => {
  const dir = mkdtempSync(join(tmpdir(), 'compare-no-verdict-words-'))
  try {
    const result = JSON.parse(readFileSync(join(refused.reportDir, 'results.json'), 'utf8'))
    result.problems[0].message = 'the server said \u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007 <img src=x onerror=alert(1)> [more](https://evil.example)'
    const edited = join(dir, 'results.json')
    writeFileSync(edited, JSON.stringify(result))
    const markdown = join(dir, 'comparison.md')
    const { code, out } = compare(passed.reportDir, edited, '--output', markdown)
    expect(code, out).toBe(2)
    expect(out).not.toContain('\u001b')
    expect(out).toMatch(/, but B reached no verdict \(the server said .*click.*\): what it did not judge is not compared: exit 2$/m)
    const md = readFileSync(markdown, 'utf8')
    expect(md).not.toContain('\u001b')
    expect(md).not.toContain('<img')
    expect(md).not.toContain('[more](https')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
