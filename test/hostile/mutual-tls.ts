/**
 * What the mutual-TLS tests need, made with openssl in a temp dir: a CA, a server certificate it
 * issued for 127.0.0.1, a client certificate it issued (its key plain and encrypted), and a client
 * certificate of another CA; and a TLS front that asks for a client certificate (demanding one, or
 * only asking, as nginx's `ssl_verify_client optional`) and pipes each connection to a plain HTTP
 * server, as a gateway in front of a service does; and one that answers as nginx does instead.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect as netConnect, type Server as NetServer, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer as createTlsServer, type SecureVersion, type TLSSocket } from 'node:tls'
import { createServer as createHttpsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { forwardTo } from './hostile-servers.ts'

export const PASSPHRASE = 'mtls-passphrase-9d41c0'

export interface Pki {
  dir: string
  caFile: string
  serverCert: string
  serverKey: string
  clientCertFile: string
  clientKeyFile: string
  encryptedKeyFile: string
  /** The client certificate and its key in one file, as curl's --cert takes them. */
  bothFile: string
  /** A client certificate (with its key, in one file) that another CA issued. */
  strangerFile: string
  /** The client certificate and its key as PKCS#12 (a .p12 of Java's keystores), encrypted with PASSPHRASE. */
  p12File: string
  cleanup(): void
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

export function makePki(): Pki {
  const dir = mkdtempSync(join(tmpdir(), 'conform-mtls-'))
  const at = (name: string) => join(dir, name)
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore', cwd: dir })
  const issue = (name: string, subject: string, ca: string, ext: string) => {
    openssl('req', ...EC, '-keyout', at(`${name}.key`), '-out', at(`${name}.csr`), '-subj', subject)
    writeFileSync(at(`${name}.ext`), ext)
    openssl('x509', '-req', '-in', at(`${name}.csr`), '-CA', at(`${ca}.pem`), '-CAkey', at(`${ca}.key`), '-CAcreateserial', '-out', at(`${name}.pem`), '-days', '1', '-extfile', at(`${name}.ext`))
  }
  openssl('req', '-x509', ...EC, '-keyout', at('ca.key'), '-out', at('ca.pem'), '-days', '1', '-subj', '/CN=conform-test-ca')
  openssl('req', '-x509', ...EC, '-keyout', at('other-ca.key'), '-out', at('other-ca.pem'), '-days', '1', '-subj', '/CN=conform-other-ca')
  issue('server', '/CN=localhost', 'ca', 'subjectAltName=IP:127.0.0.1,DNS:localhost\n')
  issue('client', '/CN=conform-test-client/O=Acceptance', 'ca', 'extendedKeyUsage=clientAuth\n')
  issue('stranger', '/CN=stranger', 'other-ca', 'extendedKeyUsage=clientAuth\n')
  openssl('pkey', '-in', at('client.key'), '-aes256', '-passout', `pass:${PASSPHRASE}`, '-out', at('client-encrypted.key'))
  writeFileSync(at('client-both.pem'), readFileSync(at('client.pem'), 'utf8') + readFileSync(at('client.key'), 'utf8'))
  openssl('pkcs12', '-export', '-in', at('client.pem'), '-inkey', at('client.key'), '-out', at('client.p12'), '-passout', `pass:${PASSPHRASE}`)
  writeFileSync(at('stranger-both.pem'), readFileSync(at('stranger.pem'), 'utf8') + readFileSync(at('stranger.key'), 'utf8'))
  return {
    dir,
    caFile: at('ca.pem'),
    serverCert: readFileSync(at('server.pem'), 'utf8'),
    serverKey: readFileSync(at('server.key'), 'utf8'),
    clientCertFile: at('client.pem'),
    clientKeyFile: at('client.key'),
    encryptedKeyFile: at('client-encrypted.key'),
    bothFile: at('client-both.pem'),
    strangerFile: at('stranger-both.pem'),
    p12File: at('client.p12'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}

export interface MtlsFront {
  baseUrl: string
  port: number
  /** The subjects of the client certificates the front took. */
  subjects: string[]
  close(): Promise<void>
}

/** A TLS front on 127.0.0.1:0 that asks for a client certificate the CA issued (`demand`: refuses a handshake without one). */
export async function mtlsFront(pki: Pki, upstreamPort: number, options: { demand: boolean; maxVersion?: SecureVersion }): Promise<MtlsFront> {
  const sockets = new Set<Socket>()
  const subjects: string[] = []
  const server = createTlsServer(
    { cert: pki.serverCert, key: pki.serverKey, ca: readFileSync(pki.caFile), requestCert: true, rejectUnauthorized: options.demand, ...(options.maxVersion ? { maxVersion: options.maxVersion } : {}) },
    (client) => {
      const subject = client.getPeerCertificate()?.subject?.CN
      if (subject) subjects.push(String(subject))
      const upstream = netConnect({ host: '127.0.0.1', port: upstreamPort })
      client.pipe(upstream).pipe(client)
      upstream.on('error', () => client.destroy())
      client.on('error', () => upstream.destroy())
    },
  )
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
  })
  server.on('tlsClientError', () => {})
  return listening(server, subjects, () => sockets.forEach((s) => s.destroy()))
}

