/**
 * A key named after its service (petstore-local-api-key) shares a run the reports hide with a base
 * URL of the same words: every report shows the base URL with [REDACTED] in its place. The run
 * says why, once, before any request, without the key; a base URL that shares nothing is no note.
 */
import { afterAll, expect, test } from 'vitest'
import { KEY_IN_BASE_URL, KEY_IN_OWN_WORDS } from '../../lib/config/api-key.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { closedPort } from '../hostile/hostile-servers.ts'

const KEY = 'petstore-local-api-key'
const runs: ConformRun[] = []
afterAll(() => runs.forEach((run) => run.cleanup()))

test.each([
  ['in its path', (port: number) => `http://127.0.0.1:${port}/petstore-local-api/v1`, true],
  ['nowhere', (port: number) => `http://127.0.0.1:${port}/v1`, false],
])('a base URL that holds the key\'s words %s: the note says why it is shown redacted', async (_where, baseUrl, noted) => {
  const port = await closedPort()
  const run = await runConformInProcess(['--base-url', baseUrl(port), '--timeout', '1000', '--deadline', '4000'], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.stderr.includes(`conform: note: ${KEY_IN_BASE_URL}\n`), run.stderr).toBe(noted)
  expect(run.stderr + run.stdout).not.toContain(KEY)
  if (noted) expect(run.files['results.json']).toContain('[REDACTED]/v1')
})

test('in a fleet, the deployment whose base URL holds the key\'s words is noted, by its label', async () => {
  const [one, two] = [await closedPort(), await closedPort()]
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${one}/petstore-local-api/v1`, '--base-url', `http://127.0.0.1:${two}/v1`, '--timeout', '1000', '--deadline', '4000'], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  expect(run.stderr.split('\n').filter((line) => line.endsWith(KEY_IN_BASE_URL)), run.stderr).toHaveLength(1)
  expect(run.stderr + run.stdout).not.toContain(KEY)
})

test('in a fleet whose every base URL holds the key\'s words, the note is one line naming them all', async () => {
  const ports = [await closedPort(), await closedPort(), await closedPort()]
  const run = await runConformInProcess([...ports.flatMap((port) => ['--base-url', `http://127.0.0.1:${port}/petstore-local-api/v1`]), '--timeout', '1000', '--deadline', '4000'], { env: { CONFORM_API_KEY: KEY } })
  runs.push(run)
  const notes = run.stderr.split('\n').filter((line) => line.endsWith(KEY_IN_BASE_URL))
  expect(notes, run.stderr).toHaveLength(1)
  for (const port of ports) expect(notes[0]).toContain(`127.0.0.1-${port}-`)
  expect(run.stderr + run.stdout).not.toContain(KEY)
})

// a gateway key given as a secret --header is hidden as the key is: the note named the API key, which the URL did not hold
test('a base URL that holds a secret header\'s words, and none of the key\'s: the note names the header\'s value, not the key alone', async () => {
  const port = await closedPort()
  const gateway = 'petstore-gateway-local-9c41'
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${port}/petstore-gateway-local/v1`, '--header', `X-Gateway-Key: ${gateway}`, '--timeout', '1000', '--deadline', '4000'], { env: { CONFORM_API_KEY: 'Zk3q9XbT1wYp0aLmN8cR7vHs2dUe4gJi' } })
  runs.push(run)
  expect(run.stderr).toContain(`conform: note: ${KEY_IN_BASE_URL}\n`)
  expect(KEY_IN_BASE_URL).toContain('secret header')
  expect(run.stderr + run.stdout).not.toContain(gateway)
})

// a key that is a word the reports write themselves hid it there too (auth-missing-[REDACTED]-401, application/[REDACTED]), and nothing said why
test.each([
  ['key', true],
  ['petstore', true],
  ['json', true],
  // a property of results.json, which keeps its names (lib/reporters/json-report.ts) where the other reports hide the word
  ['verdict', true],
  ['exitCode', true],
  ['sk_live_4eC39HqLyjWDarjtT1zdp7dc', false],
  ['petstore-local-api-key', false],
])('a key %s: a note that the reports hide it in their own words too, when it is one of them', async (key, noted) => {
  const port = await closedPort()
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${port}/v1`, '--timeout', '1000', '--deadline', '4000'], { env: { CONFORM_API_KEY: key } })
  runs.push(run)
  expect(run.stderr.includes(`conform: note: ${KEY_IN_OWN_WORDS}\n`), run.stderr).toBe(noted)
})

test('in a fleet, a key that is a word the reports write: the note once', async () => {
  const [one, two] = [await closedPort(), await closedPort()]
  const run = await runConformInProcess(['--base-url', `http://127.0.0.1:${one}/v1`, '--base-url', `http://127.0.0.1:${two}/v1`, '--timeout', '1000', '--deadline', '4000'], { env: { CONFORM_API_KEY: 'token' } })
  runs.push(run)
  expect(run.stderr.split('\n').filter((line) => line.endsWith(KEY_IN_OWN_WORDS)), run.stderr).toHaveLength(1)
})
