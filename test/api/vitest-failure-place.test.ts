/**
 * Where a failure of a service's own vitest is placed: at the line of the test file that called
 * defineConformance(). vitest's github-actions reporter (on by default when GITHUB_ACTIONS=true)
 * writes an `::error file=…,line=…` annotation only for a failure with a frame of the test file,
 * and an editor's test explorer shows a failure at its frame; a failed check, the run's own test
 * and a run that could not be made all had none, so a team's pull request showed no annotation for
 * any broken rule. Never the key in them.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { callerFrame, frameShowingNoKey, KEY_NEAR_NOTE } from '../../lib/api/define-conformance.ts'
import { PROJECT_ROOT } from '../../lib/project-root.ts'
import { MATRIX_SEED } from '../mutants/matrix.ts'
import { entryFiles } from './api-entry.ts'
import { childVitest } from './child-vitest.ts'

let work: string
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'conform-vitest-place-'))
})
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

/** The github-actions reporter's error annotations: file, line and the message's first line. */
function errorAnnotations(output: string) {
  return [...output.matchAll(/^::error file=([^,]+),title=([^,\n]*(?:%2C[^,\n]*)*),line=(\d+),column=(\d+)::([^%\n]*)/gm)].map((m) => ({ file: m[1], title: m[2], line: Number(m[3]), message: m[5] }))
}

/**
 * A test file whose last line declares the suite against `baseUrl` (an expression), the key in a
 * variable four lines above it (or, `keyInline`, written in that line), then vitest with the
 * github-actions reporter as GitHub Actions runs it, and `reporters` besides.
 */
async function inGitHubActions(name: string, server: string, baseUrl: string, options: string, { keyInline = false, reporters = [] as string[] } = {}) {
  const files = entryFiles()
  const apiKey = randomBytes(18).toString('base64url')
  const testFile = [
    `const apiKey = '${apiKey}'`,
    `import { startCase, findCase } from '${files.serverCases}'`,
    `import { MUTATIONS } from '${files.mutations}'`,
    `import { defineConformance } from '${files.vitest}'`,
    server,
    // written first in the line: a code frame cut to the terminal's width would still show it
    `defineConformance({ apiKey: ${keyInline ? `'${apiKey}'` : 'apiKey'}, baseUrl: ${baseUrl}, seed: ${MATRIX_SEED}${options} })`,
  ].join('\n')
  const line = testFile.split('\n').length
  const folder = join(work, name)
  const run = await childVitest(folder, testFile, ['--reporter=github-actions', ...reporters], { env: { GITHUB_ACTIONS: 'true' } })
  return { ...run, apiKey, file: join(folder, 'conformance.test.mjs'), line }
}

