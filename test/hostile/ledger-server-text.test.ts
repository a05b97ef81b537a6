/**
 * The ledger's rows found in a list (lib/result/ledger-from-list.ts) are the service's own text: the
 * names and descriptions it lists under the run's prefix, for creates it refused. A service that
 * stores each refused create with text of its own after the name (a log line, an echo of the key,
 * markup, a terminal control, a CI log command) puts that text in every report that shows the ledger.
 * It is data there as anywhere: the key hidden, no markup, no control, no command.
 */
import { afterAll, expect, test } from 'vitest'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, jsonReply, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'

const KEY = 'ledger-text-key-5c0e9b71d2a4f8e6'
const HOSTILE = ` \u001b[31mRED\u001b[0m\u001b]0;title\u0007 <script>alert(1)</script><img src=x onerror=alert(2)> ##vso[task.setvariable variable=PWNED]yes\n::error::PWNED\u00a0\n::warning::PWNED key=${KEY}`

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

test('a service that stores refused creates with hostile text: the ledger rows show it inert, and the key nowhere', { timeout: RUN_TIMEOUT_MS }, async () => {
  const stored: { id: number; name: string; description?: string }[] = []
  const server = await httpServer((req, res, seen) => {
    const json = (status: number, body: unknown) => jsonReply(res, status, body)
    if (seen.headers.authorization !== `Bearer ${KEY}`) return json(401, { code: 'unauthorized', message: 'no', status: 401 })
    if (req.method === 'GET') return json(200, req.url === '/v1/categories' ? stored : {})
    let body: { name?: unknown; description?: unknown } = {}
    try {
      body = (JSON.parse(seen.body) ?? {}) as typeof body
    } catch {
      return json(400, { code: 'bad_json', message: 'not JSON', status: 400 })
    }
    // every create with a string name is stored, with the service's text after it, and refused
    if (typeof body.name === 'string') stored.push({ id: stored.length + 1, name: `${body.name}${HOSTILE}`, ...(typeof body.description === 'string' ? { description: `${body.description}${HOSTILE}` } : {}) })
    json(400, { code: 'invalid', message: 'refused', status: 400 })
  })
  servers.push(server)
  const run = await runConform(['--base-url', server.baseUrl, '--confirm', '0', '--list-lag', '0'], { env: { CONFORM_API_KEY: KEY, TF_BUILD: 'True' }, killAfterMs: 100_000 })
  runs.push(run)
  expect(run.code, run.stderr).toBe(1)
  // the rows are there: the records the service stored though it refused them
  const found = run.results!.ledger.filter((row) => row.foundInList !== undefined)
  expect(found.length).toBeGreaterThan(10)
  expect(found.some((row) => row.name.includes('RED'))).toBe(true)
  const outputs: Record<string, string> = { stdout: run.stdout, stderr: run.stderr, ...run.files }
  for (const [name, text] of Object.entries(outputs)) {
    expect(text.includes(KEY), `${name} holds the key`).toBe(false)
    for (const line of text.split('\n')) expect(/^[\s\u0085\u00a0]*::/u.test(line), `${name}: ${JSON.stringify(line).slice(0, 120)}`).toBe(false)
  }
  // what a step prints (the terminal, cat of a report): no Azure or TeamCity command inside a line
  // either; results.json and journal.ndjson keep the service's text as it came, as data
  for (const name of ['stdout', 'stderr', 'junit.xml', 'report.html', 'summary.md']) expect(outputs[name]?.toLowerCase(), name).not.toMatch(/##(vso|teamcity)\[/)
  // no terminal control reaches the terminal, no markup the page
  for (const name of ['stdout', 'stderr']) expect(outputs[name], name).not.toMatch(/[\u001b\u0007]/)
  const html = run.files['report.html'] ?? ''
  expect(html).toContain('RED')
  expect(html).not.toMatch(/<script>alert|<img src=x/i)
  expect(run.files['summary.md'] ?? '').not.toMatch(/<script>alert|<img src=x/i)
})
