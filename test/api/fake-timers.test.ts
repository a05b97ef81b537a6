/**
 * A run under faked timers (a setup file's vi.useFakeTimers(), as many services' vitest setups
 * have) would wait for ever on timers that fire only when a test advances the fake clock: before,
 * it hung past its own deadline until vitest's hook timeout (135 s), saying only "Hook timed out".
 * It is refused at once, naming the timers and the way out; and the way out works: a test file
 * that calls vi.useRealTimers() at its top runs the suite although its setup file faked them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, expect, test, vi } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { entryFiles, mainEntry } from './api-entry.ts'
import { childVitest } from './child-vitest.ts'

const API_KEY = 'fake-timers-key-0b7e4d'
let server: RunningServer
let work: string
beforeAll(async () => {
  server = await startReferenceServer({ apiKey: API_KEY })
  work = mkdtempSync(join(tmpdir(), 'conform-fake-timers-'))
})
afterEach(() => {
  vi.useRealTimers()
})
afterAll(async () => {
  await server?.close()
  if (work) rmSync(work, { recursive: true, force: true })
})

test('runConformance() under fake timers is refused at once, nothing sent', async () => {
  const { runConformance, ConformanceRunError } = await mainEntry()
  const before = server.requests.length
  vi.useFakeTimers()
  const error = await runConformance({ baseUrl: server.baseUrl, apiKey: API_KEY, rule: 'list-returns-200', deadline: 2_000, environment: {} }).catch((e: unknown) => e)
  vi.useRealTimers()
  expect(error).toBeInstanceOf(ConformanceRunError)
  expect((error as Error).message).toMatch(/^the timers are faked \(setTimeout, clearTimeout, setImmediate, setInterval, Date.*\): .*call vi\.useRealTimers\(\) before the run/)
  expect(server.requests.length).toBe(before)
}, 10_000)

test('a setup file fakes the timers: defineConformance() fails its file at once; with vi.useRealTimers() at the top of the file, it runs', async () => {
  /** A folder with a vitest config whose setup file fakes the timers, as a service's may. */
  const project = (name: string) => {
    const folder = join(work, name)
    mkdirSync(folder, { recursive: true })
    writeFileSync(join(folder, 'setup.mjs'), `import { vi } from 'vitest'\nvi.useFakeTimers()\n`)
    writeFileSync(join(folder, 'vitest.config.mjs'), `export default { test: { setupFiles: ['./setup.mjs'], hookTimeout: 60000 } }\n`)
    return folder
  }
  const file = (first: string) =>
    [
      `import { vi } from 'vitest'`,
      `import { defineConformance } from '${entryFiles().vitest}'`,
      first,
      `defineConformance({ baseUrl: '${server.baseUrl}', apiKey: '${API_KEY}', rule: 'list-returns-200', deadline: 5000 })`,
    ].join('\n')
  const keep = { keep: ['setup.mjs', 'vitest.config.mjs'] }

  const started = Date.now()
  const faked = await childVitest(project('faked'), file(''), [], keep)
  expect(faked.code, faked.output).toBe(1)
  expect(faked.junit + JSON.stringify(faked.assertions)).toContain('the timers are faked')
  expect(Date.now() - started).toBeLessThan(30_000)

  const real = await childVitest(project('real'), file('vi.useRealTimers()'), [], keep)
  expect(real.code, real.output).toBe(0)
  expect(real.assertions.filter((a) => a.status === 'passed').length).toBeGreaterThan(1)
}, 90_000)
