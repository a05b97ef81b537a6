/**
 * review52: the words stackhunt11 added show server text from headers (a cache's X-Cache value,
 * Cache-Control, a declared charset): a service that puts the key, a workflow command and markup in
 * them has them shown as every other server text is, the key redacted, the command not run, the
 * markup not markup.
 */
import { readFileSync, rmSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import type { Reply } from '../../lib/server/reference-server.ts'
import { conformingBehaviour } from '../../lib/server/reference-server.ts'
import { startCase, type Mutation } from '../../lib/server/server-cases.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'

const KEY = 'hostile-cache-key-0123456789abcdef'
const HOSTILE = `HIT ${KEY} ::error::pwned <img src=x onerror=alert(1)>`
const servers: { close(): Promise<void> }[] = []
afterAll(async () => void (await Promise.all(servers.map((s) => s.close()))))

async function runAgainst(mutation: Mutation) {
  const server = await startCase(mutation, { apiKey: KEY })
  servers.push(server)
  const dir = mkdtempSync(join(tmpdir(), 'hostile-summary-'))
  const summary = join(dir, 'summary.md')
  const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', '1', '--list-lag', '300', '--confirm', '0'], {
    env: { CONFORM_API_KEY: KEY, GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
  })
  const all = [run.stdout, run.stderr, readFileSync(summary, 'utf8'), ...Object.values(run.files)].join('\n')
  rmSync(dir, { recursive: true, force: true })
  run.cleanup()
  return { run, all }
}

describe('server text in the cache words', () => {
  test('a list kept by a cache by its URL alone, its X-Cache holding the key, a workflow command and markup', async () => {
    const cached = new WeakMap<object, { at: number; reply: Reply }>()
    const { run, all } = await runAgainst({
      name: 'hostile-x-cache',
      breaks: 'auth-missing-key-401',
      code: 'UNEXPECTED_STATUS',
      description: 'a cache by URL alone whose X-Cache holds the key',
      behaviour: {
        authorize: (authorization, key, op, cookie) => op === 'listCategories' || conformingBehaviour.authorize(authorization, key, op, cookie),
        finish: (reply, request, store) => {
          if (request.operation !== 'listCategories' || reply.status !== 200) return reply
          const hit = cached.get(store)
          if (hit) return { ...hit.reply, headers: { ...hit.reply.headers, age: '7', 'x-cache': HOSTILE, 'cache-control': `public, max-age=60, ${KEY}` } }
          cached.set(store, { at: Date.now(), reply: { ...reply, body: Array.isArray(reply.body) ? [...(reply.body as unknown[])] : reply.body } })
          return reply
        },
      },
    })
    expect(run.code, run.stdout).toBe(1)
    expect(run.stdout).toMatch(/a cache in front answered them \(Age: 7; x-cache: HIT \[REDACTED\]/)
    expect(all).not.toContain(KEY)
    expect(all).not.toMatch(/^::error::pwned/m)
    expect(run.files['report.html']).not.toContain('<img src=x')
  }, 90_000)

  test('UTF-16 bodies declared in a charset that holds the key', async () => {
    const { run, all } = await runAgainst({
      name: 'hostile-charset',
      breaks: 'list-returns-category-array',
      code: 'NOT_JSON',
      description: 'UTF-16 bodies under a charset holding the key',
      behaviour: {
        finish: (reply) => ({ ...reply, headers: { ...reply.headers, 'content-type': `application/json;charset=${KEY}::error::pwned<b>x</b>` } }),
        transport: { delayMs: 0, chunked: false, connectionClose: false, encodeText: (text) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]) },
      },
    })
    expect(run.code, run.stdout).toBe(1)
    expect(all).toMatch(/declares charset=\[REDACTED\]::error::pwned/)
    expect(all).not.toContain(KEY)
    expect(run.files['report.html']).not.toContain('<b>x</b>')
  }, 90_000)
})
