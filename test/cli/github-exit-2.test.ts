/** A run that cannot be made writes no report, so under GitHub Actions it says so as an annotation. */
import { describe, expect, test } from 'vitest'
import { runConform } from '../helpers/run-conform.ts'

describe('exit 2 under GitHub Actions', () => {
  test('the one-line reason also becomes an ::error annotation, without the key', async () => {
    const run = await runConform(['--base-url', 'https://petstore.example/v2', '--api-key', 'canary-7f3a9c1e5b'], {
      env: { GITHUB_ACTIONS: 'true' },
    })
    run.cleanup()
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
