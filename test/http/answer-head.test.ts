/**
 * A final answer's head read before undici's parser (lib/http/answer-head.ts): a repeated
 * Content-Length of one value made one, framing faults named, and a chunked body's size lines
 * without the whitespace RFC 9112 §7.1.1 allows around `;` and `=` (lib/http/chunk-lines.ts),
 * however the bytes are cut.
 */
import { describe, expect, test } from 'vitest'
import { AnswerHead, readFraming } from '../../lib/http/answer-head.ts'
import { ChunkLines, withoutBadWhitespace } from '../../lib/http/chunk-lines.ts'

/** `pieces` fed one after another, and what is held at the end. */
function fed(feeder: { feed(chunk: Buffer): Buffer; flush(): Buffer | undefined }, pieces: string[]): string {
  return pieces.map((piece) => feeder.feed(Buffer.from(piece, 'latin1')).toString('latin1')).join('') + (feeder.flush()?.toString('latin1') ?? '')
}

/** Every cut of `text` in two and in three. */
function* cuts(text: string): Generator<string[]> {
  for (let i = 0; i <= text.length; i++) for (let j = i; j <= text.length; j++) yield [text.slice(0, i), text.slice(i, j), text.slice(j)]
}

describe('withoutBadWhitespace: the extension after a size line', () => {
  test.each([
    [' ;a=1', ';a=1'],
    ['\t; a = 1 ;b', ';a=1;b'],
    [';a="x ; y = z"', ';a="x ; y = z"'],
    [' ; a = "q \\" ; r" ; b', ';a="q \\" ; r";b'],
    // no place for it in the grammar: left for the parser to refuse
    [' ', ' '],
    [';a b', ';a b'],
    [';a=1 ', ';a=1 '],
  ])('%j → %j', (extension, mended) => {
    expect(withoutBadWhitespace(extension)).toBe(mended)
  })
})

describe('ChunkLines, a body cut in two and in three at every place', () => {
  // data that looks like size lines is data: only the size lines are read
  const BODY = '6 ;a=1\r\n1 ;x\r\n\r\n3\t; b = "c ; d"\r\nabc\r\n0 ; end\r\nx-t: 1 ;\r\n\r\n'
  const MENDED = '6;a=1\r\n1 ;x\r\n\r\n3;b="c ; d"\r\nabc\r\n0;end\r\nx-t: 1 ;\r\n\r\n'
  test('the size lines mended, the data, the trailers and what follows as they came', () => {
    for (const pieces of cuts(BODY)) expect(fed(new ChunkLines(), pieces), JSON.stringify(pieces)).toBe(MENDED)
  })

  test('a body with nothing to mend and no trailer field comes out as the same Buffer', () => {
    const body = Buffer.from('5\r\nabcde\r\n0\r\n\r\n')
    expect(new ChunkLines().feed(body)).toBe(body)
  })

  test('a size line that is not hexadecimal, or longer than 4 KiB, ends the work: the rest as it came', () => {
    expect(fed(new ChunkLines(), ['x ;a\r\n5 ;b\r\n'])).toBe('x ;a\r\n5 ;b\r\n')
    const long = `5${' '.repeat(5000)};a\r\n`
    expect(fed(new ChunkLines(), [long.slice(0, 4500), long.slice(4500)])).toBe(long)
  })
})

describe('readFraming', () => {
  const framing = (head: string) => {
    const read = readFraming(Buffer.from(head, 'latin1'))
    return { head: read.head.toString('latin1'), chunked: read.chunked, fault: read.fault?.message }
  }
  test('one Content-Length said twice, and as a list, is one field line of it where the first was', () => {
    expect(framing('HTTP/1.1 200 OK\r\nContent-Length: 12\r\nx: 1\r\ncontent-length: 12 , 12\r\n\r\n')).toEqual({ head: 'HTTP/1.1 200 OK\r\ncontent-length: 12\r\nx: 1\r\n\r\n', chunked: false, fault: undefined })
    expect(framing('HTTP/1.1 200 OK\nContent-Length: 3,3\n\n').head).toBe('HTTP/1.1 200 OK\ncontent-length: 3\n\n')
  })
  test('obs-text (0x80-0xFF), a tab, an empty value and any reason phrase are no fault', () => {
    expect(framing('HTTP/1.1 200 \x01\xe9\r\nx-a: caf\xe9 \xff\tb\r\nx-b:\r\n\r\n').fault).toBeUndefined()
  })
  test('one Content-Length, or none, is the head as it came', () => {
    const head = 'HTTP/1.1 200 OK\r\nContent-Length: 12\r\n\r\n'
    expect(framing(head)).toEqual({ head, chunked: false, fault: undefined })
  })
  test.each([
    ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\ncontent-length: 20\r\n\r\n', /^Content-Length given with different values \(2, 20\)/],
    ['HTTP/1.1 200 OK\r\ncontent-length: 2, 3\r\n\r\n', /^Content-Length given with different values \(2, 3\)/],
    ['HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\ncontent-length: 2\r\n\r\n', /^Content-Length beside Transfer-Encoding/],
    ['HTTP/1.1 101 Switching Protocols\r\n\r\n', /^a 101 Switching Protocols, though the request asked for no protocol/],
    // undici said "Response body length does not match content-length header" of these, a Content-Length before them
    ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-a : b\r\n\r\n', /^a header field name that holds 0x20 \(a space\) after "x-a": a name is a token, with no space before its colon/],
    ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-a: a\x01b\r\n\r\n', /^the header x-a holds the control character 0x01, which makes a field value invalid \(RFC 9110 §5\.5\)$/],
    ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nx-a: a\x7f\r\n\r\n', /control character 0x7f/],
    ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nno colon here\r\n\r\n', /^a header field name that holds 0x20 \(a space\) after "no"/],
    ['HTTP/1.1 200 OK\r\ncontent-length: 2\r\nnocolon\r\n\r\n', /^a header line without a field name and colon after "nocolon"/],
    ['HTTP/1.1 200 OK\r\n: empty name\r\n\r\n', /^a header line without a field name and colon \(RFC 9112 §5\)$/],
  ])('%j: a fault named', (head, words) => {
    expect(framing(head).fault).toMatch(words)
  })
  test('chunked when chunked is the last coding; never for a 204 or a 304, whose Content-Length is dropped (no body, RFC 9112 §6.3)', () => {
    expect(framing('HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\ntransfer-encoding: Chunked\r\n\r\n').chunked).toBe(true)
    expect(framing('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n').chunked).toBe(false)
    expect(framing('HTTP/1.1 304 Not Modified\r\ntransfer-encoding: chunked\r\n\r\n').chunked).toBe(false)
    expect(framing('HTTP/1.1 204 No Content\r\ncontent-length: 7\r\nx: 1\r\n\r\n')).toEqual({ head: 'HTTP/1.1 204 No Content\r\nx: 1\r\n\r\n', chunked: false, fault: undefined })
  })
})

