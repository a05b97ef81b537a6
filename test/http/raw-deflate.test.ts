/**
 * Content-Encoding deflate is read in both forms: the zlib format RFC 9110 §8.4.1.2 names, and raw
 * DEFLATE without its wrapper, which the RFC calls non-conformant and browsers, curl and undici's
 * own fetch read all the same (Go's compress/flate and Java's new Deflater(level, true) write it).
 * A front that answered every body so failed 17 rules, every request "got no answer"
 * (UNDECODABLE_BODY); the variant raw-deflate-even-for-identity passes.
 */
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { deflateRawSync, deflateSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { decodedStream } from '../../lib/http/body-reader.ts'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { findCase } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { failedRules, runsWithKey } from '../helpers/run-conform.ts'

const BODY = JSON.stringify([{ id: 1, name: 'cf-x-dog', description: 'ünïcödé '.repeat(40) }])
const pieces = (bytes: Buffer) => Readable.from([bytes.subarray(0, 1), bytes.subarray(1, 7), bytes.subarray(7)])

describe('a deflate body', () => {
  test('in the zlib format, and as raw DEFLATE, whatever pieces it comes in', async () => {
    expect(await text(decodedStream(pieces(deflateSync(Buffer.from(BODY))), ['deflate']))).toBe(BODY)
    expect(await text(decodedStream(pieces(deflateRawSync(Buffer.from(BODY))), ['deflate']))).toBe(BODY)
    expect(await text(decodedStream(Readable.from([]), ['deflate']))).toBe('')
  })

  test('that is neither still fails to decode', async () => {
    await expect(text(decodedStream(Readable.from([Buffer.from('{"not": "deflate"}')]), ['deflate']))).rejects.toThrow()
  })

  const KEY = 'raw-deflate-key-0123456789'
  const { serve, conform } = runsWithKey(KEY)
  test('a service whose every body is raw DEFLATE passes', async () => {
    const variant = findCase(VARIANTS, 'raw-deflate-even-for-identity')!
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: variant.behaviour })))
    expect(failedRules(run), run.stdout).toEqual([])
    expect(run.code, run.stdout).toBe(0)
  }, 60_000)
})
