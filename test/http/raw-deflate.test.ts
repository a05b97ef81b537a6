/**
 * Content-Encoding deflate is read in both forms: the zlib format RFC 9110 §8.4.1.2 names, and raw
 * DEFLATE without its wrapper, which the RFC calls non-conformant and browsers, curl and undici's
 * own fetch read all the same (Go's compress/flate and Java's new Deflater(level, true) write it);
 * and a gzip or deflate stream that ends at a flush, never finished, is read as they read it. A
 * front that answered every body either way failed 17 rules (UNDECODABLE_BODY); the variants
 * raw-deflate-even-for-identity and gzip-unfinished-even-for-identity pass.
 */
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib'
import { describe, expect, test } from 'vitest'
import { CodedBodyCutShortError, decodedStream } from '../../lib/http/body-reader.ts'
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

  test('a gzip or deflate stream flushed and never finished (no trailer), as curl, browsers and undici\'s fetch read it', async () => {
    const unfinished = { finishFlush: constants.Z_SYNC_FLUSH }
    expect(await text(decodedStream(pieces(gzipSync(Buffer.from(BODY), unfinished)), ['gzip']))).toBe(BODY)
    expect(await text(decodedStream(pieces(deflateSync(Buffer.from(BODY), unfinished)), ['deflate']))).toBe(BODY)
  })

  test('that is neither still fails to decode, nor does JSON sent as it is under a gzip or deflate label', async () => {
    await expect(text(decodedStream(Readable.from([Buffer.from('{"not": "deflate"}')]), ['deflate']))).rejects.toThrow()
    await expect(text(decodedStream(Readable.from([Buffer.from('[{"id": 1, "name": "x"}]')]), ['deflate']))).rejects.toThrow()
    await expect(text(decodedStream(Readable.from([Buffer.from('{"not": "gzip"}')]), ['gzip']))).rejects.toThrow()
  })

  // read leniently, a stream cut anywhere read as JSON cut short (NOT_JSON), and a front cutting one answer in a few as a replica answering otherwise
  test('a gzip or zlib stream that stops before its end elsewhere than at a flush is a body cut short', async () => {
    const long = Buffer.from(BODY.repeat(20))
    for (const [coding, whole] of [['gzip', gzipSync(long)], ['deflate', deflateSync(long)]] as const) {
      for (const cut of [whole.length >> 1, whole.length - 3, 11]) {
        await expect(text(decodedStream(pieces(whole.subarray(0, cut)), [coding])), `${coding} cut at ${cut}`).rejects.toThrow(CodedBodyCutShortError)
      }
      expect(await text(decodedStream(pieces(whole), [coding]))).toBe(long.toString())
    }
    // two gzip members one after the other (RFC 1952 §2.2) are one whole body
    expect(await text(decodedStream(pieces(Buffer.concat([gzipSync(Buffer.from('[{"id"')), gzipSync(Buffer.from(':1}]'))])), ['gzip']))).toBe('[{"id":1}]')
    expect(await text(decodedStream(Readable.from([]), ['gzip']))).toBe('')
  })

  // hostile12: a br or raw deflate stream cut short was "not decodable" (UNDECODABLE_BODY), one flushed and never finished too
  test('a Brotli or raw DEFLATE stream flushed and never finished is read; one that stops elsewhere is a body cut short', async () => {
    // a cut before the stream gave any text stays "not decodable" (it cannot be told from text under the label): a list that does not repeat itself gives text early
    const long = Buffer.from(JSON.stringify(Array.from({ length: 300 }, (_, id) => ({ id, name: `cf-${(id * 7919).toString(36)}`, description: 'ünïcödé'.slice(id % 5) }))))
    const flushed = [
      ['br', brotliCompressSync(long, { finishFlush: constants.BROTLI_OPERATION_FLUSH })],
      ['deflate', deflateRawSync(long, { finishFlush: constants.Z_SYNC_FLUSH })],
      ['deflate', deflateRawSync(Buffer.alloc(0), { finishFlush: constants.Z_SYNC_FLUSH })],
    ] as const
    for (const [coding, body] of flushed) expect(await text(decodedStream(pieces(body), [coding])), coding).toBe(body.length < 10 ? '' : long.toString())
    for (const [coding, whole] of [['br', brotliCompressSync(long)], ['deflate', deflateRawSync(long)]] as const) {
      // the last bytes of a Brotli stream hold its last symbols: the byte before its end is a cut too
      for (const cut of [whole.length >> 2, whole.length >> 1, whole.length - 3, whole.length - 2]) {
        await expect(text(decodedStream(pieces(whole.subarray(0, cut)), [coding])), `${coding} cut at ${cut} of ${whole.length}`).rejects.toThrow(CodedBodyCutShortError)
      }
      expect(await text(decodedStream(pieces(whole), [coding]))).toBe(long.toString())
    }
  })

  // hostile12's decision: Z_PARTIAL_FLUSH ends on no byte boundary and no mark (an empty fixed block, its bits padded), so a
  // stream left there cannot be told from one cut inside a block by what Node's zlib shows; the writers that flush an
  // answer (nginx, Apache's mod_deflate, Go's Writer.Flush, Node's flush()) use Z_SYNC_FLUSH or Z_FULL_FLUSH
  test('a gzip stream left at a Z_PARTIAL_FLUSH (deprecated, no mark to find) reads as cut short', async () => {
    const partial = gzipSync(Buffer.from(BODY), { finishFlush: constants.Z_PARTIAL_FLUSH })
    await expect(text(decodedStream(pieces(partial), ['gzip']))).rejects.toThrow(CodedBodyCutShortError)
  })

  test('text sent under a br or deflate label is not read as a body cut short: it is not decodable', async () => {
    for (const coding of ['br', 'deflate']) {
      for (const sent of ['[]', '"a"', '{}', '{"not": "deflate"}', '[{"id": 1, "name": "x"}]']) {
        const read = text(decodedStream(Readable.from([Buffer.from(sent)]), [coding]))
        await expect(read, `${sent} as ${coding}`).rejects.toThrow()
        await expect(read, `${sent} as ${coding}`).rejects.not.toBeInstanceOf(CodedBodyCutShortError)
      }
    }
  })

  // review26: a stream followed by bytes it does not read ends as it is written; waited for after, the body never ended
  test('a whole stream followed by bytes zlib leaves unread (gzip padded with zeros, bytes after a zlib stream) is read, and ends', async () => {
    const long = Buffer.from(BODY.repeat(20))
    for (const [coding, body] of [['gzip', Buffer.concat([gzipSync(long), Buffer.alloc(6)])], ['deflate', Buffer.concat([deflateSync(long), Buffer.from('\r\n')])]] as const) {
      const read = text(decodedStream(pieces(body), [coding]))
      const hung = new Promise((resolve) => setTimeout(resolve, 2000, 'never ended').unref())
      expect(await Promise.race([read, hung]), coding).toBe(long.toString())
    }
  })

  const KEY = 'raw-deflate-key-0123456789'
  const { serve, conform } = runsWithKey(KEY)
  test.each(['raw-deflate-even-for-identity', 'gzip-unfinished-even-for-identity'])('a service whose every body is so passes: %s', async (name) => {
    const variant = findCase(VARIANTS, name)!
    const run = await conform(serve(await startReferenceServer({ apiKey: KEY, behaviour: variant.behaviour })))
    expect(failedRules(run), run.stdout).toEqual([])
    expect(run.code, run.stdout).toBe(0)
  }, 60_000)
})
