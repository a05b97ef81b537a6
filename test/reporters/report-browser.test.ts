/**
 * report.html and junit.xml in a real browser: Debian's chromium, headless, no network, a fresh
 * profile. The DOM it builds from report.html has no script and no image (the hostile text stayed
 * text) and shows the verdict and the failures; as laid out, expected and actual keep every
 * space in a monospace font and one cause met by many checks is one card listing them; a
 * screenshot renders; its XML parser accepts junit.xml. Skipped, with the reason in the test name,
 * where /usr/bin/chromium is absent (.ci/run installs it).
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
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

/** Runs in a copy of report.html: what the laid-out page shows, as JSON in <pre id="measured">. */
const MEASURE = `
const values = [...document.querySelectorAll('.expected-actual td')]
const cell = values[0]
const width = (text) => { const s = document.createElement('span'); s.textContent = text; cell.appendChild(s); const w = s.getBoundingClientRect().width; s.remove(); return w }
const padded = values.find((td) => td.textContent.includes('-padded') && td.querySelector('.mark'))
const out = {
  whiteSpace: getComputedStyle(cell).whiteSpace,
  charWidth: width('x'), oneSpace: width('a b'), threeSpaces: width('a   b'), narrow: width('iiii'), wide: width('MMMM'),
  padded: { text: padded.textContent, marks: [...padded.querySelectorAll('.mark')].map((m) => m.textContent) },
  groups: [...document.querySelectorAll('.failure.group')].map((g) => ({
    id: g.id, checks: Number(g.dataset.checks), heading: g.querySelector('h4').textContent,
    items: g.querySelectorAll('ol.instances > li').length, evidence: g.querySelectorAll('ol.instances > li details.exchange').length,
  })),
}
const pre = document.createElement('pre'); pre.id = 'measured'; pre.textContent = JSON.stringify(out); document.body.appendChild(pre)
`

const reportUrl = () => pathToFileURL(join(failing!.run.reportDir, 'report.html')).href

describe('report.html in chromium', () => {
  test.skipIf(absent)(`the DOM chromium builds has no script or image, and shows verdict, failures, rules and ledger${skipped}`, async () => {
    const dom = await chromium('--dump-dom', reportUrl())
    expect(dom).toContain('<header class="verdict fail" id="verdict" data-verdict="fail">')
    expect(dom).toMatch(/<h1>FAIL: \d+ of 21 rules failed<\/h1>/)
    expect(dom).not.toMatch(/<script|<img|<iframe/i)
    expect(dom).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    expect(dom).toContain('<section id="failures">')
    expect(dom).toContain('<tr><th scope="row">Expected</th><td>status 400</td></tr>')
    expect(dom).toContain('<section id="rules">')
    expect(dom).toMatch(/<h2>Records created: \d+<\/h2>/)
    expect(dom).not.toContain(failing!.key)
  })

  test.skipIf(absent)(`as laid out: expected and actual keep every space, monospace, and one cause of many checks is one card${skipped}`, async () => {
    // the report forbids script; a copy without its CSP runs one that measures the laid-out page
    const html = readFileSync(join(failing!.run.reportDir, 'report.html'), 'utf8')
    const measured = join(dir, 'measured.html')
    const withoutCsp = html.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, '')
    expect(withoutCsp).not.toBe(html)
    writeFileSync(measured, withoutCsp.replace('</body>', `<script>${MEASURE}</script></body>`))
    const dom = await chromium('--dump-dom', pathToFileURL(measured).href)
    const found = JSON.parse(/<pre id="measured">(.*?)<\/pre>/s.exec(dom)?.[1].replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&') ?? 'null')
    // whitespace is kept: three spaces take three times the room of one (collapsed, they would take the same)
    expect(found.threeSpaces - found.oneSpace).toBeGreaterThan(1.5 * found.charWidth)
    expect(found.whiteSpace).toBe('pre-wrap')
    // monospace: a narrow and a wide letter take the same room
    expect(found.narrow).toBeCloseTo(found.wide, 1)
    // the padded name the server trimmed: its spaces are marked, two before and 44 after
    expect(found.padded.marks).toEqual(['··', '·'.repeat(44)])
    // CR LF and a tab before the trailing spaces, shown as their escapes (create-whitespace's name)
    expect(found.padded.text).toMatch(/^name: "··cf-[0-9a-z]+-padded\\r\\n\\t·{44}" \(as sent\)$/)
    // the Error record that says 400 in every 401: one card, with each check and its own evidence
    const group = found.groups.find((g: { id: string }) => g.id.startsWith('fail-error-status-matches-http-'))
    expect(group.checks).toBeGreaterThanOrEqual(10)
    expect(group.items).toBe(group.checks)
    expect(group.evidence).toBeGreaterThanOrEqual(group.checks)
    expect(group.heading).toBe(`${group.checks} checks failed the same way`)
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
