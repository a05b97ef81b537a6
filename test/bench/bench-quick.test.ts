/**
 * `npm run bench -- --quick` keeps working: it exits 0 and writes bench.json with every figure the
 * full benchmark reports. Nothing here judges a time: this machine may be busy with anything.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const reportDir = mkdtempSync(join(tmpdir(), 'conform-bench-test-'))
afterAll(() => rmSync(reportDir, { recursive: true, force: true }))

test('the quick benchmark runs and writes bench.json', { timeout: 300_000 }, async () => {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) if (!/^CONFORM_|^(HTTPS?|NO|ALL)_PROXY$|^GITHUB_/i.test(name)) env[name] = value
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/bench.ts'), '--quick', '--report-dir', reportDir], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => (stdout += chunk))
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const killer = setTimeout(() => child.kill('SIGKILL'), 280_000)
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  clearTimeout(killer)
  expect(code, stderr).toBe(0)
  expect(stdout).toContain('Conformance runs')
  expect(stdout).toContain('Targets')

  const bench = JSON.parse(readFileSync(join(reportDir, 'bench.json'), 'utf8'))
  expect(bench.mode).toBe('quick')
  expect(bench.machine).toMatchObject({ nproc: expect.any(Number), cpu: expect.any(String), node: process.version })

  const { embedded, local, slow, seeded } = bench.conform
  for (const run of [embedded, local, slow, seeded]) {
    expect(run.exitCodes).toEqual([0])
    expect(run.wallMs).toBeGreaterThan(0)
    expect(run.cpuMs).toBeGreaterThan(0)
    expect(run.peakRssMiB).toBeGreaterThan(0)
    expect(run.requests).toBeGreaterThan(0)
  }
  expect(seeded.categories).toBeGreaterThan(0)
  for (const run of [local, slow, seeded]) {
    expect(run.requests).toBeGreaterThan(0)
    expect(run.firstRequestMs).toBeGreaterThan(0)
    expect(run.firstRequestMs).toBeLessThanOrEqual(run.wallMs)
    expect(run.waitShare).toBeGreaterThan(0)
    expect(run.waitShare).toBeLessThanOrEqual(1)
  }
  expect(new Set([embedded, local, slow, seeded].map((r) => r.requests)).size).toBe(1)
  expect(slow).toMatchObject({ delayMs: 100, criticalChain: 2, criticalPathMs: 200, waves: expect.any(Number) })

  expect(bench.lists.map((l: { ids: string }) => l.ids).sort()).toEqual(['big', 'small'])
  for (const list of bench.lists) {
    expect(list.count).toBeGreaterThan(0)
    expect(list.bytes).toBeGreaterThan(0)
    expect(list.bare).toMatchObject({ ms: expect.any(Number), peakRssMiB: expect.any(Number) })
    expect(list.suite).toMatchObject({ ms: expect.any(Number), peakRssMiB: expect.any(Number) })
    expect(Object.keys(list.suite.phases).sort()).toEqual(['idsUnique', 'parse', 'validate'])
    expect(list.ratio).toBeGreaterThan(0)
    expect(list.ratioWithIds).toBeGreaterThanOrEqual(list.ratio)
  }
  expect(bench.client.defaultCap.maxResponseBytes).toBeGreaterThan(0)
  expect(bench.client.raisedCap.error).toBeNull()

  expect(bench.targets.length).toBeGreaterThanOrEqual(4)
  for (const target of bench.targets) expect(target).toMatchObject({ target: expect.any(String), met: expect.any(Boolean) })
})
