/**
 * Before any check: can the host be reached at all? A refused connection, an unknown host or a
 * TLS certificate that is not trusted means the run cannot be made (exit 2), which is a different
 * verdict from a server that answers badly (exit 1). Only a TCP (and TLS) handshake is made: no
 * request, so no key is sent and a server that never answers is left to the checks.
 */
import { connect as netConnect, type Socket } from 'node:net'
import { connect as tlsConnect } from 'node:tls'

export interface PreflightFailure {
  message: string
}

function proxied(url: URL, env: NodeJS.ProcessEnv): boolean {
  const proxy = url.protocol === 'https:' ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy)
  if (!proxy) return false
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? '').split(/[,\s]+/).filter(Boolean)
  return !noProxy.some((entry) => entry === '*' || url.hostname === entry.replace(/^\./, '') || url.hostname.endsWith(entry.startsWith('.') ? entry : `.${entry}`))
}

export async function preflight(baseUrl: string, timeoutMs: number, env: NodeJS.ProcessEnv = process.env): Promise<PreflightFailure | undefined> {
  const url = new URL(baseUrl)
  if (proxied(url, env)) return undefined // the proxy decides; the checks will say what happened
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  const where = `${url.hostname}:${port}`
  return new Promise((resolve) => {
    let socket: Socket
    const done = (failure?: PreflightFailure) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(failure)
    }
    const timer = setTimeout(() => done({ message: `cannot reach ${where}: no connection within ${timeoutMs} ms` }), timeoutMs)
    socket =
      url.protocol === 'https:'
        ? tlsConnect({ host, port, servername: isIpLiteral(host) ? undefined : host }, () => done())
        : netConnect({ host, port }, () => done())
    socket.on('error', (error: NodeJS.ErrnoException) => {
      const code = error.code ?? ''
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return done({ message: `cannot reach ${where}: host ${url.hostname} not found` })
      if (code === 'ECONNREFUSED') return done({ message: `cannot reach ${where}: connection refused` })
      if (/CERT|SELF_SIGNED|UNABLE_TO|ERR_TLS|HOSTNAME/.test(code) || /certificate/i.test(error.message)) {
        return done({ message: `TLS certificate of ${where} is not trusted (${code || error.message}); add its CA with NODE_EXTRA_CA_CERTS` })
      }
      done({ message: `cannot reach ${where}: ${code || error.message}` })
    })
  })
}

function isIpLiteral(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':')
}
