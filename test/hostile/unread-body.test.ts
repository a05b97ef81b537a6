/**
 * A service that answers a POST without the key before reading its body (Python's http.server
 * with the key checked first, over HTTP/1.1): the body stays on the kept-alive connection and the
 * server reads it as the next request's line, answering that request 501 or 400 with its own page.
 * The failures fall on whichever request came next, another from run to run; the fault group names
 * the requests whose bodies were left unread, found by the text the pages quote
 * (lib/result/unread-bodies.ts). A page that comes before the next request goes out is a stray
 * answer (lib/result/stray-answers.ts): the run's one problem then names the same POST, and the
 * failures answers read on those connections gave are not verified.
 */
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runConform } from '../helpers/run-conform.ts'

const python = spawnSync('python3', ['--version']).status === 0
let stop: (() => void) | undefined

describe.skipIf(!python)("Python's http.server answering 401 before reading the body", () => {
  afterEach(() => stop?.())

  it('fails, and the finding names the POST answered 401 whose body the next request on its connection met', async () => {
    const key = 'py-early-auth-key-0123456789'
    const server = spawn('python3', [join(import.meta.dirname, '../http/single-threaded-server.py')], { env: { ...process.env, SERVER_KEY: key, EARLY_AUTH: '1' }, stdio: ['ignore', 'pipe', 'inherit'] })
    stop = () => server.kill()
    const port = await new Promise<string>((resolve, reject) => {
      server.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()))
      server.once('exit', (code) => reject(new Error(`python3 exited ${code}`)))
    })
    const run = await runConform(['--base-url', `http://127.0.0.1:${port}/v1`, '--deadline', '60000'], { env: { CONFORM_API_KEY: key }, killAfterMs: 80_000 })
    try {
      expect(run.code, run.stdout).toBe(1)
      const group = /^✗ \w+: \d+ of \d+ requests answered (501|400)[^,]*, to the body of the request before it on its connection, which its answer left unread \(POST \/v1\/categories without a key answered 401/m
      const stray = /stray answers \(.*\): .*\(answers to the body of a request the service answered without reading it, and then read as a request of its own: first POST \/v1\/categories answered 401\)/
      expect(group.test(run.stdout) || stray.test(run.results?.problems.map((p) => p.message).join('\n') ?? ''), run.stdout).toBe(true)
    } finally {
      run.cleanup()
    }
  }, 90_000)
})
