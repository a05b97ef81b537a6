/**
 * A curl line run with the real curl, in dash and in bash, against a server that keeps the raw bytes
 * it gets: what arrives is the request the suite recorded. A body starting with `@` went as
 * `--data-binary '@…'`, which curl reads as the name of a file to send (the line sent the text of
 * /etc/hostname, or of whatever file the body named); a header with no value went as `-H 'x-a: '`,
 * which curl reads as "send no x-a" (a missing header where the suite sent an empty one).
 */
import { execFile, spawnSync } from 'node:child_process'
import { createServer, type AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { toCurl } from '../../lib/http/curl.ts'
import type { RecordedRequest } from '../../lib/http/exchange.ts'

const KEY = 'raw-bytes-Key-7f3a9c'
const curlInstalled = spawnSync('curl', ['--version']).status === 0
const SHELLS = ['dash', 'bash'].filter((shell) => spawnSync(shell, ['-c', 'true']).status === 0)

/** The raw bytes (head, then body) a server got from `request`'s curl line, run in `shell`. */
async function receivedFrom(request: Omit<RecordedRequest, 'url'>, shell: string): Promise<{ head: string; body: Buffer }> {
  const got: Buffer[] = []
  const server = createServer((socket) => {
    socket.on('data', (data) => {
      got.push(data)
      const all = Buffer.concat(got)
      const end = all.indexOf('\r\n\r\n')
      if (end < 0) return
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(all.subarray(0, end).toString('latin1'))?.[1] ?? 0)
      if (all.length >= end + 4 + length) socket.end('HTTP/1.1 204 No Content\r\nconnection: close\r\n\r\n')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const line = toCurl({ ...request, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/categories` })
  try {
    await new Promise<void>((resolve, reject) => execFile(shell, ['-c', `${line} -s -o /dev/null`], { env: { PATH: process.env.PATH, CONFORM_API_KEY: KEY } }, (e) => (e ? reject(e) : resolve())))
  } finally {
    server.close()
  }
  const all = Buffer.concat(got)
  const end = all.indexOf('\r\n\r\n')
  return { head: all.subarray(0, end).toString('latin1'), body: all.subarray(end + 4) }
}

describe.skipIf(!curlInstalled)('the bytes a curl line sends, in dash and bash', () => {
  test.each(SHELLS)('%s: a body starting with @ is sent as it is, not the file it names', async (shell) => {
    for (const body of ['@/etc/hostname', '@-', '@{"name":"at"}\n']) {
      const { body: sent } = await receivedFrom({ method: 'POST', headers: { 'content-type': 'application/json' }, body }, shell)
      expect(sent.toString('hex')).toBe(Buffer.from(body, 'utf8').toString('hex'))
    }
  })
  test.each(SHELLS)('%s: a header with no value is sent, empty; the key stays the variable', async (shell) => {
    const { head } = await receivedFrom({ method: 'GET', headers: { 'x-empty': '', 'x-api-key': '$CONFORM_API_KEY', accept: 'application/json' } }, shell)
    expect(head).toMatch(/\r\nx-empty: ?\r\n/i)
    expect(head).toContain(`\r\nx-api-key: ${KEY}\r\n`)
  })
})
