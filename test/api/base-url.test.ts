/**
 * `baseUrl` as service engineers hand it over in their own test files: a promise or function that
 * never settles, is rejected or throws, and the things at hand that are not an address (the
 * application, hoping for inject() or supertest's way; the http.Server; what server.address()
 * returns; a Unix socket). Each is answered in the suite's own words, before any request, and a
 * start that hangs is waited for no longer than the run's deadline.
 */
import { createServer, type Server } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { loadConfig } from '../../lib/config/config.ts'
import { mainEntry, entryFiles } from './api-entry.ts'
import { childVitest } from './child-vitest.ts'

const API_KEY = 'base-url-key-4e8a1c'
const options = { apiKey: API_KEY, environment: {}, deadline: 1_500 }
let work: string
let listening: Server
let socketServer: Server
let port: number

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'conform-base-url-'))
  listening = createServer((_req, res) => res.end())
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve))
  port = (listening.address() as { port: number }).port
  socketServer = createServer()
  await new Promise<void>((resolve) => socketServer.listen(join(work, 'service.sock'), resolve))
})
afterAll(async () => {
  await new Promise((resolve) => listening?.close(resolve))
  await new Promise((resolve) => socketServer?.close(resolve))
  if (work) rmSync(work, { recursive: true, force: true })
})

/** What runConformance() rejects with, and how long it took. */
async function refusal(baseUrl: unknown, more: object = {}): Promise<{ error: Error & { cause?: unknown }; ms: number }> {
  const { runConformance } = await mainEntry()
  const started = Date.now()
  const error = await runConformance({ ...options, ...more, baseUrl: baseUrl as string }).then(() => new Error('resolved'), (e: unknown) => e as Error)
  return { error, ms: Date.now() - started }
}

