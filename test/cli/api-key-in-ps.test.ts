/**
 * --api-key or --header on the command line: ps (/proc/PID/cmdline, which every user of the machine may read)
 * shows the running command without the key. bin/conform.mjs writes a title over the arguments once
 * Node has copied them; a run of minutes showed the key to `ps aux` the whole time. Linux only (/proc).
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server, type Socket } from 'node:net'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { cleanEnv, ROOT } from '../helpers/child-process.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'

const servers: Server[] = []
const sockets: Socket[] = []
afterAll(() => {
  sockets.forEach((socket) => socket.destroy())
  servers.forEach((server) => server.close())
})

const cases = [
  { given: '--api-key KEY', args: (key: string) => ['--api-key', key] },
  { given: '--api-key=KEY', args: (key: string) => [`--api-key=${key}`] },
  // a gateway's own secret (an API management subscription key, a signed assertion): as secret as the key
  { given: "--header 'X-Jwt-Assertion: VALUE'", args: (key: string) => ['--header', `X-Jwt-Assertion: ${key}`] },
  { given: "--header='Ocp-Apim-Subscription-Key: VALUE'", args: (key: string) => [`--header=Ocp-Apim-Subscription-Key: ${key}`] },
]

test.skipIf(!existsSync('/proc/self/cmdline')).each(cases)('a secret given with $given is not in the running process\'s command line', async ({ args: secretArgs }) => {
  // a port that takes connections and answers nothing: the run is under way, waiting on it
  let connected: () => void = () => {}
  const firstConnection = new Promise<void>((done) => (connected = done))
  const server = createServer((socket) => {
    sockets.push(socket.on('error', () => {}))
    connected()
  })
  servers.push(server)
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const port = (server.address() as { port: number }).port
  const key = `ps-canary-${Math.random().toString(36).slice(2)}-7Qx`
  const args = [join(ROOT, 'bin/conform.mjs'), '--base-url', `http://127.0.0.1:${port}/v1`, ...secretArgs(key), '--report-dir', join(scratchDir('conform-ps-'), 'reports'), '--timeout', '20000']
  const child = spawn(process.execPath, args, { cwd: ROOT, env: cleanEnv({ CONFORM_API_KEY: 'ps-test-key-b81e0c' }), stdio: 'ignore' })
  const exited = new Promise((done) => child.on('exit', done))
  try {
    await firstConnection
    const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'latin1')
    expect(cmdline).not.toContain(key)
    expect(cmdline).not.toContain('ps-canary')
    expect(cmdline).toContain('petstore-conform')
  } finally {
    child.kill('SIGKILL')
    await exited
  }
})
