/**
 * A fleet of four deployments whose servers echo keys spelled out one character at a time (review28
 * of perf29's filters in front of the spread and pieces steps, which switch on from three keys):
 * each server puts its own key and the next deployment's into every refusal's body and a header of
 * every answer, one character a JSON string, with a space or a soft hyphen between them, its letters
 * and digits only, in upper case. Keys of the shapes that differ most in what the filters see:
 * base64url (- and _), a canary with + / =, one of 8 characters, one of words. No key in any output.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { Reply, RequestInfo, StoredCategory } from '../../lib/server/reference-server.ts'
import { filesUnder, keyLeaks } from '../helpers/key-leaks.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { canaryKey, fleetServer, type FleetServer } from './fleet-servers.ts'

const KEYS = ['q7Z-pX_4mK2-vR9_nB5wT8', canaryKey(), 'Zk83hQ2m', 'correct-horse-battery-staple']
const spelled = (key: string) => [JSON.stringify([...key]), [...key].join(' '), [...key].join('\u00ad'), key.replace(/[^A-Za-z0-9]/g, '').toUpperCase()]
const scratch = mkdtempSync(join(tmpdir(), 'conform-spread-echo-'))
const servers: FleetServer[] = []
let run: ConformRun | undefined

afterAll(async () => {
  run?.cleanup()
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all(servers.map((s) => s.server.close()))
})

beforeAll(async () => {
  for (const [i, key] of KEYS.entries()) {
    const echoed = [...spelled(key), ...spelled(KEYS[(i + 1) % KEYS.length]!)]
    const finish = (reply: Reply, _request: RequestInfo, _store: StoredCategory[]): Reply => ({
      ...reply,
      headers: { ...reply.headers, 'x-debug-token': echoed[1]! },
      body: reply.status === 401 && reply.body !== null && typeof reply.body === 'object' ? { ...(reply.body as object), detail: echoed.join(' | ') } : reply.body,
    })
    servers.push(await fleetServer({ name: `echo-${i}`, description: 'echoes keys spelled out', behaviour: { finish } }, key))
  }
  const targets = join(scratch, 'targets.yaml')
  writeFileSync(targets, `deployments:\n${servers.map((s, i) => `  - label: d${i}\n    baseUrl: ${s.server.baseUrl}\n    apiKeyEnv: KEY_${i}\n`).join('')}`)
  run = await runConformInProcess(['--targets', targets, '--seed', '1'], { env: Object.fromEntries(KEYS.map((k, i) => [`KEY_${i}`, k])) })
}, 120_000)

test('no key, nor its letters and digits in a row, in any file or output', () => {
  if (run === undefined) throw new Error('no run')
  expect(run.code, run.stderr.slice(0, 400)).not.toBe(2)
  const texts = { ...filesUnder(run.reportDir), stdout: run.stdout, stderr: run.stderr }
  expect(keyLeaks(texts, KEYS)).toEqual([])
  for (const [where, text] of Object.entries(texts)) {
    const letters = text.replace(/[^A-Za-z0-9]/g, '').toLowerCase()
    for (const key of KEYS) expect(letters.includes(key.replace(/[^A-Za-z0-9]/g, '').toLowerCase().slice(0, -1)), `${where}`).toBe(false)
  }
  // the servers did echo: a refusal's body is in the reports
  expect(Object.values(texts).some((t) => t.includes('[REDACTED]'))).toBe(true)
})
