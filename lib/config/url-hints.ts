/** What a message may say of a base URL that does not parse. */
import { statSync } from 'node:fs'
import { isIP } from 'node:net'
import { portableJson } from '../json/portable-json.ts'

/**
 * What a base URL that does not parse was most likely meant to be, when it can be told. Node's
 * server.address() gives an IPv6 address without brackets (`::1`), and a test file that builds its
 * service's address as `http://${address}:${port}/v1` gets `http://::1:35067/v1`, which no URL
 * parser takes: RFC 3986 §3.2.2 writes an IPv6 literal in brackets.
 */
export function meantUrl(raw: string): string | undefined {
  const bare = /^(https?:\/\/)([0-9a-f]*:[0-9a-f:.]*):(\d{1,5})(\/.*)?$/i.exec(raw.trim())
  if (!bare || (!bare[2]!.includes('::') && bare[2]!.split(':').length < 3)) return undefined
  const url = `${bare[1]}[${bare[2]}]:${bare[3]}${bare[4] ?? ''}`
  return URL.canParse(url) ? url : undefined
}

/**
 * Whether a base URL that did not parse could be a key, which a message must not quote: a value
 * given where the base URL goes that is the key (two CI secrets swapped) was printed whole, in
 * every report too, hidden from none as the key variable held the URL. A bearer key has no colon
 * and is visible ASCII (RFC 6750's token68, lib/config/api-key.ts), so a value with a colon (a
 * scheme, a port) or another character is quoted; so is one that starts with a lower-case host name
 * and a slash (`petstore.example/v1`), which no key in base64 or a JWT begins with (base64 has no
 * dot, a JWT's first part is not lower case).
 */
export const mayBeAKey = (raw: string): boolean => /^[\x21-\x7e]+$/.test(raw.trim()) && !raw.includes(':') && !/^\s*[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,24}\//.test(raw)

/** localhost, a name under .localhost, 127.0.0.0/8 or ::1: a host whose traffic never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  return host === '::1'
}

/**
 * What a base URL that names a Unix socket says instead of an address the suite can reach: the
 * `request` and `got` libraries' form, http://unix:/run/svc.sock:/v1 (read as the host "unix",
 * refused as clear text to a remote host, with allow-insecure-http offered, which then failed to
 * resolve "unix"), http+unix:// (requests-unixsocket), unix:, or the bare path, which
 * server.address() gives for a server listening on a socket (told apart from a key, which is never
 * quoted, by being a socket on this machine). The suite connects over TCP only.
 */
export function unixSocketProblem(raw: string, name: string): string | undefined {
  const trimmed = raw.trim()
  const form = /^https?:\/\/unix:(\/[^:]+)/i.exec(trimmed)?.[1] ?? /^https?\+unix:\/\/([^/]+)/i.exec(trimmed)?.[1] ?? /^unix:(?:\/\/)?(\/[^:]+)/i.exec(trimmed)?.[1]
  const path = form !== undefined ? decoded(form) : trimmed.startsWith('/') && isSocket(trimmed) ? trimmed : undefined
  if (path === undefined) return undefined
  return `${name} names the Unix socket ${portableJson(path)}: the suite connects over TCP only; have the service listen on a loopback port as well (in a test file, port 0: server.listen(0, '127.0.0.1')) and give http://127.0.0.1:PORT/v1`
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path)
  } catch {
    return path
  }
}

function isSocket(path: string): boolean {
  try {
    return statSync(path).isSocket()
  } catch {
    return false
  }
}
