/**
 * A hand-written Node service that reads its body with `body += chunk` decodes each read on its
 * own: measured on such a service (node:http, JSON.parse, the body checked to be UTF-8 as a whole),
 * which passed every run, since on loopback the suite's bodies arrived in one read. create-unicode
 * now goes out in two pieces split inside its name's Ñ (lib/http/body-pieces.ts), as a network
 * splits any body longer than a segment.
 * - Decoded piece by piece: create-echoes-fields fails on create-unicode, naming the cause.
 * - Taken from its first read (a server on a bare socket): create-returns-201 fails, naming the pieces.
 * - Decoded whole (the reference server): the run passes.
 */
import { afterAll, describe, expect, onTestFinished, test } from 'vitest'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { failedRules, runConform, type ConformRun } from '../helpers/run-conform.ts'
import { unreadBodyRefused } from '../../suites/categories/refused-sending.ts'

const KEY = 'body-pieces-key-0123456789abcdef'
const servers: RunningServer[] = []
afterAll(async () => void (await Promise.all(servers.map((s) => s.close()))))
const serve = (server: RunningServer) => (servers.push(server), server)
/**
 * A run in a process of its own, as the service is in its own: in this one, the client's pause
 * between the pieces may fall in a stretch of the run's own work, when the server here reads
 * nothing, and both pieces then wait for the same read.
 */
async function conform(server: RunningServer, ...args: string[]): Promise<ConformRun> {
  const run = await runConform(['--base-url', server.baseUrl, '--seed', '1', ...args], { env: { CONFORM_API_KEY: KEY } })
  onTestFinished(() => run.cleanup())
  return run
}

