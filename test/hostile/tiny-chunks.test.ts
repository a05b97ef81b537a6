/**
 * A body sent as one-byte chunks (`1\r\n \r\n` over and over): each comes out of undici's parser as
 * a Buffer of its own, a view into the socket's read, so a body kept as those pieces held ~150
 * bytes of memory for each byte counted against --max-response-bytes: a run against such a server
 * grew to 2.3 GB in 20 s (measured, --max-response-bytes at its 64 MiB default). readCapped copies
 * small pieces together, so what it holds is about what it counts.
 */
import { Readable } from 'node:stream'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, test } from 'vitest'
import { readCapped } from '../../lib/http/capped-read.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/** Bytes of heap and of buffers in use once the garbage is collected. */
function inUse(): number {
  gc()
  const { heapUsed, arrayBuffers } = process.memoryUsage()
  return heapUsed + arrayBuffers
}

/** `pieces` one-byte views, each group of 1,000 cut from a 6 KB read of the socket, as llhttp hands a chunked body's bytes. */
function oneByteChunks(pieces: number): Readable {
  let made = 0
  return new Readable({
    read() {
      const read = Buffer.alloc(6_000, 0x20)
      for (let i = 0; i < 1_000 && made < pieces; i++, made++) this.push(read.subarray(i * 6, i * 6 + 1))
      if (made >= pieces) this.push(null)
    },
  })
}

describe('a body of one-byte chunks', () => {
  test('held in memory at about its size, not at a Buffer and a socket read per byte', async () => {
    const pieces = 300_000
    const before = inUse()
    let held = 0
    const body = await readCapped(oneByteChunks(pieces), [], { status: 200, receivedBytes: 0 }, 64 * 1024 * 1024, { bytes: 0, max: 256 * 1024 * 1024 }, () => {
      // measured as the last piece arrives, while every piece before it is kept
      if (++held === pieces) held = inUse() - before
    })
    expect(body.byteLength).toBe(pieces)
    expect(body.every((byte) => byte === 0x20)).toBe(true)
    // kept as the pieces came: 300,000 Buffers and the 300 reads they view, over 30 MB
    expect(held).toBeLessThan(8 * 1024 * 1024)
  }, 60_000)
})
