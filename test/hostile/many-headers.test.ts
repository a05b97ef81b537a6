/**
 * A server whose every answer carries 2,500 headers (lib/result/shown-headers.ts). The checks read
 * them all; the reports keep the first 100 of each answer and the ones read by name, and count the
 * rest. Before, a run of the list-as-text-plain mutation behind this front wrote a results.json of
 * 22 MB and a report.html of 6.5 MB, with 395 MB of memory (2.8 MB, 1.5 MB and 205 MB after).
 */
import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { SHOWN_HEADERS } from '../../lib/result/shown-headers.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { manyHeaderName, manyHeadersFront } from './heavy-servers.ts'

const KEY = `headers-${randomBytes(12).toString('hex')}`
const closers: (() => unknown)[] = []
afterAll(async () => {
  for (const close of closers.reverse()) await close()
})

describe('every answer with 2,500 headers', () => {
  test('judged on every header; the reports show the first 100 and the ones read by name, and count the rest', async () => {
    const server = await startReferenceServer({ apiKey: KEY, behaviour: MUTATIONS.find((m) => m.name === 'list-as-text-plain')!.behaviour })
    closers.push(() => server.close())
    const front = await manyHeadersFront(new URL(server.baseUrl).origin, 2_500)
    closers.push(() => front.close())
    const run = await runConformInProcess(['--base-url', front.baseUrl, '--timeout', '5000'], { env: { CONFORM_API_KEY: KEY } })
    closers.push(() => run.cleanup())
    // the checks saw the Content-Type after the 2,500: the mutation's fault, and no other
    expect(run.code, run.stdout).toBe(1)
    expect((run.results?.rules ?? []).filter((r) => r.status === 'fail').map((r) => r.id)).toEqual(['json-content-type'])
    const answers = (run.results?.rules ?? []).flatMap((r) => r.checks.flatMap((c) => c.exchanges)).flatMap((e) => e.response ?? [])
    expect(answers.length).toBeGreaterThan(100)
    for (const answer of answers) {
      const shown = Object.keys(answer.headers)
      // the first 100 in the order they came, then the ones read by name that came after them
      expect(shown.slice(0, SHOWN_HEADERS)).toEqual(Array.from({ length: SHOWN_HEADERS }, (_, i) => manyHeaderName(i)))
      expect(shown.filter((name) => /^[qz][0-9a-z]{2}$/.test(name))).toHaveLength(SHOWN_HEADERS)
      expect(shown).toContain('content-type')
      expect(answer.headersLeftOut).toBeGreaterThanOrEqual(2_400)
    }
    // a list answered in text/plain: its evidence shows that Content-Type, and the count of the rest
    const html = run.files['report.html'] ?? ''
    expect(html).toMatch(/content-type: text\/plain[^<]*\n… and 2,4\d\d more headers \(the reports show the first 100\)/)
    expect(statSync(join(run.reportDir, 'results.json')).size).toBeLessThan(6_000_000)
    expect(statSync(join(run.reportDir, 'report.html')).size).toBeLessThan(3_000_000)
  }, 120_000)
})
