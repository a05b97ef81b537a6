/**
 * Fronts for the reference server that answer a request as soon as its head has come, before its
 * body (a key check that runs first, a gateway that refuses on the head): node:net, each request's
 * bytes read off the socket by hand, so that when the body is read, if at all, is the scenario's.
 * A request with the key is read whole and passed on; one without it (or with a key not issued) is
 * answered 401 at once, and then its body is
 *   - `reads-the-body`: read and thrown away, the connection kept (RFC 9112 §9.3 allows it);
 *   - `closes`: left, the connection closed after the answer (Connection: close; §9.3 allows it);
 *   - `leaves-the-body`: left on the kept-alive connection, where it is read as the start of the next
 *     request: a request line that is not one is answered 400 and the connection closed.
 */
import { request as httpRequest } from 'node:http'
import { createServer, type Socket } from 'node:net'
import { startReferenceServer } from '../../lib/server/reference-server.ts'
import { httpListen, type HostileServer, type State } from './hostile-servers.ts'

export type EarlyAnswer = 'reads-the-body' | 'closes' | 'leaves-the-body'

const errorAnswer = (status: number, code: string, extra = '') => {
  const body = JSON.stringify({ code, message: code.replaceAll('_', ' '), status })
  return `HTTP/1.1 ${status} X\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`
}

interface Head {
  method: string
  url: string
  headers: Record<string, string>
}

/** The body's end in `bytes` (its length, or a chunked body's last chunk): where it ends and the body, or undefined while it has not all come. */
function bodyEnd(head: Head, bytes: Buffer): { end: number; body: Buffer } | undefined {
  if (!/chunked/i.test(head.headers['transfer-encoding'] ?? '')) {
    const length = Number(head.headers['content-length'] ?? 0)
    return bytes.length < length ? undefined : { end: length, body: bytes.subarray(0, length) }
  }
  const parts: Buffer[] = []
  for (let at = 0; ; ) {
    const lineEnd = bytes.indexOf('\r\n', at)
    if (lineEnd < 0) return undefined
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
    if (size === 0) return bytes.length < lineEnd + 4 ? undefined : { end: lineEnd + 4, body: Buffer.concat(parts) }
    if (bytes.length < lineEnd + 2 + size + 2) return undefined
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
}

/** The reference server (key `key`) behind a front that answers early as `mode` says. */
export async function earlyAnswering(key: string, mode: EarlyAnswer): Promise<HostileServer & { closeAll(): Promise<void> }> {
  const upstream = await startReferenceServer({ apiKey: key })
  const { hostname, port } = new URL(upstream.baseUrl)
  const state: State = { requests: [], bytes: 0, hungUp: 0 }
  const pass = (head: Head, body: Buffer) =>
    new Promise<Buffer>((resolve) => {
      const headers: Record<string, string> = { ...head.headers, 'content-length': String(body.length) }
      delete headers['transfer-encoding']
      const forward = httpRequest({ host: hostname, port, method: head.method, path: head.url, headers }, (answer) => {
        const parts: Buffer[] = []
        answer.on('data', (chunk: Buffer) => parts.push(chunk))
        answer.on('end', () => {
          const kept = Object.entries(answer.headers).filter(([name]) => !['transfer-encoding', 'connection', 'content-length', 'keep-alive'].includes(name))
          const lines = kept.map(([name, value]) => `${name}: ${String(value)}\r\n`).join('')
          const answerBody = Buffer.concat(parts)
          resolve(Buffer.concat([Buffer.from(`HTTP/1.1 ${answer.statusCode} X\r\n${lines}content-length: ${answerBody.length}\r\n\r\n`, 'latin1'), answerBody]))
        })
      })
      forward.on('error', () => resolve(Buffer.from(errorAnswer(502, 'bad_gateway'))))
      forward.end(body)
    })
  const serve = (socket: Socket) => {
    let bytes = Buffer.alloc(0)
    let reading: { head: Head; answered: boolean } | undefined
    let answers = Promise.resolve()
    const next = (): void => {
      for (;;) {
        if (reading === undefined) {
          const headEnd = bytes.indexOf('\r\n\r\n')
          if (headEnd < 0) return
          const [line = '', ...fields] = bytes.subarray(0, headEnd).toString('latin1').split('\r\n')
          bytes = bytes.subarray(headEnd + 4)
          const [method = '', url = ''] = line.split(' ')
          if (!/^[A-Z]+ \/\S* HTTP\/1\.[01]$/.test(line)) return void socket.end(errorAnswer(400, 'bad_request_line', 'connection: close\r\n'))
          const headers: Record<string, string> = {}
          for (const field of fields) headers[field.slice(0, field.indexOf(':')).trim().toLowerCase()] = field.slice(field.indexOf(':') + 1).trim()
          state.requests.push({ method, url, headers, body: '' })
          const head = { method, url, headers }
          if (headers.authorization === `Bearer ${key}`) reading = { head, answered: false }
          else if (mode === 'closes') return void socket.end(errorAnswer(401, 'unauthorized', 'connection: close\r\n'))
          else {
            // answered on the head alone, before any byte of its body is read
            answers = answers.then(() => void socket.write(errorAnswer(401, 'unauthorized')))
            if (mode === 'leaves-the-body') continue
            reading = { head, answered: true }
          }
        }
        const body = bodyEnd(reading.head, bytes)
        if (body === undefined) return
        bytes = bytes.subarray(body.end)
        const { head, answered } = reading
        reading = undefined
        if (answered) continue
        const answer = pass(head, body.body)
        answers = answers.then(() => answer.then((out) => void socket.write(out)))
      }
    }
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk])
      next()
    })
  }
  const listening = await httpListen(createServer(serve), state)
  return { ...listening, closeAll: async () => (await listening.close(), await upstream.close()) }
}
