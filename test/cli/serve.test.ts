/** npm run serve: lists the cases, refuses unknown names with exit 2, serves the one asked for. */
import { createServer, type Server } from 'node:net'
import type { AddressInfo } from 'node:net'
import { describe, expect, test } from 'vitest'
import { startReferenceServer } from '../../lib/api/reference-server.ts'
import { serve, type ServeIo } from '../../lib/cli/serve.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { VARIANTS } from '../../lib/server/variants.ts'

function captureIo(): ServeIo & { stdout: string; stderr: string } {
  const io = { stdout: '', stderr: '', out: (t: string) => void (io.stdout += t), err: (t: string) => void (io.stderr += t) }
  return io
}

describe('npm run serve', () => {
  test('--list-mutations prints every mutation with the rule it breaks, and every variant', async () => {
    const io = captureIo()
    expect(await serve(['--list-mutations'], io)).toBe(0)
    for (const m of MUTATIONS) expect(io.stdout).toContain(`${m.name}`)
    expect(io.stdout).toContain('[create-returns-201]')
    for (const v of VARIANTS) expect(io.stdout).toContain(v.name)
  })

  test.each([
    [['--mutation', 'no-such-thing'], 'unknown mutation "no-such-thing"', MUTATIONS[0].name],
    [['--variant', 'no-such-thing'], 'unknown variant "no-such-thing"', VARIANTS[0].name],
    [['--variant', 'slow-answers+no-such-thing'], 'unknown variant "no-such-thing"', VARIANTS[0].name],
    [['--mutation', 'create-answers-200+no-such-thing'], 'unknown mutation "no-such-thing"', MUTATIONS[0].name],
    [['--variant', 'negative-ids+ids-from-2-pow-53'], 'cannot be combined: negative-ids and ids-from-2-pow-53 both set nextId', undefined],
    // said "a variant given twice" and "two variants write" of mutations
    [['--mutation', 'create-answers-200+create-answers-200'], 'the mutations create-answers-200, create-answers-200 cannot be combined: create-answers-200 is given twice\n', undefined],
    [['--mutation', 'created-id-fraction+records-written-by-concatenation'], 'cannot be combined: two of them write the created record as text\n', undefined],
    [['--port', 'eighty'], '--port takes a whole number from 0 to 65535, got "eighty"', undefined],
    [['--port', '70000'], '--port takes a whole number from 0 to 65535, got "70000"', undefined],
    [['--mutation', MUTATIONS[0].name, '--variant', VARIANTS[0].name], 'not both', undefined],
    [['--colour'], "Unknown option '--colour'", undefined],
  ])('%j → exit 2 and a one-line reason', async (argv, reason, listed) => {
    const io = captureIo()
    expect(await serve(argv, io)).toBe(2)
    expect(io.stderr).toContain(reason)
    if (listed) expect(io.stderr).toContain(listed)
    expect(io.stdout).toBe('')
  })

  test('--mutation serves the misbehaving server and prints URL and the conform command with its extra flags; a key given (here in the environment) is never printed', async () => {
    const io = captureIo()
    const server = await serve(['--mutation', 'served-under-v2'], io, { CONFORM_API_KEY: 'test-key-given' })
    if (typeof server === 'number') throw new Error(`exit ${server}: ${io.stderr}`)
    try {
      expect(server.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v2$/)
      expect(io.stdout).toContain(`base URL: ${server.baseUrl}`)
      expect(io.stdout).toContain(`  npm run conform -- --base-url ${server.baseUrl} --allow-any-base-path`)
      expect(io.stdout).not.toContain('test-key-given')
      const answer = await fetch(`${server.baseUrl}/categories`, { headers: { authorization: 'Bearer test-key-given' } })
      expect(answer.status).toBe(200)
    } finally {
      await server.close()
    }
  })

  test('with no case it serves the conforming server with a random key', async () => {
    const io = captureIo()
    const server = await serve([], io)
    if (typeof server === 'number') throw new Error(`exit ${server}: ${io.stderr}`)
    try {
      expect(server.apiKey.length).toBeGreaterThan(20)
      expect(io.stdout).toContain('conforming')
      expect(io.stdout).toContain(`CONFORM_API_KEY='${server.apiKey}' npm run conform -- --base-url ${server.baseUrl}`)
      const answer = await fetch(`${server.baseUrl}/categories`)
      expect(answer.status).toBe(401)
    } finally {
      await server.close()
    }
  })

  test('--variant a+b serves both at once, and prints the arguments of each for the conform command', async () => {
    const io = captureIo()
    const server = await serve(['--variant', 'name-limit-12+one-request-at-a-time'], io, { CONFORM_API_KEY: 'test-key-given' })
    if (typeof server === 'number') throw new Error(`exit ${server}: ${io.stderr}`)
    try {
      expect(io.stdout).toContain('variant name-limit-12+one-request-at-a-time')
      expect(io.stdout).toContain(`--base-url ${server.baseUrl} --timeout 1500`)
      const answer = await fetch(`${server.baseUrl}/categories`, { method: 'POST', headers: { authorization: 'Bearer test-key-given', 'content-type': 'application/json' }, body: '{"name":"thirteen-chars"}' })
      expect([answer.status, answer.headers.get('connection')]).toEqual([400, 'close'])
    } finally {
      await server.close()
    }
  })

  // create-answers-200+create-stores-nothing: the second met the 200 the first wrote, not the 201 it takes a record back on,
  // and the server broke create-returns-201 only, under a banner naming created-in-list too
  test.each([['create-answers-200+create-stores-nothing'], ['create-stores-nothing+create-answers-200']])('--mutation %s: both break theirs, in either order', async (name) => {
    const io = captureIo()
    const server = await serve(['--mutation', name], io, { CONFORM_API_KEY: 'test-key-given' })
    if (typeof server === 'number') throw new Error(`exit ${server}: ${io.stderr}`)
    try {
      const headers = { authorization: 'Bearer test-key-given', 'content-type': 'application/json' }
      const created = await fetch(`${server.baseUrl}/categories`, { method: 'POST', headers, body: '{"name":"kept-or-not"}' })
      expect(created.status).toBe(200)
      const list = (await (await fetch(`${server.baseUrl}/categories`, { headers })).json()) as { name: string }[]
      expect(list.map((r) => r.name)).not.toContain('kept-or-not')
    } finally {
      await server.close()
    }
  })

  // an unknown name is said back: the key pasted in its place was printed, from the environment or --api-key
  test.each([
    [['--mutation', `create-answers-200+${'k3Y'.repeat(8)}`], { CONFORM_API_KEY: 'k3Y'.repeat(8) }],
    [['--api-key', 'k3Y'.repeat(8), '--variant', `${'k3Y'.repeat(8)}+slow-answers`], {}],
    [['--mutation', 'k3Y'.repeat(8)], { CONFORM_API_KEY: 'k3Y'.repeat(8) }],
  ])('%j: the unknown name said, never the key', async (argv, env) => {
    const io = captureIo()
    expect(await serve(argv, io, env)).toBe(2)
    expect(io.stderr).toMatch(/^serve: unknown (mutation|variant) /)
    expect(io.stderr).not.toContain('k3Y'.repeat(8))
  })

  // a team trying a baseline of its two known deviations wanted one server with both: `--mutation a+b` was "unknown mutation"
  test('--mutation a+b serves both deviations at once and names both rules it breaks', async () => {
    const io = captureIo()
    const server = await serve(['--mutation', 'create-answers-200+description-dropped'], io, { CONFORM_API_KEY: 'test-key-given' })
    if (typeof server === 'number') throw new Error(`exit ${server}: ${io.stderr}`)
    try {
      expect(io.stdout).toContain('mutation create-answers-200+description-dropped, breaks create-returns-201, create-echoes-fields')
      const answer = await fetch(`${server.baseUrl}/categories`, { method: 'POST', headers: { authorization: 'Bearer test-key-given', 'content-type': 'application/json' }, body: '{"name":"n","description":"d"}' })
      expect(answer.status).toBe(200)
      expect(await answer.json()).not.toHaveProperty('description')
    } finally {
      await server.close()
    }
  })

  // npm run serve twice, or on a port another server holds: Node's 'Unhandled error event' stack trace and exit 1; the library's startReferenceServer({ port }) crashed the process the same way
  test('a port in use: exit 2 and one line that says so; the library\'s start rejects', async () => {
    const holder: Server = createServer()
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve))
    const { port } = holder.address() as AddressInfo
    try {
      const io = captureIo()
      expect(await serve(['--port', String(port)], io)).toBe(2)
      expect(io.stderr).toBe(`serve: port ${port} is in use (another server, or an npm run serve still running?); give another --port, or leave it out for a free one\n`)
      expect(io.stdout).toBe('')
      await expect(startReferenceServer({ port })).rejects.toMatchObject({ code: 'EADDRINUSE' })
    } finally {
      await new Promise((resolve) => holder.close(resolve))
    }
  })
})