/** A front listening on 127.0.0.1:0; its close() ends its connections first (`endConnections`), so that no test waits for a client. */
async function listening(server: NetServer, subjects: string[], endConnections: () => void): Promise<MtlsFront> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const close = () =>
    new Promise<void>((resolve) => {
      endConnections()
      server.close(() => resolve())
    })
  return { baseUrl: `https://127.0.0.1:${port}/v1`, port, subjects, close }
}

/** nginx's page for a request without the client certificate `ssl_verify_client on` demands (nginx 1.22, as measured), and for one it did not verify. */
const NGINX_NO_CERTIFICATE = '<html>\r\n<head><title>400 No required SSL certificate was sent</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>No required SSL certificate was sent</center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n'
const NGINX_CERTIFICATE_ERROR = NGINX_NO_CERTIFICATE.replaceAll('No required SSL certificate was sent', 'The SSL certificate error')

/** nginx's page for `return 403`. */
const NGINX_FORBIDDEN = '<html>\r\n<head><title>403 Forbidden</title></head>\r\n<body>\r\n<center><h1>403 Forbidden</h1></center>\r\n<hr><center>nginx/1.22.1</center>\r\n</body>\r\n</html>\r\n'

/**
 * A front as nginx with `ssl_verify_client on` is: the TLS handshake completes whatever the client
 * presents, and each request without a certificate the CA issued is answered 400 with nginx's page;
 * the others go to the plain HTTP server behind it. `refusal`: as nginx with `ssl_verify_client
 * optional` and `if ($ssl_client_verify != SUCCESS) { return 403; }` (or `return 444;`, which closes
 * the connection without an answer) refuses a request without a certificate instead.
 */
export async function nginxLikeFront(pki: Pki, upstreamPort: number, refusal: 'page' | '403' | '444' = 'page'): Promise<MtlsFront> {
  const subjects: string[] = []
  const server = createHttpsServer({ cert: pki.serverCert, key: pki.serverKey, ca: readFileSync(pki.caFile), requestCert: true, rejectUnauthorized: false }, (req, res) => {
    const socket = req.socket as TLSSocket
    // a resumed session says nothing of the certificate: its subject does
    if (refusal !== 'page' && !(socket.authorized && socket.getPeerCertificate()?.subject)) {
      if (refusal === '444') return void socket.destroy()
      req.resume()
      res.writeHead(403, { server: 'nginx/1.22.1', 'content-type': 'text/html', 'content-length': Buffer.byteLength(NGINX_FORBIDDEN) }).end(NGINX_FORBIDDEN)
      return
    }
    if (!socket.authorized) {
      const page = socket.getPeerCertificate()?.subject ? NGINX_CERTIFICATE_ERROR : NGINX_NO_CERTIFICATE
      req.resume()
      res.writeHead(400, { server: 'nginx/1.22.1', 'content-type': 'text/html', 'content-length': Buffer.byteLength(page) }).end(page)
      return
    }
    const subject = socket.getPeerCertificate()?.subject?.CN
    if (subject) subjects.push(String(subject))
    forwardTo({ hostname: '127.0.0.1', port: upstreamPort }, req, res)
  })
  return listening(server, subjects, () => server.closeAllConnections())
}
