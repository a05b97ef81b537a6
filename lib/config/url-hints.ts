/** What a message may say of a base URL that does not parse. */
import { statSync } from 'node:fs'
import { isIP } from 'node:net'
import { portableJson } from '../json/portable-json.ts'
import { editDistance } from './closest-name.ts'

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

/**
 * The base URL meant by one whose scheme is missing (`localhost:8080/v1`, `127.0.0.1:8080/v1`,
 * `petstore.example/v1`) or whose "://" is mistyped (`http//…`, `http:/…`, `http:…`): the scheme
 * given, else http:// for a loopback host (a service on this machine) and https:// for any other.
 * Undefined when no URL comes of it, or when it holds "@" (user:password is never quoted).
 */
function schemeGuess(raw: string): string | undefined {
  const trimmed = raw.trim()
  if (trimmed.includes('@')) return undefined
  const typed = /^(https?)(?::\/?|\/\/|:\/{3,})(?=[^/])(.*)$/is.exec(trimmed)
  const rest = typed ? typed[2]! : trimmed
  const host = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?=[:/]|$)/i.exec(rest)?.[1]
  if (host === undefined || !/[a-z0-9]/i.test(host)) return undefined
  const guess = `${typed ? typed[1]!.toLowerCase() : isLoopbackHost(host) ? 'http' : 'https'}://${rest}`
  return URL.canParse(guess) ? new URL(guess).href.replace(/\/+$/, '') : undefined
}

/**
 * The loopback host a host name or address that is not one was most likely typed for: `localhost`
 * mistyped (`locahost`, `localhsot`), an address of 127.0.0.0/8 with a letter for its last digit
 * (`127.0.0.l`: a URL parser takes it for a host name) or commas for its dots. Such a base URL over
 * http:// was refused as clear text to another host, with https:// or --allow-insecure-http
 * offered: the newcomer who took the second met "cannot resolve" next.
 */
function loopbackMeant(hostname: string): string | undefined {
  if (isLoopbackHost(hostname) || isIP(hostname.replace(/^\[|\]$/g, '')) !== 0) return undefined
  const word = hostname.toLowerCase().replace(/\.$/, '')
  if (word.length >= 7 && word.length <= 11 && editDistance(word, 'localhost') <= 2) return 'localhost'
  if (!/^127[.,]/.test(word)) return undefined
  const digits = word.replace(/[li|]/g, '1').replace(/o/g, '0').replace(/,/g, '.')
  return isIP(digits) === 4 ? digits : undefined
}

/**
 * What is said of a base URL (`named`: how messages call it, and the value as quoted) written
 * without its scheme, or with its "://" mistyped: the URL it most likely meant, else an example.
 */
export function withoutScheme(named: string, raw: string, example: string): string {
  const guess = schemeGuess(raw)
  const mistyped = /^\s*https?[:/]/i.test(raw)
  return `${named} is not a URL ${mistyped ? 'with its scheme (":" then "//")' : 'with a scheme'}; ${guess === undefined ? `give one like ${example}` : `did you mean ${guess}?`}`
}

/** What is said of an http:// base URL whose host is a loopback host mistyped, with the URL meant; undefined for any other host. */
export function loopbackTypo(name: string, url: URL): string | undefined {
  const loopback = loopbackMeant(url.hostname)
  if (loopback === undefined) return undefined
  const meant = new URL(url.href)
  meant.hostname = loopback
  return `${name} ${url.host} is not this machine: http:// is taken for localhost, 127.x.x.x and [::1] only; did you mean ${meant.href.replace(/\/+$/, '')}?`
}
