/**
 * The examples of README.md and docs/library.md compile as a service's strict TypeScript compiles
 * them (strict, exactOptionalPropertyTypes, skipLibCheck off, NodeNext), against the declarations
 * the package ships (dist/entry/*.d.ts): `baseUrl: () => process.env.SERVICE_URL` (a function that
 * may give undefined, which the run refuses when it starts) and `apiKey: process.env.CONFORM_API_KEY`
 * (an option given as undefined is one not given). And the mistake the types can catch is caught:
 * `baseUrl: process.env.SERVICE_URL`, read before the service has started.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { distIsCurrent } from '../../build/source-digest.mjs'
import { runNode } from '../helpers/child-process.ts'
import { ROOT } from '../helpers/run-conform.ts'

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc')
let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'conform-types-'))
})
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  },
  include: ['*.ts'],
}

/** tsc on one file importing the shipped declarations by path; its exit code and what it said. */
async function compile(name: string, code: string) {
  const folder = join(work, name)
  rmSync(folder, { recursive: true, force: true })
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify(TSCONFIG))
  const entry = (file: string) => JSON.stringify(join(ROOT, `dist/entry/${file}.js`))
  writeFileSync(join(folder, 'example.ts'), code.replaceAll('<vitest-entry>', entry('vitest')).replaceAll('<main-entry>', entry('index')))
  const run = await runNode([TSC, '-p', folder], { cwd: folder, killAfterMs: 60_000 })
  return { code: run.code, output: run.stdout + run.stderr }
}

test('the documented examples compile under strict TypeScript with exactOptionalPropertyTypes', async (ctx) => {
  if (!distIsCurrent(ROOT)) ctx.skip('dist/ is older than the sources: npm run build (npm test does it first)')
  const examples = `
import { defineConformance, startReferenceServer } from <vitest-entry>
import { runConformance, type Exchange, type RunResult } from <main-entry>
declare const service: { baseUrl: string }
export function readme(): void {
  defineConformance({ baseUrl: () => process.env.SERVICE_URL, apiKey: process.env.CONFORM_API_KEY })
}
export function startedByTheFile(): void {
  defineConformance({ baseUrl: () => service.baseUrl, apiKey: 'test-key', baseline: 'conform-baseline.json', updateBaseline: true })
}
export function someRules(): void {
  // the catalogue's ids are offered; any string compiles (an unknown id is refused when the file is collected)
  defineConformance({ baseUrl: () => service.baseUrl, apiKey: 'test-key', rule: ['create-returns-201', process.env.EXTRA_RULE ?? 'list-returns-200'] })
}
export function tryIt(): void {
  const apiKey = 'try-it-key-7c2e9b'
  const reference = startReferenceServer({ apiKey })
  defineConformance({ baseUrl: reference.then((server) => server.baseUrl), apiKey })
}
export function evidence(result: RunResult): Exchange[] {
  return result.rules.flatMap((rule) => rule.checks.filter((check) => check.status === 'fail').flatMap((check) => check.exchanges))
}
export async function inATest(signal: AbortSignal, apiKey: string): Promise<string[]> {
  const result = await runConformance({ baseUrl: service.baseUrl, apiKey, deadline: 60_000, signal })
  return [...result.problems.map((problem) => problem.message), ...result.rules.filter((rule) => rule.level === 'must' && rule.status === 'fail').map((rule) => rule.id)]
}
export async function noReportFiles(): Promise<RunResult> {
  return runConformance({ baseUrl: service.baseUrl, reportDir: false })
}
export async function fromCode(): Promise<RunResult> {
  return runConformance({ baseUrl: 'https://staging.example/v1', apiKey: process.env.CONFORM_API_KEY, readOnly: true, signal: AbortSignal.timeout(60_000) })
}
`
  const run = await compile('examples', examples)
  expect(run.output).toBe('')
  expect(run.code).toBe(0)
}, 60_000)

test('reportDir: true is a type error, as it is refused when it runs (false: no report files)', async (ctx) => {
  if (!distIsCurrent(ROOT)) ctx.skip('dist/ is older than the sources: npm run build (npm test does it first)')
  const run = await compile('report-dir-true', `import { runConformance } from <main-entry>\nvoid runConformance({ reportDir: true })\n`)
  expect(run.code).not.toBe(0)
  expect(run.output).toMatch(/example\.ts\(2,\d+\): error TS2\d+/)
}, 60_000)

test('baseUrl read from the environment when the file is collected is a type error, as it is refused when it runs', async (ctx) => {
  if (!distIsCurrent(ROOT)) ctx.skip('dist/ is older than the sources: npm run build (npm test does it first)')
  const run = await compile('mistake', `import { defineConformance } from <vitest-entry>\ndefineConformance({ baseUrl: process.env.SERVICE_URL, apiKey: 'k' })\n`)
  expect(run.code).not.toBe(0)
  expect(run.output).toMatch(/example\.ts\(2,\d+\): error TS2\d+/)
}, 60_000)
