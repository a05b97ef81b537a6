/**
 * The documentation cannot drift from the code (issue 20): README.md stays a front door (at most
 * 200 lines), every relative link and #anchor of README.md, ARCHITECTURE.md, test/README.md, the example's README and docs/ resolves,
 * the generated pages are what their generators write, and no import circle runs through lib/ or
 * suites/ (type imports count: an arrow is an arrow).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, test } from 'vitest'
import { BEGIN, BLOCK_HEADINGS, END, PERFORMANCE_PAGE } from '../../scripts/bench/performance-page.ts'
import { rulesPage } from '../../scripts/docs/rules-page.ts'
import { ROOT } from '../helpers/run-conform.ts'

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')
const PAGES = ['README.md', 'ARCHITECTURE.md', 'CHANGELOG.md', 'test/README.md', 'examples/express-service/README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')

const anchorsOf = (markdown: string) => new Set([...markdown.replace(/```[\s\S]*?```/g, '').matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1] as string)))

describe('the documentation', () => {
  test('README.md is at most 200 lines, and its first screen says how to run it against staging in CI with the key in a secret, and the two commands that do everything on a fresh machine', () => {
    const readme = read('README.md')
    expect(readme.split('\n').length).toBeLessThanOrEqual(200)
    const firstScreen = readme.split('\n').slice(0, 45).join('\n')
    expect(firstScreen).toContain('CONFORM_API_KEY')
    expect(firstScreen).toContain('--base-url https://staging')
    expect(firstScreen).toMatch(/secret/)
    expect(firstScreen).toContain('(docs/ci.md)')
    // the developers' guide: on a fresh machine two commands from the README do everything
    expect(firstScreen).toContain('`npm install && npm run conform`')
    expect(firstScreen).toContain('`npm test`')
    // no dated measurement in the front door
    expect(readme).not.toMatch(/\b20\d\d-\d\d-\d\d\b/)
  })

  test('the tarball installed is named where npm pack left it, in the clone: not ./, the folder npm install or npx runs in', () => {
    // "`npm pack` in a clone, then `npm install --save-dev ./petstore-…tgz vitest` in the service" (and ci.md's npx after cd /somewhere/else) stopped with ENOENT there
    for (const page of ['README.md', 'docs/library.md', 'docs/ci.md']) {
      const installs = [...read(page).matchAll(/(?:npm install|npx) [^`\n]*?(\S+\.tgz)/g)].map((m) => m[1])
      expect(installs.length, page).toBeGreaterThan(0)
      expect(installs.filter((tarball) => !/^(\.\.\/|\/)path\/to\//.test(tarball ?? '')), page).toEqual([])
    }
  })

  test.each(PAGES)('every relative link and anchor of %s resolves', (page) => {
    const markdown = read(page).replace(/```[\s\S]*?```/g, '')
    const broken: string[] = []
    for (const [, target] of markdown.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target as string)) continue
      const [path, anchor] = (target as string).split('#') as [string, string | undefined]
      const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), path)
      if (!existsSync(file)) broken.push(`${target}: no such file`)
      else if (anchor && statSync(file).isFile() && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`)
    }
    expect(broken).toEqual([])
  })

  // a merge resolved docs/production.md with a branch's page and dropped these two sentences (review29)
  test("docs/production.md says what a fleet's page shows of a deployment's write budget and of its POSTs in doubt", () => {
    const text = read('docs/production.md').replace(/\s+/g, ' ')
    expect(text).toContain("its line on the fleet's page names the must-rules it verified by fewer checks than a full run")
    expect(text).toContain("fleet.json's `partlyVerifiedRules`")
    expect(text).toContain("The page's writes column gives each deployment's POSTs, records and their prefix, and the POSTs that got no answer or a server fault")
  })

  test('docs/rules.md is what npm run docs writes from the rule catalogue and the case tables', () => {
    expect(read('docs/rules.md'), 'run npm run docs').toBe(rulesPage())
  })

  test('docs/performance.md holds a block a full npm run bench wrote: dated, on a named machine, with every table the bench writes now', () => {
    const page = readFileSync(PERFORMANCE_PAGE, 'utf8')
    const block = page.slice(page.indexOf(BEGIN), page.indexOf(END))
    expect(block, 'run npm run bench (full) to write it').toMatch(/^<!-- [^>]+ -->\n\nMeasured \d{4}-\d\d-\d\d \d\d:\d\d UTC on \d+ × .+, Node v\d+/)
    let at = 0
    for (const heading of BLOCK_HEADINGS) {
      const found = block.indexOf(`\n${heading}\n`, at)
      expect(found, `${heading}: written by an older bench; run npm run bench`).toBeGreaterThan(at)
      at = found
    }
  })

  test('CHANGELOG.md keeps a changelog, and its newest release is the version of package.json that --version prints', () => {
    const changelog = read('CHANGELOG.md')
    const version = (JSON.parse(read('package.json')) as { version: string }).version
    expect(changelog).toMatch(/^# Changelog\n/)
    expect(changelog).toContain('## [Unreleased]')
    expect(changelog).toMatch(new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'))
  })

  test('every line of CHANGELOG.md after its header is a heading, an entry, an entry\'s continuation or blank', () => {
    // an entry inserted inside another split it: "-- `npm run conform` with no address …: its", two new entries, then "  Writes line says …" read as the second's tail
    const stray = read('CHANGELOG.md').split('\n').slice(5).filter((line) => !/^(#{2,3} |- (?!-)\S| {2,}\S|$)/.test(line))
    expect(stray).toEqual([])
  })
})

describe('imports', () => {
  test('no import circle in lib/ or suites/', () => {
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []))
    const graph = new Map<string, string[]>()
    for (const file of [...files('lib'), ...files('suites')]) {
      const source = readFileSync(join(ROOT, file), 'utf8')
      const targets = [...source.matchAll(/^(?:import|export)\b[^'"]*?from '(\.[^']+\.ts)'/gm)].map((m) => relative(ROOT, resolve(dirname(join(ROOT, file)), m[1] as string)))
      graph.set(file, targets)
    }
    const circles: string[] = []
    const state = new Map<string, 'open' | 'done'>()
    const visit = (file: string, path: string[]) => {
      if (state.get(file) === 'done') return
      if (state.get(file) === 'open') return void circles.push([...path.slice(path.indexOf(file)), file].join(' → '))
      state.set(file, 'open')
      for (const target of graph.get(file) ?? []) visit(target, [...path, file])
      state.set(file, 'done')
    }
    for (const file of graph.keys()) visit(file, [])
    expect(circles).toEqual([])
  })
})
