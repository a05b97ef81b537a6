/**
 * TLS fronts that do mutual TLS as other stacks were measured to do it (docs/production.md), written
 * in Node so that the tests need nothing installed: socat 1.7.4's `OPENSSL-LISTEN:…,verify=1`, which
 * refuses every resumed handshake (OpenSSL's "session id context uninitialized": a server that
 * verifies client certificates and never set one), and Apache 2.4's per-directory `SSLVerifyClient
 * require` under TLS 1.3, which asks for the certificate after the handshake and answers 403 to a
 * client that cannot give it there (Node's never can).
 */
import { connect as netConnect, createServer as createNetServer, type Socket } from 'node:net'
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { createServer as createTlsServer } from 'node:tls'
import { createServer as createHttpsServer } from 'node:https'
import type { MtlsFront, Pki } from './mutual-tls.ts'

export interface ResumptionRefusingFront extends MtlsFront {
  /** Resumed handshakes the front refused. */
  refusedResumptions: number
}

/** Whether a raw TLS ClientHello offers to resume a session: a TLS 1.3 pre_shared_key extension (41), or a TLS 1.2 session ticket (35) that is not empty. */
export function offersResumption(hello: Buffer): boolean {
  // record (5), handshake header (4), version (2), random (32)
  let at = 43
  if (hello.length < at + 1 || hello[0] !== 22 || hello[5] !== 1) return false
  at += 1 + hello[at]! // session id
  at += 2 + hello.readUInt16BE(at) // cipher suites
  at += 1 + hello[at]! // compression methods
  const end = Math.min(hello.length, at + 2 + hello.readUInt16BE(at))
  for (at += 2; at + 4 <= end; ) {
    const type = hello.readUInt16BE(at)
    const length = hello.readUInt16BE(at + 2)
    if (type === 41 || (type === 35 && length > 0)) return true
    at += 4 + length
  }
  return false
}

/** A TLS alert record: fatal internal_error (80), what socat sends for a resumption it cannot make. */
const INTERNAL_ERROR_ALERT = Buffer.from([21, 3, 3, 0, 2, 2, 80])

/**
 * A front that demands a client certificate the CA issued and pipes each connection to the plain
 * HTTP server behind it, but answers every ClientHello that offers to resume a session with a fatal
 * internal_error alert, as socat with verify=1 does (OpenSSL's SSL_accept: "session id context
 * uninitialized"); a full handshake goes through.
 */
export async function resumptionRefusingFront(pki: Pki, upstreamPort: number): Promise<ResumptionRefusingFront> {
  const sockets = new Set<Socket>()
  const tlsServer = createTlsServer({ cert: pki.serverCert, key: pki.serverKey, ca: readFileSync(pki.caFile), requestCert: true, rejectUnauthorized: true }, (client) => {
    const upstream = netConnect({ host: '127.0.0.1', port: upstreamPort })
    client.pipe(upstream).pipe(client)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  tlsServer.on('tlsClientError', () => {})
  const server = createNetServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => {})
    socket.once('data', (hello: Buffer) => {
      if (offersResumption(hello)) {
        front.refusedResumptions++
        socket.end(INTERNAL_ERROR_ALERT)
        return
      }
      // the full handshake goes to the TLS server behind, the hello first
      const inner = netConnect({ host: '127.0.0.1', port: (tlsServer.address() as AddressInfo).port })
      sockets.add(inner)
      inner.on('close', () => sockets.delete(inner))
      inner.write(hello)
      socket.pipe(inner).pipe(socket)
      inner.on('error', () => socket.destroy())
      socket.on('close', () => inner.destroy())
    })
  })
  await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const front: ResumptionRefusingFront = {
    baseUrl: `https://127.0.0.1:${port}/v1`,
    port,
    subjects: [],
    refusedResumptions: 0,
    close: () =>
      new Promise<void>((resolve) => {
        sockets.forEach((s) => s.destroy())
        tlsServer.close()
        server.close(() => resolve())
      }),
  }
  return front
}

/** Apache 2.4.71's page for a per-directory SSLVerifyClient that a TLS 1.3 client without post-handshake authentication met (as measured). */
const APACHE_POST_HANDSHAKE = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">\n<html><head>\n<title>403 Forbidden</title>\n</head><body>\n<h1>Forbidden</h1>\n<p>You don\'t have permission to access this resource.Reason: Cannot perform Post-Handshake Authentication.<br /></p>\n</body></html>\n'

/** A front as Apache with `SSLVerifyClient require` in a <Location> is to Node under TLS 1.3: the handshake asks for nothing, and every request is answered 403 with Apache's page, whatever certificate the client holds. */
export async function apachePerDirectoryFront(pki: Pki): Promise<MtlsFront> {
  const server = createHttpsServer({ cert: pki.serverCert, key: pki.serverKey, minVersion: 'TLSv1.3' }, (req, res) => {
    req.resume()
    res.writeHead(403, { server: 'Apache/2.4.71 (Debian) OpenSSL/3.0.19', 'content-type': 'text/html; charset=iso-8859-1', 'content-length': Buffer.byteLength(APACHE_POST_HANDSHAKE) }).end(APACHE_POST_HANDSHAKE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `https://127.0.0.1:${port}/v1`,
    port,
    subjects: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
