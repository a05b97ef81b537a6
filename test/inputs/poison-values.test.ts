/**
 * The values a store may accept and then be unable to give back (suites/cases/poison-values.ts):
 * each class is in the bodies as its source describes it, they cost at most 8 POSTs and follow
 * every refusal in the write order, and a list broken after them names the create and the class
 * (suites/categories/poisoned-list.ts), proven on built responses.
 */
import { describe, expect, test } from 'vitest'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { CUT_BYTES_DESCRIPTION, POISON_CREATES, POISON_DEPTH } from '../../suites/cases/poison-values.ts'
import { MALFORMED_BODIES } from '../../suites/cases/malformed-json.ts'
import { createText, DESCRIPTION_FLOOR, NAME_FLOOR, VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { POST_PROBE_ORDER, POST_PROBES } from '../../suites/cases/write-order.ts'
import type { CreateProbe } from '../../suites/categories/probes.ts'
import { expectListNotPoisoned, expectListShapeNotPoisoned } from '../../suites/categories/poisoned-list.ts'
import { makeResponse, makeTransportError } from '../checks/make-response.ts'
import { mariadbKey, sqlServerKey } from '../../lib/server/variants/sql-stores.ts'
import { collatedName } from '../../lib/checks/collated-names.ts'

const PREFIX = 'cf-ab12c'
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
const sentText = (key: string) => {
  const c = POISON_CREATES.find((p) => p.key === key)!
  return { body: c.body(PREFIX), text: createText(c, c.body(PREFIX), 1, PREFIX) }
}
const depthOf = (value: unknown): number => (value !== null && typeof value === 'object' ? 1 + Math.max(0, ...Object.values(value).map(depthOf)) : 0)

describe('the classes', () => {
  test('lone surrogates go out as escapes: grammatical JSON text that is plain ASCII and has no UTF-8 form once read', () => {
    const { body, text } = sentText('create-lone-surrogates')
    expect(LONE_SURROGATE.test(body.name) && LONE_SURROGATE.test(body.description ?? '')).toBe(true)
    expect(text).toContain('\\ud800')
    expect(text).toMatch(/^[\x20-\x7e]*$/)
    expect(JSON.parse(text)).toEqual(body)
  })

  // in the description too: the long description, which held U+0000 before, is refused by a VARCHAR(255) description,
  // and a service that ends descriptions at it passed (mutation descriptions-cut-at-nul-behind-description-limit-255)
  test('U+0000 in a name and a description short enough for the shortest columns the suite supports, so a length limit cannot hide it', () => {
    const { body } = sentText('create-nul')
    expect(body.name).toContain('\u0000')
    expect(body.description).toContain('\u0000')
    expect(Buffer.byteLength(body.name)).toBeLessThanOrEqual(NAME_FLOOR)
    expect(Buffer.byteLength(body.description ?? '')).toBeLessThanOrEqual(DESCRIPTION_FLOOR)
  })

  test('a cut by bytes at the limits columns and substr calls use falls inside a character', () => {
    const bytes = Buffer.from(CUT_BYTES_DESCRIPTION)
    for (const limit of [64, 100, 255, 256, 1_000]) {
      if (limit < bytes.length) expect((bytes[limit] & 0xc0) === 0x80, `${limit} bytes`).toBe(true)
    }
    expect(bytes.length).toBeGreaterThan(255)
  })

  test('noncharacters and private use characters, in both planes', () => {
    const { body } = sentText('create-noncharacters')
    const text = body.name + (body.description ?? '')
    for (const c of ['\ufdd0', '\ufffe', '\uffff', '\u{1fffe}', '\u{10ffff}', '\ue000', '\uf8ff', '\u{f0000}', '\u{10fffd}']) expect(text).toContain(c)
  })

  test(`the deep value nests ${POISON_DEPTH} levels in a field NewCategory does not name, past orjson's 255 and MongoDB's 100`, () => {
    const { text } = sentText('create-deep-value')
    const sent = JSON.parse(text) as { extra: unknown }
    expect(depthOf(sent.extra)).toBe(POISON_DEPTH)
    expect(POISON_DEPTH).toBeGreaterThan(255)
  })

  test('every class is a create of its own in the valid creates, and each says its class for the failure that names it', () => {
    expect(VALID_CREATES.filter((c) => c.holds).map((c) => c.key)).toEqual(POISON_CREATES.map((c) => c.key))
    for (const c of POISON_CREATES) expect(c.holds, c.key).toBeTruthy()
    for (const c of POISON_CREATES) expect(c.mayRefuse, `${c.key}: refusing it with 400 is the service's freedom`).toBeTruthy()
  })
})

describe('what they cost', () => {
  const poisonKeys = [...POISON_CREATES.map((c) => c.key), 'malformed-surrogate-bytes']

  test('at most 8 POSTs for the new classes', () => {
    expect(POST_PROBE_ORDER.filter((key) => poisonKeys.includes(key)).length).toBeLessThanOrEqual(8)
    expect(MALFORMED_BODIES.some((c) => c.key === 'malformed-surrogate-bytes')).toBe(true)
  })

  test('the creates follow every refusal and come before the follow-ups, so a small --max-writes keeps the POSTs it had', () => {
    const at = (key: string) => POST_PROBE_ORDER.indexOf(key)
    const firstPoison = Math.min(...POISON_CREATES.map((c) => at(c.key)))
    const lastRefusal = Math.max(...POST_PROBES.filter((p) => !p.creates && !p.followUp).map((p) => at(p.key)))
    const firstFollowUp = Math.min(...POST_PROBES.filter((p) => p.followUp).map((p) => at(p.key)))
    expect(firstPoison).toBeGreaterThan(lastRefusal)
    expect(Math.max(...POISON_CREATES.map((c) => at(c.key)))).toBeLessThan(firstFollowUp)
  })
})

describe('a list broken after them names the create and its class', () => {
  const probe = (key: string, result: ReturnType<typeof makeResponse>): CreateProbe => {
    const c = POISON_CREATES.find((p) => p.key === key) ?? VALID_CREATES[0]
    return { case: c, label: c.label, sent: async () => c.body(PREFIX), probe: async () => result }
  }
  const created = () => makeResponse({ status: 201, method: 'POST', body: { id: 1, name: 'n' } })
  const refused = () => makeResponse({ status: 400, method: 'POST', body: { code: 'invalid', message: 'no', status: 400 } })
  const failure = async (list: ReturnType<typeof makeResponse>, before: ReturnType<typeof makeResponse> | undefined, creates: CreateProbe[], judge = expectListNotPoisoned) => {
    try {
      await judge(list, before, creates)
      return undefined
    } catch (error) {
      if (error instanceof ConformanceFailure) return error
      throw error
    }
  }
  const ok = () => makeResponse({ body: [{ id: 1, name: 'dog' }, { id: 2, name: 'cat' }] })
  const broken = () => makeResponse({ status: 500, body: { code: 'internal', message: 'x', status: 500 } })

  test('the one create of such a value the service accepted, with its class; the refused ones are not named', async () => {
    const error = await failure(broken(), ok(), [probe('create-lone-surrogates', created()), probe('create-nul', refused()), probe('create-described', created())])
    expect(error?.code).toBe('SERVER_ERROR')
    expect(error?.message).toMatch(/^the list answered 500 .*after the create of create-lone-surrogates \(answered 201\) holding lone surrogates .*; before it, 200 with 2 categories\./)
    expect(error?.message).not.toContain('create-nul')
    expect(error?.exchanges).toHaveLength(3)
  })

  test('a create answered with a fault is named first, the other accepted ones beside it', async () => {
    const fault = makeResponse({ status: 500, method: 'POST', body: { code: 'internal', message: 'x', status: 500 } })
    const error = await failure(broken(), ok(), [probe('create-lone-surrogates', fault), probe('create-nul', created()), probe('create-deep-value', makeTransportError())])
    expect(error?.message).toMatch(/after the creates of create-lone-surrogates \(answered 500\) holding .*; and create-deep-value \(answered nothing\) holding .*; before them, 200 with 2 categories \(the service also took create-nul/)
  })

  test('several accepted: all named, as one of them or more', async () => {
    const error = await failure(broken(), ok(), [probe('create-cut-bytes', created()), probe('create-noncharacters', created())])
    expect(error?.message).toMatch(/after the creates of create-cut-bytes .*; and create-noncharacters .* \(one of them or more is a value the store cannot give back\); before them, 200 with 2 categories\./)
  })

  test('a list that held no category before may break on any record: the failure says so, and names the values beside it', async () => {
    const error = await failure(broken(), makeResponse({ body: [] }), [probe('create-lone-surrogates', created())])
    expect(error?.code).toBe('SERVER_ERROR')
    expect(error?.message).toMatch(
      /^the list answered 500 .*after the run's creates, and was whole before them, when it held no category: it breaks on any record, or on a value it cannot give back, such as the one of create-lone-surrogates \(answered 201\) holding lone surrogates/,
    )
  })

  test("a 200 whose body is no longer the array (PHP's echo json_encode() printing nothing) keeps its code, and names the create", async () => {
    const shape = (list: ReturnType<typeof makeResponse>, before: ReturnType<typeof makeResponse> | undefined, creates: readonly CreateProbe[]) =>
      expectListShapeNotPoisoned(list, before, creates, 'list-returns-200 reports the status')
    const error = await failure(makeResponse({ body: '' }), ok(), [probe('create-cut-bytes', created())], shape)
    expect(error?.code).toBe('NOT_JSON')
    expect(error?.message).toMatch(/; the list broke after the create of create-cut-bytes \(answered 201\) holding multi-byte characters .*; before it, 200 with 2 categories\./)
    expect(await failure(ok(), ok(), [probe('create-cut-bytes', created())], shape)).toBeUndefined()
    // a first list that was not an array gives nothing to compare: the failure is the schema's own
    const plain = await failure(makeResponse({ body: '' }), makeResponse({ body: '' }), [probe('create-cut-bytes', created())], shape)
    expect(plain?.code).toBe('NOT_JSON')
    expect(plain?.message).not.toContain('create-cut-bytes')
    // nor one that was an array but no array of Category records (FastAPI's "description": null): it was not whole
    const nulls = () => makeResponse({ body: [{ id: 1, name: 'dog' }, { id: 2, name: 'cat', description: null }] })
    const unchanged = await failure(nulls(), nulls(), [probe('create-nul', created())], shape)
    expect(unchanged?.code).toBe('SCHEMA_MISMATCH')
    expect(unchanged?.message).not.toContain('create-nul')
  })

  // measured (stackhunt11): a Node gateway answering one list in three 502 before the reference server;
  // the list after the POSTs got one, and was put down to the poison creates, though the browser's
  // list after the same creates was whole
  test("a list broken while another read after the same creates was whole is not put down to them: a gateway's 502, a replica", async () => {
    const gateway = () => makeResponse({ status: 502, headers: { 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>' })
    const creates = [probe('create-lone-surrogates', created()), probe('create-nul', created())]
    const status = (list: ReturnType<typeof makeResponse>, before: ReturnType<typeof makeResponse> | undefined, c: readonly CreateProbe[]) =>
      expectListNotPoisoned(list, before, c, [], async () => ok())
    const error = await failure(gateway(), ok(), creates, status)
    expect(error?.code).toBe('SERVER_ERROR')
    expect(error?.message).toMatch(/^GET answered 502 .*; the list read after the same creates with a browser's Accept answered 200 with 2 categories, so no value they stored breaks it/)
    expect(error?.message).not.toContain('create-lone-surrogates')
    // the browser's list broken too: the creates are named, as before
    const broken2 = (list: ReturnType<typeof makeResponse>, before: ReturnType<typeof makeResponse> | undefined, c: readonly CreateProbe[]) =>
      expectListNotPoisoned(list, before, c, [], async () => broken())
    expect((await failure(broken(), ok(), creates, broken2))?.message).toMatch(/after the creates of create-lone-surrogates/)
    // and the shape: an empty 200 beside a whole list keeps its code, without the creates' words
    const shape = (list: ReturnType<typeof makeResponse>, before: ReturnType<typeof makeResponse> | undefined, c: readonly CreateProbe[]) =>
      expectListShapeNotPoisoned(list, before, c, 'list-returns-200 reports the status', [], async () => ok())
    const empty = await failure(makeResponse({ body: '' }), ok(), creates, shape)
    expect(empty?.code).toBe('NOT_JSON')
    expect(empty?.message).toContain('so no value they stored breaks it')
    expect(empty?.message).not.toContain('create-nul')
  })

  // review52: a list read beside it that lacks a record the creates made (a replica behind the
  // writes, a copy kept from before them) shows nothing of what their values do to a list
  test("a whole list that lacks a record the creates made does not clear them: the creates are named, as before", async () => {
    const createdAs = (id: number) => makeResponse({ status: 201, method: 'POST', body: { id, name: 'n' } })
    const creates = [probe('create-lone-surrogates', createdAs(7)), probe('create-described', createdAs(2))]
    const status = (list: ReturnType<typeof makeResponse>, before: ReturnType<typeof makeResponse> | undefined, c: readonly CreateProbe[]) =>
      expectListNotPoisoned(list, before, c, [], async () => ok())
    const error = await failure(broken(), ok(), creates, status)
    expect(error?.message).toMatch(/after the create of create-lone-surrogates \(answered 201\)/)
    expect(error?.message).not.toContain('so no value they stored breaks it')
    const shape = (list: ReturnType<typeof makeResponse>, before: ReturnType<typeof makeResponse> | undefined, c: readonly CreateProbe[]) =>
      expectListShapeNotPoisoned(list, before, c, 'list-returns-200 reports the status', [], async () => ok())
    const empty = await failure(makeResponse({ body: '' }), ok(), creates, shape)
    expect(empty?.message).toContain('create-lone-surrogates')
    expect(empty?.message).not.toContain('so no value they stored breaks it')
  })

  test('a 200 passes; a list that was not 200 before, or no such create accepted, fails as any status does', async () => {
    expect(await failure(ok(), ok(), [probe('create-nul', created())])).toBeUndefined()
    for (const [before, creates] of [[broken(), [probe('create-nul', created())]], [undefined, [probe('create-nul', created())]], [ok(), [probe('create-nul', refused())]]] as const) {
      const error = await failure(broken(), before, [...creates])
      expect(error?.code).toBe('SERVER_ERROR')
      expect(error?.message).toMatch(/^GET answered 500/)
    }
  })
})

describe("the names a run sends, to a UNIQUE index under a store's default collation", () => {
  // every name but the one that repeats on purpose and those every run sends ("0", the empty name),
  // short forms too: each must be a name of its own to the store, or a conforming 409 fails a valid create
  const names = VALID_CREATES.filter((c) => !c.repeats && !c.nameOfEveryRun).flatMap((c) => [c.body(PREFIX).name, ...(c.shortForm ? [c.shortForm(PREFIX).name] : [])])
  test.each([
    ["SQL Server's SQL_Latin1_General_CP1_CI_AS (U+0000, noncharacters and every character past U+FFFF weigh nothing)", sqlServerKey],
    ["MariaDB's utf8mb4_general_ci and uca1400_ai_ci", mariadbKey],
    // UCA (MySQL 8's utf8mb4_0900_ai_ci, ICU at strength 1): controls but whitespace and format characters weigh nothing
    ["a UCA collation's primary strength, PAD SPACE", (name: string) => collatedName(name).replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g, '')],
  ])('%s', (_, key) => {
    expect(names.length).toBeGreaterThan(20)
    const alike = names.filter((name, i) => names.findIndex((other) => key(other) === key(name)) !== i)
    expect(alike).toEqual([])
  })
})
