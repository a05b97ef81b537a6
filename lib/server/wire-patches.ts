/**
 * Bytes node:http will not write on its own, written by patching the answer's own methods: an
 * HTTP/1.0 status line, folded header lines, chunk extensions with spaces around `;` and `=`, a
 * Content-Length given twice. Each is a freedom or an old habit of real servers and proxies that
 * the variants of lib/server/variants/transport.ts use; the suite must read every one.
 */
import type { ServerResponse } from 'node:http'
import type { Transport } from './reply-writer.ts'

interface Own {
  _storeHeader(firstLine: string, headers: unknown): void
  _header: string
  _send(data: unknown, ...rest: unknown[]): boolean
  chunkedEncoding: boolean
}

/** `edit` applied to the head node:http made: its status line and header lines, up to the empty line. */
function editHead(res: ServerResponse, edit: (head: string) => string): void {
  const own = res as unknown as Own
  const store = own._storeHeader.bind(res)
  own._storeHeader = (firstLine, headers) => {
    store(firstLine, headers)
    own._header = edit(own._header)
  }
}

/** Each chunk's size line with an extension after a space (`2a ;src=edge`), the last one with spaces around `;` and `=` and a quoted value (`0 ; end = "a b"`): RFC 9112 §7.1.1 allows that whitespace (BWS). */
function spacedChunkExtensions(res: ServerResponse): void {
  const own = res as unknown as Own
  const send = own._send.bind(res)
  own._send = (data, ...rest) => {
    // node:http sends each size line alone, or after the head it has not sent yet, and the last chunk as '0\r\n' and the trailers
    const spaced = own.chunkedEncoding && typeof data === 'string' ? data.replace(/(^|\r\n)([0-9a-f]+)$/, '$1$2 ;src=edge').replace(/^0\r\n/, '0 ; end = "a b"\r\n') : data
    return send(spaced, ...rest)
  }
}

export function patchWire(res: ServerResponse, transport: Transport): void {
  // Node writes HTTP/1.1 to an HTTP/1.1 request, whatever the server is meant to be
  if (transport.http10) editHead(res, (head) => head.replace(/^HTTP\/1\.1 /, 'HTTP/1.0 '))
  // the Content-Type's value on a line of its own and one header over two lines (obs-fold, RFC 9112 §5.2)
  if (transport.foldedHeaders) editHead(res, (head) => head.replace(/\r\ncontent-type: /i, '\r\ncontent-type:\r\n ').replace(/\r\n\r\n$/, '\r\nx-served-by: edge-1,\r\n\tedge-2\r\n\r\n'))
  // two field lines of one value, and one more as a list of it (RFC 9110 §8.6 lets a recipient read it as the value)
  if (transport.contentLengthTwice) editHead(res, (head) => head.replace(/\r\ncontent-length: (\d+)\r\n/i, '\r\ncontent-length: $1\r\ncontent-length: $1, $1\r\n'))
  if (transport.spacedChunkExtensions) spacedChunkExtensions(res)
}
