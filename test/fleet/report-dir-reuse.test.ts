/**
 * One report folder used by a fleet, then by a single run (a job switched from --targets to one
 * --base-url, or the default `reports` of both): the run's reports replace the fleet's page. Before,
 * fleet.html and fleet.json stayed beside the run's reports, saying the fleet's PASS next to the
 * run's FAIL, and merge of the folder read the run.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { fleetServer } from './fleet-servers.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-report-dir-reuse-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test("a single run into a fleet's report folder removes the fleet's page: no fleet.json, fleet.md or fleet.html beside its reports", async () => {
  const { server, key } = await fleetServer()
  try {
    for (const page of ['fleet.json', 'fleet.md', 'fleet.html']) writeFileSync(join(dir, page), '{"verdict":"pass","exitCode":0}')
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--rule', 'list-returns-200', '--report-dir', dir], { env: { CONFORM_API_KEY: key } })
    run.cleanup()
    expect(run.code, run.stderr).toBe(0)
    expect(existsSync(join(dir, 'results.json'))).toBe(true)
    expect(['fleet.json', 'fleet.md', 'fleet.html'].filter((page) => existsSync(join(dir, page)))).toEqual([])
  } finally {
    await server.close()
  }
})
