/** What a message may say of a base URL that does not parse. */
import { isIP } from 'node:net'

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