describe('AnswerHead: the head held whole, then read', () => {
  const answer = 'HTTP/1.1 200 OK\r\nx-a: 1\r\n 2\r\ncontent-length: 4\r\ncontent-length: 4\r\n\r\n5 ;x'
  const read = 'HTTP/1.1 200 OK\r\nx-a: 1   2\r\ncontent-length: 4\r\n\r\n5 ;x'
  const chunked = 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2 ;x\r\nab\r\n0 ; y\r\n\r\n'
  const begun = () => {
    const head = new AnswerHead()
    head.answerBegins()
    return head
  }
  test('folds unfolded, a repeated Content-Length made one, the body untouched, cut anywhere', () => {
    for (const pieces of cuts(answer)) expect(fed(begun(), pieces), JSON.stringify(pieces)).toBe(read)
  })
  test("a chunked body's size lines mended, cut anywhere", () => {
    for (const pieces of cuts(chunked)) expect(fed(begun(), pieces), JSON.stringify(pieces)).toBe('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2;x\r\nab\r\n0;y\r\n\r\n')
  })
  test('nothing is handed on until the head ends; a head cut by the close goes to the parser as it came', () => {
    const head = begun()
    expect(head.feed(Buffer.from('HTTP/1.1 200 OK\r\nx: 1\r\n')).length).toBe(0)
    expect(head.flush()?.toString()).toBe('HTTP/1.1 200 OK\r\nx: 1\r\n')
  })
  test('the bytes held are its own: a chunk whose memory is written over once fed (a TLS socket reuses it) changes nothing', () => {
    const head = begun()
    const first = Buffer.from('HTTP/1.1 200 OK\r\nx-a: 1\r\n')
    expect(head.feed(first).length).toBe(0)
    first.fill(0x41)
    expect(head.feed(Buffer.from('content-length: 2\r\n\r\n[]')).toString()).toBe('HTTP/1.1 200 OK\r\nx-a: 1\r\ncontent-length: 2\r\n\r\n[]')
  })
  test('bytes that cannot begin a status line (a cache\'s port) go through at once, for the parser to refuse; empty lines and a status line cut short are held', () => {
    const redis = begun()
    // before: held for an empty line that never came, each request waited out --timeout
    expect(redis.feed(Buffer.from('-ERR unknown command\r\n')).toString()).toBe('-ERR unknown command\r\n')
    const afterEmptyLine = begun()
    for (const piece of ['\r\n', 'HT', 'TP/1.1 2']) expect(afterEmptyLine.feed(Buffer.from(piece)).length).toBe(0)
    // an empty line before the status line (a CRLF an old server writes after a body) was read as a field line without a colon, a framing fault
    expect(afterEmptyLine.feed(Buffer.from('00 OK\r\nx-a: 1\r\n 2\r\n\r\n')).toString()).toBe('HTTP/1.1 200 OK\r\nx-a: 1   2\r\n\r\n')
    const cutShort = begun()
    for (const piece of ['H', 'TTP', '/1.1 2']) expect(cutShort.feed(Buffer.from(piece)).length).toBe(0)
    expect(cutShort.feed(Buffer.from('00 OK\r\ncontent-length: 0\r\n\r\n')).toString()).toBe('HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n')
    const lateWord = begun()
    expect(lateWord.feed(Buffer.from('HT')).length).toBe(0)
    expect(lateWord.feed(Buffer.from('ML>')).toString()).toBe('HTML>')
  })
  test('two empty lines or more before the status line end no head: the head after them is read, cut anywhere', () => {
    // before: "\r\n\r\n" was taken for the whole head, and the one after it went to the parser unread (its repeated Content-Length refused)
    for (const blank of ['\r\n\r\n', '\n\n', '\r\n\n\r\n'])
      for (const pieces of cuts(blank + answer)) expect(fed(begun(), pieces), JSON.stringify(pieces)).toBe(read)
  })
  test('a framing fault hands on nothing and says what it is', () => {
    const head = begun()
    expect(head.feed(Buffer.from('HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab')).length).toBe(0)
    expect(head.fault).toMatchObject({ code: 'HPE_UNEXPECTED_CONTENT_LENGTH' })
  })
  test('a head past 64 KiB goes through as it came, for the parser to refuse for its size', () => {
    const head = begun()
    const big = `HTTP/1.1 200 OK\r\nx: ${'a'.repeat(70 * 1024)}`
    expect(head.feed(Buffer.from(big)).toString()).toBe(big)
  })
})
