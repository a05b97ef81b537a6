/**
 * One report folder used by a fleet, then by a single run (a job switched from --targets to one
 * --base-url, or the default `reports` of both): the run's reports replace the fleet's page. Before,
 * fleet.html and fleet.json stayed beside the run's reports, saying the fleet's PASS next to the
 * run's FAIL, and merge of the folder read the run; the deployments' folders the page listed, with
 * their reports, stayed under the run's, for a merge of its subfolders or a reader to mix with it. A
 * fleet likewise removes an earlier fleet's page
 * before its first request: killed before writing its own (SIGKILL, a CI timeout), it had left the
 * earlier PASS at the top, and merge of the folder read that page's list of deployments (passing
 * without a deployment the new targets added, whose run never finished).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { runConformInProcess } from '../helpers/run-conform.ts'
import type { ServerCase } from '../../lib/server/server-cases.ts'
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

test("a fleet removes an earlier fleet's page before its first request: killed before its own, it leaves no PASS of another run that merge would read", async () => {
  const fleetDir = join(dir, 'fleet')
  const seen: boolean[] = []
  // each request the server gets notes whether an earlier fleet's page is still at the top of the folder
  const watching: ServerCase = { name: 'watching', description: 'the reference server, noting the fleet page at each request', behaviour: { finish: (reply) => (seen.push(existsSync(join(fleetDir, 'fleet.json'))), reply) } }
  const { server, key } = await fleetServer(watching)
  try {
    mkdirSync(fleetDir)
    for (const page of ['fleet.json', 'fleet.md', 'fleet.html', 'junit.xml']) writeFileSync(join(fleetDir, page), '{"verdict":"pass","exitCode":0,"deployments":[]}')
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--base-url', `${server.baseUrl}/`.replace('127.0.0.1', 'localhost'), '--rule', 'list-returns-200', '--report-dir', fleetDir], { env: { CONFORM_API_KEY: key } })
    run.cleanup()
    expect(run.code, run.stderr).toBe(0)
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.filter(Boolean)).toEqual([])
  } finally {
    await server.close()
  }
})

test("a single run into a fleet's report folder removes the reports of the deployments its page listed: no <label>/results.json of the fleet's beside the run's", async () => {
  const { server, key } = await fleetServer()
  const runDir = join(dir, 'single-after-fleet')
  const outside = join(dir, 'outside')
  try {
    mkdirSync(runDir)
    mkdirSync(outside)
    const listed = ['staging', 'prod', 'kept', 'outside-link', 'odd']
    const page = { verdict: 'pass', exitCode: 0, deployments: [...listed.map((label) => ({ label, report: `${label}/report.html` })), { label: 'merged-from-elsewhere', report: '../outside/report.html' }] }
    writeFileSync(join(runDir, 'fleet.json'), JSON.stringify(page))
    for (const label of ['staging', 'prod', 'kept', 'not-listed']) {
      mkdirSync(join(runDir, label))
      for (const file of ['results.json', 'report.html', 'summary.md', 'junit.xml', 'journal.ndjson']) writeFileSync(join(runDir, label, file), '{"verdict":"pass"}')
    }
    // the user's own file in a listed folder, a folder the page does not list, and the page's link to a folder not inside
    writeFileSync(join(runDir, 'kept', 'notes.txt'), 'mine')
    writeFileSync(join(outside, 'results.json'), '{"verdict":"pass"}')
    symlinkSync(outside, join(runDir, 'outside-link'))
    // a listed folder whose results.json cannot be removed as a file: left, and the run goes on
    mkdirSync(join(runDir, 'odd', 'results.json'), { recursive: true })
    for (const file of ['report.html', 'summary.md', 'junit.xml', 'journal.ndjson']) writeFileSync(join(runDir, 'odd', file), '{"verdict":"pass"}')
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--rule', 'list-returns-200', '--report-dir', runDir], { env: { CONFORM_API_KEY: key } })
    run.cleanup()
    expect(run.code, run.stderr).toBe(0)
    expect(existsSync(join(runDir, 'results.json'))).toBe(true)
    expect(['staging', 'prod'].filter((label) => existsSync(join(runDir, label)))).toEqual([])
    expect(readdirSync(join(runDir, 'kept'))).toEqual(['notes.txt'])
    expect(existsSync(join(runDir, 'not-listed', 'results.json'))).toBe(true)
    expect(existsSync(join(outside, 'results.json'))).toBe(true)
    // and the reports beside it removed all the same: one that cannot be removed keeps none of the others
    expect(readdirSync(join(runDir, 'odd'))).toEqual(['results.json'])
  } finally {
    await server.close()
  }
})

test("a fleet into an earlier fleet's folder removes the reports of the deployments that page listed: a label dropped from the targets file leaves no folder for merge DIR/*/ to join", async () => {
  const { server, key } = await fleetServer()
  const fleetDir = join(dir, 'fleet-after-fleet')
  try {
    mkdirSync(fleetDir)
    writeFileSync(join(fleetDir, 'fleet.json'), JSON.stringify({ verdict: 'fail', exitCode: 1, deployments: ['dropped', 'kept'].map((label) => ({ label, report: `${label}/report.html` })) }))
    for (const label of ['dropped', 'kept']) {
      mkdirSync(join(fleetDir, label))
      for (const file of ['results.json', 'report.html', 'summary.md', 'junit.xml', 'journal.ndjson']) writeFileSync(join(fleetDir, label, file), '{"verdict":"fail"}')
    }
    const targets = join(dir, 'one-left.yaml')
    writeFileSync(targets, `deployments:\n  - label: kept\n    baseUrl: ${server.baseUrl}\n    apiKeyEnv: KEPT_KEY\n`)
    const run = await runConformInProcess(['--targets', targets, '--rule', 'list-returns-200', '--report-dir', fleetDir], { env: { KEPT_KEY: key } })
    run.cleanup()
    expect(run.code, run.stderr).toBe(0)
    expect(readdirSync(fleetDir).sort()).toEqual(['fleet.html', 'fleet.json', 'fleet.md', 'junit.xml', 'kept'])
  } finally {
    await server.close()
  }
})
