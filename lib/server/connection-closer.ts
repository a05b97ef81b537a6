/**
 * A server that closes connections on its own, without saying so (lib/server/variants/connection-races.ts):
 * HTTP/1.1 lets it close whenever it likes (RFC 9112 §9.3.1).
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

/** A 408 Request Timeout that closes the connection, as a server's idle close writes it. */
export const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'

/**
 * Closes connections as idleCloseMs and closeAfterAnswerMs say: a timer per connection, started
 * when an answer ends, stopped by the next request (idle close) or not at all (close after answer).
 */
export function connectionCloser(transport: { idleCloseMs?: number; closeAfterAnswerMs?: number; idleCloseWith408?: boolean }): ((req: IncomingMessage, res: ServerResponse) => void) | undefined {
  const { idleCloseMs, closeAfterAnswerMs, idleCloseWith408 } = transport
  // a 408 written on the idle connection as it closes, as some servers and proxies do (RFC 9110 §15.5.9)
  const close = (socket: Socket) => (idleCloseWith408 ? socket.end(TIMED_OUT) : socket.destroy())
  if (idleCloseMs === undefined && closeAfterAnswerMs === undefined) return undefined
  const idle = new WeakMap<Socket, NodeJS.Timeout>()
  return (req, res) => {
    const socket = req.socket
    clearTimeout(idle.get(socket))
    res.on('finish', () => {
      if (closeAfterAnswerMs !== undefined) setTimeout(() => socket.destroy(), closeAfterAnswerMs).unref()
      if (idleCloseMs !== undefined) idle.set(socket, setTimeout(() => close(socket), idleCloseMs).unref())
    })
  }
}
