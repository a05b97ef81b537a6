/**
 * The preflight's way through an http:// proxy to the base URL's origin: a CONNECT tunnel, as the
 * run's requests take (undici's ProxyAgent), so that the TLS handshake with the origin (its
 * certificate trusted or not, a client certificate it demands) is judged before any request behind
 * a proxy too. Only the tunnel is opened: no request goes through it. A proxy that answers the
 * CONNECT with another status (407: it wants credentials; 403: the host is not allowed) refuses
 * every request of the run alike, which is no answer of the service: its status is handed back,
 * and the run is not made (exit 2), where each check failed on it and the service was blamed
 * (exit 1, 800 failures "Proxy response (407) !== 200"). One that does not answer gives undefined:
 * the checks say what happened, as before.
 */
import { connect as netConnect, Socket } from 'node:net'

/** The CONNECT answer's head, at most: a proxy that sends more without an end of head is no tunnel. */
const HEAD_MAX_BYTES = 16 * 1024

/** The tunnel's socket; or the status the proxy refused it with; or undefined (no answer, or none that reads as HTTP). */
export function openTunnel(proxy: URL, host: string, port: number, timeoutMs: number): Promise<Socket | { refusedWith: number } | undefined> {
  return new Promise((resolve) => {
    const socket = netConnect({ host: proxy.hostname.replace(/^\[|\]$/g, ''), port: Number(proxy.port || 80) })
    let head = Buffer.alloc(0)
    const end = (tunnel: Socket | { refusedWith: number } | undefined) => {
      clearTimeout(timer)
      socket.removeAllListeners('data')
      if (!(tunnel instanceof Socket)) socket.destroy()
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
      const status = /^HTTP\/1\.[01] ([2-5]\d\d)[ \r]/.exec(head.subarray(0, at).toString('latin1'))?.[1]
      if (status !== undefined && status !== '200') return end({ refusedWith: Number(status) })
      // bytes after the head would be the origin's, which a proxy sends none of before the client's hello
      end(status === '200' && head.length === at + 4 ? socket : undefined)
    })
  })
}
