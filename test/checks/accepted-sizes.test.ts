/** suites/categories/accepted-sizes.ts: what an accepted create proves of a service's limits, counted the fewest way. */
import { describe, expect, test } from 'vitest'
import type { HttpResult } from '../../lib/http/client.ts'
import { createText, VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { acceptedABodyAsLarge, bodyBytes, graphemes } from '../../suites/categories/accepted-sizes.ts'

const PREFIX = 'cf-k3x9q'
const sentWith = (body: string | undefined, bodyBase64?: string) => ({ exchange: { request: { body, ...(bodyBase64 ? { bodyBase64 } : {}) } } }) as unknown as HttpResult

describe('graphemes', () => {
  test('no count a service may use gives fewer: for every value of every create, graphemes <= code points <= UTF-16 units <= UTF-8 bytes', () => {
    for (const c of VALID_CREATES) {
      for (const body of [c.body(PREFIX), ...(c.shortForm ? [c.shortForm(PREFIX)] : [])]) {
        for (const value of [body.name, body.description ?? '']) {
          expect(graphemes(value), c.key).toBeLessThanOrEqual([...value].length)
          expect([...value].length).toBeLessThanOrEqual(value.length)
          expect(value.length).toBeLessThanOrEqual(Buffer.byteLength(value))
        }
      }
    }
  })

  test("create-unicode's short name is fewer graphemes than code points (Ecto's validate_length takes it where it refuses plain ASCII of its code points)", () => {
    const name = VALID_CREATES.find((c) => c.key === 'create-unicode')!.shortForm!(PREFIX).name
    expect(graphemes(name)).toBeLessThan([...name].length)
    expect(graphemes('e\u0301')).toBe(1)
    expect(graphemes('\r\n')).toBe(1)
    expect(graphemes(undefined)).toBe(0)
  })
})

describe('acceptedABodyAsLarge', () => {
  test('the bytes on the wire, from the recorded bytes when there are any', () => {
    expect(bodyBytes(sentWith('{"name":"€"}'))).toBe(14)
    expect(bodyBytes(sentWith('shown', Buffer.from([0xff, 0xfe, 0x7b]).toString('base64')))).toBe(3)
  })

  test('a refused body larger than every accepted one may be refused for its size (§8); one no larger than an accepted body may not', () => {
    const accepted = [{ result: sentWith('x'.repeat(76)) }, { result: sentWith('x'.repeat(80)) }]
    expect(acceptedABodyAsLarge(accepted, sentWith('y'.repeat(87)))).toBe(false)
    expect(acceptedABodyAsLarge(accepted, sentWith('y'.repeat(80)))).toBe(true)
    expect(acceptedABodyAsLarge([], sentWith('y'))).toBe(false)
  })

  test("create-sends-id's body is at least every short form's and at most 100 bytes: behind a body limit that takes the short forms it is taken too, so a refused short form is not refused for its size", () => {
    const bytes = (text: string) => Buffer.byteLength(text)
    const sendsId = VALID_CREATES.find((c) => c.key === 'create-sends-id')!
    for (const seed of [1, 2, 77, 4096]) {
      const size = bytes(createText(sendsId, sendsId.body(PREFIX), seed, PREFIX))
      for (const c of VALID_CREATES.filter((v) => v.shortForm)) expect(size, c.key).toBeGreaterThanOrEqual(bytes(createText(c, c.shortForm!(PREFIX), seed, PREFIX)))
      expect(size).toBeLessThanOrEqual(100)
    }
  })
})
