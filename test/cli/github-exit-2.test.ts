/** A run that cannot be made says so under GitHub Actions as an annotation and in the job summary. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { runConform } from '../helpers/run-conform.ts'

describe('exit 2 under GitHub Actions', () => {
  test('the one-line reason also becomes an ::error annotation and the job summary, without the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'step-summary-'))
    const summary = join(dir, 'summary.md')
    const run = await runConform(['--base-url', 'https://petstore.example/v2', '--api-key', 'canary-7f3a9c1e5b'], {
      env: { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    })
    run.cleanup()
    const written = readFileSync(summary, 'utf8')
    rmSync(dir, { recursive: true, force: true })
    expect(written).toMatch(/^## ❌ The conformance run could not be made \(exit 2\)\n\n.*does not end in \/v1/)
    expect(written).not.toContain('canary-7f3a9c1e5b')
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^conform: .*\/v1/)
    expect(run.stdout).toMatch(/^::error title=conformance run could not be made::.*does not end in \/v1/m)
    expect(run.stdout + run.stderr).not.toContain('canary-7f3a9c1e5b')
  })

  test('outside GitHub Actions there is no annotation', async () => {
    const run = await runConform(['--base-url', 'https://petstore.example/v2', '--api-key', 'x'])
    run.cleanup()
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
  })
})
