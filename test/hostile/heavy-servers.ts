/**
 * Fronts for the reference server whose answers are heavy on purpose, for test/hostile/: every
 * answer with thousands of headers, or every record of a JSON answer with thousands of extra keys
 * (a freedom: §2 lets records carry properties the document does not name). The front reads the
 * upstream answer whole, then writes its own.
 */
import type { IncomingHttpHeaders } from 'node:http'
import type { HostileServer } from './hostile-servers.ts'
import { headLines, wireFront } from './wire-fronts.ts'

/** What the front makes of the upstream answer: its head (raw, after the status line) and its body. */
type Rewrite = (headers: IncomingHttpHeaders, body: Buffer) => { head: string; body: Buffer }

/** A wire front (wire-fronts.ts) that writes the head as the scenario has it, not as node:http would tidy it, and closes. */
const rewritingFront = (upstream: string, rewrite: Rewrite): Promise<HostileServer> =>
  wireFront(upstream, (answer) => {
    const made = rewrite(answer.headers, answer.body)
    const head = `HTTP/1.1 ${answer.status} X\r\n${made.head}content-length: ${made.body.byteLength}\r\nconnection: close\r\n\r\n`
    return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), made.body]), end: true }
  })

/** The name of the front's header `i` (at most 2,592): "q00" … "qzz", "z00" …, three characters no real header has. */
export const manyHeaderName = (i: number) => `${'qz'[Math.floor(i / 1296)]}${(i % 1296).toString(36).padStart(2, '0')}`

/**
 * Every answer with `count` headers of its own before the upstream's ("q00:", "q01:" … six bytes
 * each, so that 2,500 stay under the client's 16 KiB of head): the upstream's Content-Type and the
 * rest come after them all.
 */
export const manyHeadersFront = (upstream: string, count: number) =>
  rewritingFront(upstream, (headers, body) => ({
    head: Array.from({ length: count }, (_, i) => `${manyHeaderName(i)}:\r\n`).join('') + headLines(headers),
    body,
  }))

/**
 * Every record of a JSON answer (an object, or each object of an array) with `count` extra keys
 * first ("k0": 0 …, 14 bytes each: 1.4 MB a record for 100,000): written once, and each record's
 * own members after them, so that the front spends on an answer little more than its bytes.
 */
export function manyKeysFront(upstream: string, count: number): Promise<HostileServer> {
  const keys = Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',')
  const padded = (record: unknown) =>
    record !== null && typeof record === 'object' && !Array.isArray(record) ? `{${keys}${Object.keys(record).length > 0 ? ',' : ''}${JSON.stringify(record).slice(1)}` : JSON.stringify(record)
  return rewritingFront(upstream, (headers, body) => {
    if (!/json/.test(String(headers['content-type']))) return { head: headLines(headers), body }
    let value: unknown
    try {
      value = JSON.parse(body.toString('utf8'))
    } catch {
      return { head: headLines(headers), body }
    }
    const text = Array.isArray(value) ? `[${value.map(padded).join(',')}]` : padded(value)
    return { head: headLines(headers), body: Buffer.from(text) }
  })
}

/**
 * Every list a conforming service answers with `count` records of its own first (`{"id":…,"name":"r…"}`,
 * ids from 10^12, none of the run's), as a store that holds that many categories lists them.
 */
export function manyRecordsFront(upstream: string, count: number): Promise<HostileServer> {
  const records = Array.from({ length: count }, (_, i) => `{"id":${1e12 + i},"name":"r${i}"}`).join(',')
  return rewritingFront(upstream, (headers, body) => {
    const text = body.toString('utf8')
    if (!/json/.test(String(headers['content-type'])) || !text.startsWith('[')) return { head: headLines(headers), body }
    return { head: headLines(headers), body: Buffer.from(`[${records}${text.length > 2 ? `,${text.slice(1)}` : ']'}`) }
  })
}

/**
 * Every answer with one header of its own `bytes` long before the upstream's: a Content-Security-
 * Policy or a cookie of a real deployment can run to tens of KiB (a gateway in front lets 32 KiB
 * through: AWS's load balancer, Cloudflare).
 */
export const bigHeaderFront = (upstream: string, bytes: number) =>
  rewritingFront(upstream, (headers, body) => ({ head: `x-policy: ${'p'.repeat(bytes)}\r\n${headLines(headers)}`, body }))
