/**
 * The server in front of the reference server's HTTP handler for the variant that serves one
 * connection at a time (lib/server/variants/transport.ts): a single-threaded process that reads a
 * kept-alive connection until the client closes it, as Python's http.server HTTPServer does over
 * HTTP/1.1. The connections accepted meanwhile wait unread, their requests in the socket's
 * buffer, and are handed to the HTTP server one after another, in the order they came.
 */
import type { Server as HttpServer } from 'node:http'
import { createServer, type Server, type Socket } from 'node:net'

export function oneConnectionAtATime(http: HttpServer): { front: Server; destroyWaiting: () => void } {
  const waiting: Socket[] = []
  let serving: Socket | undefined
  const next = () => {
    serving = undefined
    for (let socket = waiting.shift(); socket; socket = waiting.shift()) {
      if (socket.destroyed) continue
      serving = socket
      socket.once('close', next)
      http.emit('connection', socket)
      socket.resume()
      return
    }
  }
  // paused on connect: nothing of a waiting connection is read until its turn
  const front = createServer({ pauseOnConnect: true }, (socket) => {
    socket.on('error', () => undefined)
    waiting.push(socket)
    if (!serving) next()
  })
  return { front, destroyWaiting: () => waiting.splice(0).forEach((socket) => socket.destroy()) }
}