describe('a create body that arrives in two reads', () => {
  test('each read decoded on its own: create-echoes-fields fails on the name sent in pieces, and says why', async () => {
    const apart = MUTATIONS.find((m) => m.name === 'body-pieces-decoded-apart')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: apart.behaviour }))
    // a machine this loaded may have the server read both pieces at once (Mutation.timing): up to three runs, until
    // the emoji's create, whose two pieces are small, failed (the long description's 66 KB always came in several reads)
    const emojiFailed = (r: ConformRun) => r.results?.rules.find((x) => x.id === 'create-echoes-fields')?.checks.some((c) => c.status === 'fail' && c.name.includes('emoji, ZWJ sequences')) === true
    let run = await conform(server, '--rule', 'create-echoes-fields')
    for (let attempt = 2; attempt <= 3 && !emojiFailed(run); attempt++) run = await conform(server, '--rule', 'create-echoes-fields')
    expect(failedRules(run), run.stdout).toEqual(['create-echoes-fields'])
    const failed = run.results!.rules.find((r) => r.id === 'create-echoes-fields')!.checks.filter((c) => c.status === 'fail')
    // and the long description of € signs, whose 66 KB the network hands over in several reads, as it does any body longer than a segment;
    // and the chunked create, whose two chunks, cut in the body's middle, split its name's é (valuehunt5)
    expect(failed.map((c) => c.name)).toEqual([expect.stringContaining('emoji, ZWJ sequences'), expect.stringContaining('a precomposed é in the name, sent in chunks'), expect.stringContaining('description of € signs')])
    expect(failed[0]?.failure?.message).toMatch(/sent U\+00D1, got U\+FFFD.*a body read in pieces, each decoded on its own \(Node's `body \+= chunk`/)
    expect(failed[0]?.exchanges[0]?.request.splitAt).toBeGreaterThan(0)
  }, 60_000)

  // measured: a Java service on a bare ServerSocket taking the body from one read() into a 2 KiB buffer; its 400 was named as MySQL's utf8mb3
  test('the body taken from its first read: create-returns-201 fails on the create sent in pieces, naming how it was sent before any store', async () => {
    const first = MUTATIONS.find((m) => m.name === 'body-from-first-read')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: first.behaviour }))
    let run = await conform(server, '--rule', 'create-returns-201')
    for (let attempt = 2; attempt <= 3 && run.code === 0; attempt++) run = await conform(server, '--rule', 'create-returns-201')
    expect(failedRules(run), run.stdout).toEqual(['create-returns-201'])
    const failed = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.find((c) => c.status === 'fail' && c.name.includes('emoji, ZWJ sequences'))
    expect(failed?.failure?.code).toBe('REFUSED_FOR_CONTENT')
    expect(failed?.failure?.message).toMatch(/not their lengths, or how the body was sent: the body went in two pieces, its first \d+ bytes .*read until Content-Length bytes have come/)
  }, 60_000)

  // early13: the same service answering at once, before the second piece is written: the client sees it, and the words say so, not the store
  test('the body taken from its first read and answered at once: the refusal says the answer came before the body was all written, and names no store', async () => {
    const atOnce = MUTATIONS.find((m) => m.name === 'body-from-first-read-answered-at-once')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: atOnce.behaviour }))
    // its chunked create fails too, whenever its pieces were read: up to three runs, until the create in pieces failed
    const inPieces = (run: ConformRun) => run.results?.rules.find((r) => r.id === 'create-returns-201')?.checks.find((c) => c.status === 'fail' && c.name.includes('emoji, ZWJ sequences'))
    let run = await conform(server, '--rule', 'create-returns-201')
    for (let attempt = 2; attempt <= 3 && !inPieces(run); attempt++) run = await conform(server, '--rule', 'create-returns-201')
    expect(failedRules(run), run.stdout).toEqual(['create-returns-201'])
    const failed = inPieces(run)
    expect(failed?.failure?.code).toBe('REFUSED_FOR_CONTENT')
    expect(failed?.failure?.message).toMatch(/yet 201 to plain ASCII of the same sizes \([^)]*\): the answer came before the body was all written: it went in two pieces, its first \d+ bytes .*the answer's head came before the second piece was written, so the service answered on the first piece alone/)
    expect(failed?.failure?.message).not.toMatch(/refused their characters|if the store is why|utf8mb4/)
    expect(failed?.exchanges.at(-1)?.answeredBeforeWritten).toBe(true)
  }, 60_000)

  test('the same behind a VARCHAR(16) name: the short form, in pieces too, is refused, and the pieces are named before any store', async () => {
    const first = MUTATIONS.find((m) => m.name === 'body-from-first-read')!
    const limited = VARIANTS.find((v) => v.name === 'name-limit-16')!
    const server = serve(await startReferenceServer({ apiKey: KEY, behaviour: { ...limited.behaviour, ...first.behaviour } }))
    let run = await conform(server, '--rule', 'create-returns-201')
    for (let attempt = 2; attempt <= 3 && run.code === 0; attempt++) run = await conform(server, '--rule', 'create-returns-201')
    const failed = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.find((c) => c.status === 'fail' && c.name.includes('in values short enough'))
    expect(failed?.failure?.message, run.stdout).toMatch(/in the first create\), expected 201: the body went in two pieces, its first \d+ bytes .*; or if the store is why: /)
  }, 60_000)

  // measured: the Java service looking `Content-Length` up in one case read no body of this client's, and answered 400 "Body is not valid JSON" to every create, with no words
  test('no byte of the body read: create-returns-201 fails on the plain creates, saying the body is JSON and was not what the service parsed', async () => {
    const unread = MUTATIONS.find((m) => m.name === 'content-length-name-in-one-case')!
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: unread.behaviour })), '--rule', 'create-returns-201')
    expect(failedRules(run), run.stdout).toEqual(['create-returns-201'])
    const failed = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.status === 'fail')
    const named = failed.filter((c) => /the answer says the body is not valid JSON, and it is: \d+ bytes of ASCII JSON without an escape, sent whole under their Content-Length, and the service took no create of the run: it parsed other bytes than those sent/.test(c.failure?.message ?? ''))
    expect(named.length, run.stdout).toBeGreaterThanOrEqual(3)
    // a body written otherwise, or sent in chunks, keeps its own words: no claim of what was read
    for (const c of failed.filter((c) => c.name.includes('chunks') || c.exchanges.some((e) => e.request.splitAt !== undefined))) expect(named).not.toContain(c)
  }, 60_000)

  test('decoded whole: the run passes', async () => {
    const server = serve(await startReferenceServer({ apiKey: KEY }))
    const run = await conform(server, '--rule', 'create-echoes-fields')
    expect(failedRules(run), run.stdout).toEqual([])
  }, 60_000)
})

// review26: words that show the body's fields were read are a refusal of what they hold, not of bytes the service never read
describe('a plain create refused as not JSON: the words that say its body went unread', () => {
  const request = { body: JSON.stringify({ name: 'cf-abcde-plain', description: 'plain' }) }
  test('said when the answer calls the body not JSON and names nothing in it', () => {
    expect(unreadBodyRefused(request, '{"code":400,"message":"Body is not valid JSON"}', {})).toMatch(/^the answer says the body is not valid JSON, and it is/)
    expect(unreadBodyRefused(request, '{"error":{"name":"SyntaxError","message":"Unexpected end of JSON input"}}', {})).toBeDefined()
  })
  test('not said when the answer shows its fields were read (Jackson refusing a field it does not know)', () => {
    expect(unreadBodyRefused(request, '{"message":"JSON parse error: Unrecognized field \\"description\\" (class pet.Category), not marked as ignorable"}', {})).toBeUndefined()
    expect(unreadBodyRefused(request, '{"message":"JSON parse error: Cannot deserialize value of type `long` from String"}', {})).toBeUndefined()
  })
})
