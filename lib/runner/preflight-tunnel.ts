/**
 * The preflight's way through an http:// proxy to the base URL's origin: a CONNECT tunnel, as the
 * run's requests take (undici's ProxyAgent), so that the TLS handshake with the origin (its
 * certificate trusted or not, a client certificate it demands) is judged before any request behind
 * a proxy too. Only the tunnel is opened: no request goes through it. A proxy that does not open
 * one gives no answer here (undefined): the checks say what happened, as before.
 */
import { connect as netConnect, type Socket } from 'node:net'

/** The CONNECT answer's head, at most: a proxy that sends more without an end of head is no tunnel. */
const HEAD_MAX_BYTES = 16 * 1024

export function openTunnel(proxy: URL, host: string, port: number, timeoutMs: number): Promise<Socket | undefined> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80) })
    let head = Buffer.alloc(0)
    const end = (tunnel: Socket | undefined) => {
      clearTimeout(timer)
      socket.removeAllListeners('data')
      if (!tunnel) socket.destroy()
      resolve(tunnel)
    }
    const timer = setTimeout(() => end(undefined), timeoutMs)
    socket.on('error', () => end(undefined))
    socket.once('connect', () => {
      const authority = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`
      // the proxy's own credentials, as undici's ProxyAgent sends them; never the API key
      const credentials = proxy.username ? `Proxy-Authorization: Basic ${Buffer.from(`${decodeURIComponent(proxy.username)}:${decodeURIComponent(proxy.password)}`).toString('base64')}\r\n` : ''
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${credentials}\r\n`)
    })
    socket.on('data', (chunk: Buffer) => {
      head = Buffer.concat([head, chunk])
      const at = head.indexOf('\r\n\r\n')
      if (at < 0) return head.length > HEAD_MAX_BYTES ? end(undefined) : undefined
      // bytes after the head would be the origin's, which a proxy sends none of before the client's hello
      end(/^HTTP\/1\.[01] 200[ \r]/.test(head.subarray(0, at).toString('latin1')) && head.length === at + 4 ? socket : undefined)
    })
  })
}
