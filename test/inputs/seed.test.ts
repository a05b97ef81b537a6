/**
 * --seed repeats a run's inputs: two runs with the same seed send the same POST bodies (apart from
 * the run id in names, which is new each run so that records stay apart), a run with another seed
 * sends other generated values, and every report names the seed.
 */
import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { namePrefix } from '../../lib/result/run-result.ts'
import { numericName } from '../../suites/cases/valid-creates.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

const KEY = `seed-${randomBytes(12).toString('hex')}`

/** A reference server that keeps every create body it receives, in arrival order. */
async function recordingServer(): Promise<{ server: RunningServer; bodies: string[] }> {
  const bodies: string[] = []
  const server = await startReferenceServer({
    apiKey: KEY,
    behaviour: {
      finish: (reply, request) => {
        if (request.operation === 'createCategory') bodies.push(request.rawBody ?? '')
        return reply
      },
    },
  })
  return { server, bodies }
}

describe('--seed', () => {
  const servers: RunningServer[] = []
  const runs: ConformRun[] = []
  afterAll(async () => {
    runs.forEach((r) => r.cleanup())
    await Promise.all(servers.map((s) => s.close()))
  })

  async function run(...args: string[]): Promise<{ bodies: string[]; run: ConformRun }> {
    const { server, bodies } = await recordingServer()
    servers.push(server)
    const result = await runConformInProcess(['--base-url', server.baseUrl, ...args], { env: { CONFORM_API_KEY: KEY } })
    runs.push(result)
    expect(result.code, result.stdout + result.stderr).toBe(0)
    const runId = result.results!.runId
    // arrival order is the network's; the set of bodies is the run's
    // the name of digits (create-numeric-name) is the run's too
    const digits = numericName(namePrefix(runId))
    return { bodies: bodies.map((b) => b.replaceAll(runId, 'RUN').replaceAll(namePrefix(runId), 'RUN').replaceAll(digits, '-00DIGITS')).sort(), run: result }
  }

  test('the same seed sends the same bodies; another seed other generated values; every report names it', async () => {
    const first = await run('--seed', '1234')
    const again = await run('--seed', '1234')
    const other = await run('--seed', '98765')
    expect(first.bodies.length).toBeGreaterThan(30)
    expect(again.bodies).toEqual(first.bodies)
    expect(other.bodies).not.toEqual(first.bodies)
    expect(other.bodies.length).toBe(first.bodies.length)

    const { run: r } = first
    expect(r.results!.options.seed).toBe(1234)
    expect(r.stdout).toContain('seed 1234')
    expect(r.files['summary.md']).toContain('seed `1234`')
    expect(r.files['junit.xml']).toContain('<property name="seed" value="1234"/>')
    expect(r.files['report.html']).toContain('<dt>Seed</dt><dd><code>1234</code>')
  })

  test('without --seed a run draws one and prints it, so it can be repeated', async () => {
    const { run: r } = await run('--max-writes', '4')
    const seed = r.results!.options.seed
    expect(Number.isSafeInteger(seed)).toBe(true)
    expect(r.stdout).toContain(`seed ${seed}`)
  })
})
