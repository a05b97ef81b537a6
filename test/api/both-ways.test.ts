/**
 * The programmatic API gives the command line's verdicts: over the reference server and a sample
 * of its mutations and variants, the same run made both ways (the command line's main() in this
 * process, test/helpers/run-conform.ts, and runConformance() of the package's main entry), each
 * against a fresh server of the case with the same --seed, fails, passes and skips the same rules,
 * with the same failure codes. (The vitest front door reads this same result: vitest-entry.test.ts.)
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import type { RunResult } from '../../lib/result/run-result.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { findCase, startCase, type ServerCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { limiter, MATRIX_SEED } from '../mutants/matrix.ts'
import { mainEntry } from './api-entry.ts'

const REFERENCE: ServerCase = { name: 'reference server', description: 'the reference server as it is', behaviour: {} }
const SAMPLE: ServerCase[] = [
  REFERENCE,
  ...['refused-creates-stored', 'error-status-always-400', 'unauthenticated-create-stored', 'created-id-as-string', 'json5-parser'].map((name) => findCase(MUTATIONS, name)!),
  ...['ids-from-2-pow-53', 'rejects-duplicate-names', 'json-with-charset', 'newest-first'].map((name) => findCase(VARIANTS, name)!),
]

/** Each rule's status and the failure codes of its failed checks: what a verdict is made of. */
function verdicts(result: RunResult | undefined): Record<string, string> {
  return Object.fromEntries(
    (result?.rules ?? []).map((rule) => [rule.id, [rule.status, ...new Set(rule.checks.flatMap((c) => (c.status === 'fail' ? [c.failure?.code] : [])))].join(' ')]),
  )
}

async function bothWays(serverCase: ServerCase) {
  const apiKey = randomBytes(18).toString('base64url')
  const once = async <T>(run: (baseUrl: string) => Promise<T>): Promise<T> => {
    const server = await startCase(serverCase, { apiKey })
    try {
      return await run(server.baseUrl)
    } finally {
      await server.close()
    }
  }
  const cli = await once(async (baseUrl) => {
    const run = await runConformInProcess(['--base-url', baseUrl, '--seed', MATRIX_SEED], { env: { CONFORM_API_KEY: apiKey } })
    run.cleanup()
    return run
  })
  const { runConformance } = await mainEntry()
  const api = await once((baseUrl) => runConformance({ baseUrl, apiKey, seed: Number(MATRIX_SEED), environment: {} }))
  return { cli, api }
}

describe('runConformance() and the command line give the same verdicts', () => {
  const limit = limiter(3)
  const runs = new Map(SAMPLE.map((c) => [c.name, limit(() => bothWays(c))]))
  test.each(SAMPLE.map((c) => [c.name, c] as const))('%s', async (name, serverCase) => {
    expect(serverCase.args, 'the sample holds cases run without arguments').toBeUndefined()
    const { cli, api } = await runs.get(name)!
    expect(api.exitCode, cli.stdout).toBe(cli.code)
    expect(verdicts(api)).toEqual(verdicts(cli.results))
    expect(Object.keys(verdicts(api))).not.toHaveLength(0)
    expect(api.problems).toEqual(cli.results?.problems)
  })
})
