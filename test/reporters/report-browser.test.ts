/**
 * report.html and junit.xml in a real browser: Debian's chromium, headless, no network, a fresh
 * profile. The DOM it builds from report.html has no script and no image (the hostile text stayed
 * text) and shows the verdict and the failures; a screenshot renders; its XML parser accepts
 * junit.xml. Skipped, with the reason in the test name, where /usr/bin/chromium is absent (.ci/run
 * installs it).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { failingRun, type FailingRun } from './failing-run.ts'

const CHROMIUM = '/usr/bin/chromium'
const absent = !existsSync(CHROMIUM)
const skipped = absent ? ` (skipped: ${CHROMIUM} is absent; apt-get install chromium, as .ci/run does)` : ''
if (absent) console.warn(`test/reporters/report-browser.test.ts: browser tests skipped, ${CHROMIUM} is absent`)

const dir = mkdtempSync(join(tmpdir(), 'conform-browser-'))
let failing: FailingRun | undefined

async function chromium(...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${join(dir, 'profile')}`,
      ...args,
    ],
    { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
  )
  return stdout
}

beforeAll(async () => {
  if (!absent) failing = await failingRun()
}, 120_000)
afterAll(async () => {
  await failing?.close()
  rmSync(dir, { recursive: true, force: true })
})

const reportUrl = () => pathToFileURL(join(failing!.run.reportDir, 'report.html')).href

describe('report.html in chromium', () => {
  test.skipIf(absent)(`the DOM chromium builds has no script or image, and shows verdict, failures, rules and ledger${skipped}`, async () => {
    const dom = await chromium('--dump-dom', reportUrl())
    expect(dom).toContain('<header class="verdict fail" id="verdict" data-verdict="fail">')
    expect(dom).toMatch(/<h1>FAIL: \d+ of 19 rules failed<\/h1>/)
    expect(dom).not.toMatch(/<script|<img|<iframe/i)
    expect(dom).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(dom).toContain('<section id="failures">')
    expect(dom).toContain('<tr><th scope="row">Expected</th><td>status 400</td></tr>')
    expect(dom).toContain('<section id="rules">')
    expect(dom).toMatch(/<h2>Records created: \d+<\/h2>/)
    expect(dom).not.toContain(failing!.key)
  })

  test.skipIf(absent)(`a screenshot renders${skipped}`, async () => {
    const png = join(dir, 'report.png')
    await chromium('--window-size=1280,2400', `--screenshot=${png}`, reportUrl())
    const bytes = readFileSync(png)
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    expect(bytes.readUInt32BE(16)).toBe(1280)
    expect(bytes.length).toBeGreaterThan(50_000)
  })

  test.skipIf(absent)(`chromium's XML parser accepts junit.xml${skipped}`, async () => {
    const dom = await chromium('--dump-dom', pathToFileURL(join(failing!.run.reportDir, 'junit.xml')).href)
    expect(dom).not.toContain('parsererror')
    expect(dom).toContain('testsuites')
  })
})