describe('in GitHub Actions, a failure is annotated at the test file\'s defineConformance() line', () => {
  test('a failed check, with its rule and code', async () => {
    const run = await inGitHubActions('check', 'const server = startCase(findCase(MUTATIONS, \'description-dropped\'), { apiKey })', 'server.then((s) => s.baseUrl)', ", rule: ['create-echoes-fields']")
    expect(run.code, run.output).toBe(1)
    const failed = run.assertions.filter((a) => a.status === 'failed')
    expect(failed.length).toBeGreaterThan(0)
    const annotations = errorAnnotations(run.output)
    // two creates that send one description ("None", "null") fail alike: one fault, placed once (earlierSameFailure)
    const placed = failed.filter((a) => !a.failureMessages.some((m) => m.includes('the same failure as ')))
    expect(annotations.length, run.output).toBe(placed.length)
    for (const annotation of annotations) {
      expect(annotation).toMatchObject({ file: run.file, line: run.line, message: expect.stringMatching(/^ConformanceCheckFailure: \[FIELD_CHANGED\] the created record changed "description"/) })
      expect(annotation.title).toContain('create-echoes-fields')
    }
    expect(run.output).not.toContain(run.apiKey)
    expect(run.output).not.toContain(KEY_NEAR_NOTE)
  }, 60_000)

  test('one fault is one annotation: a check that failed as an earlier one of its rule says so, unplaced, with its own curl line', async () => {
    // every Error record's status wrong: about 50 checks fail with 400 → 40001, about 50 with 401 → 40101
    const run = await inGitHubActions('one-fault', 'const server = startCase(findCase(MUTATIONS, \'error-status-is-app-code\'), { apiKey })', 'server.then((s) => s.baseUrl)', ", rule: ['error-status-matches-http']", { reporters: ['--reporter=default'] })
    expect(run.code, run.output).toBe(1)
    const failed = run.assertions.filter((a) => a.status === 'failed')
    expect(failed.length).toBeGreaterThan(20)
    const annotations = errorAnnotations(run.output)
    expect(annotations.map((a) => a.message).sort(), run.output).toEqual([
      expect.stringMatching(/^ConformanceCheckFailure: \[ERROR_STATUS_MISMATCH\] the Error record says status 40001 in a 400 response$/),
      expect.stringMatching(/^ConformanceCheckFailure: \[ERROR_STATUS_MISMATCH\] the Error record says status 40101 in a 401 response$/),
    ])
    const again = failed.filter((a) => a.failureMessages.some((m) => m.includes('the same failure as ')))
    expect(again.length).toBe(failed.length - 2)
    for (const message of again.flatMap((a) => a.failureMessages)) {
      expect(message).toMatch(/^ConformanceCheckFailure: \[ERROR_STATUS_MISMATCH\] .*\nthe same failure as \d+ other checks of this rule: the answer it judged is shown under the first, "POST \/categories .*"\n/)
      // a body with a character the reports mark goes on curl's input from printf (dash reads no $'…')
      expect(message).toMatch(/\nreproduce: (printf '[^']*' \| )?curl /)
      expect(message).not.toContain('\nresponse: HTTP')
    }
    expect(run.output).not.toContain(run.apiKey)
  }, 60_000)

  test('a key written beside defineConformance() is never shown: the failure is then not placed (vitest would print those lines)', async () => {
    const run = await inGitHubActions('key-inline', 'const server = startCase(findCase(MUTATIONS, \'description-dropped\'), { apiKey })', 'server.then((s) => s.baseUrl)', ", rule: ['create-echoes-fields']", { keyInline: true, reporters: ['--reporter=default'] })
    expect(run.code, run.output).toBe(1)
    expect(run.assertions.filter((a) => a.status === 'failed').length).toBeGreaterThan(0)
    expect(run.output).toContain('[FIELD_CHANGED] the created record changed "description"')
    expect(run.output).not.toContain(run.apiKey.slice(0, 8))
    expect(errorAnnotations(run.output)).toEqual([])
    // and says why, and what to do: with no frame and no annotation, a team took it for the suite's fault
    const firsts = run.assertions.filter((a) => a.status === 'failed' && !a.failureMessages.some((m) => m.includes('the same failure as ')))
    expect(firsts.length).toBeGreaterThan(0)
    for (const a of firsts) expect(a.failureMessages.join('\n')).toContain(`\n${KEY_NEAR_NOTE}`)
  }, 60_000)

  // (here the package is not under node_modules, so vitest would place this error in lib/ whatever
  // its stack says; in a service, where it is, the frame-by-key choice below decides, as tried by hand)
  test('a bad option, refused when the file is collected, with the key written beside defineConformance(): never shown', async () => {
    const run = await inGitHubActions('bad-option-key-inline', 'const server = startCase(findCase(MUTATIONS, \'description-dropped\'), { apiKey })', 'server.then((s) => s.baseUrl)', ', maxWrites: -1', { keyInline: true, reporters: ['--reporter=default'] })
    expect(run.code, run.output).toBe(1)
    expect(run.output).toContain('maxWrites takes a whole number of at least 0, got "-1"; e.g. maxWrites: 0')
    expect(run.output).not.toContain(run.apiKey.slice(0, 8))
  }, 60_000)

  test('a run that could not be made: the service not listening', async () => {
    const server = `import { createServer } from 'node:net'\nconst closed = await new Promise((resolve) => { const s = createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)) }) })`
    const run = await inGitHubActions('unreachable', server, '() => `http://127.0.0.1:${closed}/v1`', '')
    expect(run.code, run.output).toBe(1)
    const annotations = errorAnnotations(run.output)
    expect(annotations.length, run.output).toBe(1)
    expect(annotations[0]).toMatchObject({ file: run.file, line: run.line, message: expect.stringMatching(/^ConformanceRunError: /) })
    expect(run.output).not.toContain(run.apiKey)
  }, 60_000)
})

describe('the frame a failure is placed at', () => {
  test('is the first outside this package and Node, or none', () => {
    const stack = ['Error: declared here', `    at callerFrame (${join(PROJECT_ROOT, 'lib/api/define-conformance.ts')}:1:1)`, `    at defineConformance (${pathToFileURL(join(PROJECT_ROOT, 'entry/vitest.ts')).href}:2:2)`, '    at node:internal/modules/run:2:2', '    at /srv/service/test/conformance.test.ts:9:1'].join('\n')
    expect(callerFrame(stack)).toBe('    at /srv/service/test/conformance.test.ts:9:1')
    expect(callerFrame('Error: declared here')).toBeUndefined()
  })

  test('is dropped when the lines vitest prints around it (three either side) hold the key, whole', () => {
    const file = join(work, 'frame.test.ts')
    const key = 'svc-key-3f9a0c1e'
    writeFileSync(file, ['const a = 1', `const apiKey = '${key}'`, '', '', '', 'defineConformance({ apiKey, baseUrl })', ''].join('\n'))
    const at = (line: number, url = false) => `    at ${url ? pathToFileURL(file).href : file}:${line}:1`
    // the key four lines above: kept; three above, or on the line itself: dropped
    expect(frameShowingNoKey(at(6), [key])).toBe(at(6))
    expect(frameShowingNoKey(at(6, true), [key])).toBe(at(6, true))
    expect(frameShowingNoKey(at(5), [key])).toBeUndefined()
    expect(frameShowingNoKey(at(2), [undefined, key])).toBeUndefined()
    // no key to keep out: the frame as it is; a file that cannot be read: none
    expect(frameShowingNoKey(at(2), [undefined, ''])).toBe(at(2))
    expect(frameShowingNoKey(`    at ${join(work, 'gone.ts')}:1:1`, [key])).toBeUndefined()
  })

  test('is dropped when those lines hold the key escaped or in pieces, as vitest would print them', () => {
    const key = 'svc_key_3f9a0c1e7b2d4a6c'
    const near = (line: string) => {
      const file = join(work, `frame-${Math.random().toString(36).slice(2)}.test.ts`)
      writeFileSync(file, ['import { defineConformance } from "x"', line, 'defineConformance({ apiKey, baseUrl })', ''].join('\n'))
      return frameShowingNoKey(`    at ${file}:3:1`, [key])
    }
    expect(near(`const apiKey = 'svc\\u005fkey\\u005f3f9a0c1e7b2d4a6c'`)).toBeUndefined()
    expect(near(`const apiKey = 'svc_key_3f9a' + '0c1e7b2d4a6c'`)).toBeUndefined()
    expect(near(`const apiKey = process.env.SERVICE_KEY`)).toBeDefined()
  })
})