describe('a service whose start does not give an address', () => {
  test('a promise that never settles is waited for until the deadline, then a ConformanceRunError says so', async () => {
    const { ConformanceRunError } = await mainEntry()
    for (const baseUrl of [new Promise(() => {}), () => new Promise(() => {})]) {
      const { error, ms } = await refusal(baseUrl)
      expect(error).toBeInstanceOf(ConformanceRunError)
      expect(error.message).toMatch(/^the promise (given as baseUrl|baseUrl's function returned) gave no address within the run's deadline \(1500 ms\): it never settled/)
      expect(ms).toBeLessThan(5_000)
    }
  }, 20_000)

  test('a function that gives undefined (inject() of a name no globalSetup provided, a hook declared after, a beforeEach): a ConformanceConfigError naming each', async () => {
    const { ConformanceConfigError } = await mainEntry()
    const { error } = await refusal(() => undefined)
    expect(error).toBeInstanceOf(ConformanceConfigError)
    expect(error.message).toMatch(/^baseUrl gave no address: a function given as baseUrl is called when the run starts/)
    // a service started in a beforeEach (found playing a service team): that hook runs after every beforeAll, defineConformance()'s too
    expect(error.message).toContain('a service started in a beforeEach is not up yet, as beforeEach runs later, before each test: start it in a beforeAll')
    expect(error.message).toContain("inject('name') gives undefined when no globalSetup provided that name (project.provide('name', url)): check the name and the config's globalSetup")
  })

  test('an abort while it is waited for ends the wait', async () => {
    const { ConformanceRunError } = await mainEntry()
    const { error, ms } = await refusal(new Promise(() => {}), { deadline: 60_000, signal: AbortSignal.timeout(300) })
    expect(error).toBeInstanceOf(ConformanceRunError)
    expect(error.message).toMatch(/^interrupted by .*before the run started/)
    expect(ms).toBeLessThan(5_000)
  }, 20_000)

  test('a rejected promise and a function that throws: a ConformanceRunError that says when the function is called, the error as its cause', async () => {
    const { ConformanceRunError } = await mainEntry()
    const failed = new Error('listen EADDRINUSE: address already in use 127.0.0.1:31200')
    const rejected = await refusal(Promise.reject(failed))
    expect(rejected.error).toBeInstanceOf(ConformanceRunError)
    expect(rejected.error.message).toBe('the promise given as baseUrl was rejected, Error: listen EADDRINUSE: address already in use 127.0.0.1:31200: the service did not start')
    expect(rejected.error.cause).toBe(failed)
    // the hook that starts the service declared after defineConformance(): its server is not there yet
    const server: Server | undefined = undefined as Server | undefined
    const threw = await refusal(() => `http://127.0.0.1:${(server!.address() as { port: number }).port}/v1`)
    expect(threw.error).toBeInstanceOf(ConformanceRunError)
    expect(threw.error.message).toMatch(/^baseUrl's function threw TypeError: Cannot read properties of undefined \(reading 'address'\): a function given as baseUrl is called when the run starts, in defineConformance\(\)'s beforeAll, after the beforeAll hooks declared before defineConformance\(\) .*declare the hook that starts the service first \(with sequence.hooks: 'parallel' in the vitest config, hooks run at once: hand a promise of the address, which the hook that starts the service resolves\); a service started in a beforeEach is not up yet, as beforeEach runs later, before each test: start it in a beforeAll$/)
    expect(threw.error.cause).toBeInstanceOf(TypeError)
    // the caller's error quoted, never the key in it
    const keyed = await refusal(() => Promise.reject(new Error(`no service for Bearer ${API_KEY}`)))
    expect(keyed.error.message).toBe("the promise baseUrl's function returned was rejected, Error: no service for Bearer [REDACTED]: the service did not start")
    // nor in the cause vitest prints under it, nor a gateway header's secret (--header) in either
    const cause = keyed.error.cause as Error
    expect(`${cause.message}\n${cause.stack}`).not.toContain(API_KEY)
    expect(cause.message).toBe('no service for Bearer [REDACTED]')
    const gatewayToken = 'gw-token-9d2f7a41c3'
    const headed = await refusal(() => { throw new Error(`gateway refused X-Gateway-Token ${gatewayToken}`) }, { header: `X-Gateway-Token: ${gatewayToken}` })
    expect(`${headed.error.message}\n${(headed.error.cause as Error).stack}`).not.toContain(gatewayToken)
  })
})

describe('what a test file has at hand instead of an address', () => {
  test('the application (Express, Fastify), never called or awaited: requests go over HTTP, not inject()', async () => {
    const { ConformanceConfigError } = await mainEntry()
    let called = 0
    const express = Object.assign(() => void called++, { listen: () => listening, use: () => {} })
    const fastify = { listen: async () => `http://127.0.0.1:${port}`, inject: () => {}, server: listening, then: () => void called++ }
    for (const app of [express, fastify, () => express, () => fastify]) {
      const { error } = await refusal(app)
      expect(error).toBeInstanceOf(ConformanceConfigError)
      expect(error.message).toMatch(/^baseUrl gave the application itself \(it has listen\(\)\), not its address: .*not through inject\(\) or supertest; .*Fastify: await app.listen\(\{ port: 0 \}\)/)
    }
    expect((await refusal(fastify)).error.message).toContain(`; it listens now: http://127.0.0.1:${port}/v1`)
    expect(called).toBe(0)
  })

  test('the server, listening or not, and what server.address() returns: the address to give instead', async () => {
    const { ConformanceConfigError } = await mainEntry()
    const cases: [unknown, RegExp][] = [
      [() => listening, new RegExp(`^baseUrl gave a server \\(it has address\\(\\)\\), not its address: give the URL it listens on, http://127\\.0\\.0\\.1:${port}/v1 here`)],
      [Promise.resolve(createServer()), /^baseUrl gave a server that is not listening: start it in a beforeAll declared before defineConformance\(\)/],
      [() => listening.address(), new RegExp(`^baseUrl gave what server.address\\(\\) returns \\(\\{ address, family, port \\}\\), not a URL: give http://127\\.0\\.0\\.1:${port}/v1`)],
      [() => ({ address: '::', family: 'IPv6', port: 8080 }), /give http:\/\/127\.0\.0\.1:8080\/v1/],
      [() => ({ address: '::1', family: 'IPv6', port: 8080 }), /give http:\/\/\[::1\]:8080\/v1/],
      [() => 8080, /^baseUrl gave a number, not an address: give a string or URL ending in \/v1/],
    ]
    for (const [baseUrl, message] of cases) {
      const { error } = await refusal(baseUrl)
      expect(error).toBeInstanceOf(ConformanceConfigError)
      expect(error.message).toMatch(message)
    }
  })

  test('a Unix socket, as the request library writes it or as server.address() gives it: TCP only, for the command line too', async () => {
    const socket = join(work, 'service.sock')
    for (const baseUrl of [`http://unix:${socket}:/v1`, `http+unix://${encodeURIComponent(socket)}/v1`, `unix://${socket}`, socket]) {
      const { error } = await refusal(() => baseUrl)
      expect(error.message).toBe(`baseUrl names the Unix socket ${JSON.stringify(socket)}: the suite connects over TCP only; have the service listen on a loopback port as well (in a test file, port 0: server.listen(0, '127.0.0.1')) and give http://127.0.0.1:PORT/v1`)
    }
    expect((await refusal(() => socketServer)).error.message).toMatch(/^baseUrl names the Unix socket/)
    expect(() => loadConfig(['--base-url', `http://unix:${socket}:/v1`], { CONFORM_API_KEY: API_KEY }, work)).toThrow(/^--base-url names the Unix socket/)
    // a path that holds a terminal's control or a bidi override is quoted with both as escapes (the library's error is printed as it is)
    const { error } = await refusal(() => 'http://unix:/tmp/svc\u009b31m\u202e.sock:/v1')
    expect(error.message).toContain('the Unix socket "/tmp/svc\\u009b31m\\u202e.sock"')
    // a path that is no socket may be a key put where the address goes: still never quoted
    expect(() => loadConfig(['--base-url', '/not/a/socket'], { CONFORM_API_KEY: API_KEY }, work)).toThrow(/^--base-url is not a URL with a scheme \(its 13 characters are not shown/)
  })
})

test('in vitest, a promise of the address rejected while the file is collected fails the run once, in the suite\'s words, never as an unhandled rejection', async () => {
  const testFile = [
    `import { defineConformance } from '${entryFiles().vitest}'`,
    `const apiKey = '${API_KEY}'`,
    "defineConformance({ baseUrl: Promise.reject(new Error('listen EADDRINUSE: address already in use')), apiKey, rule: 'list-returns-200' })",
  ].join('\n')
  const run = await childVitest(join(work, 'rejected'), testFile, ['--reporter=default'])
  expect(run.code).toBe(1)
  expect(run.output).not.toMatch(/Unhandled/i)
  expect(run.output).toContain('the promise given as baseUrl was rejected, Error: listen EADDRINUSE: address already in use: the service did not start')
  expect(run.assertions.length).toBeGreaterThan(0)
  expect(run.assertions.every((a) => a.status === 'skipped')).toBe(true)
}, 120_000)
