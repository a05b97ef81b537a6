/**
 * Plain http:// goes to a loopback host only (lib/config/config.ts isLoopbackHost), and `localhost`
 * or `api.localhost` is that by its name: the resolver says where it is, anew for each connection
 * (Node asks the system's resolver, and `*.localhost` goes to DNS unless systemd-resolved answers
 * it). The preflight refuses a name that resolved elsewhere (lib/runner/preflight.ts notLoopback),
 * but once, before the run: a resolver that answered 127.0.0.1 then and another address later (DNS
 * rebinding, a zero TTL) had every later connection, and the key on it in clear, go there. Each of
 * the run's connections to such a name takes the loopback addresses of its answer only, and fails
 * without one, before a byte is sent.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { isLoopbackHost } from '../config/url-hints.ts'

/** The resolver's form this module calls: every address of a name. */
export type Resolve = (hostname: string, options: { all: true; family?: number }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void

const defaultResolve: Resolve = (hostname, options, callback) => dnsLookup(hostname, options, callback)

/** An address of this machine's loopback: 127.0.0.0/8, ::1, or 127.x mapped into IPv6. */
export const isLoopbackAddress = (address: string) => /^127\./.test(address) || address === '::1' || /^::ffff:127\./i.test(address)

/** The words of the refusal: the preflight's (notLoopback), for a connection of the run. */
export const notLoopbackWords = (name: string, address: string) =>
  `refusing to send the API key in clear text: ${name} resolves to ${address}, not to this machine; use https://, or the loopback address itself`

/** A `lookup` for net.connect that answers a name with its loopback addresses only, or fails naming where it resolved. */
export function loopbackOnlyLookup(resolve: Resolve = defaultResolve) {
  return (hostname: string, options: { all?: boolean; family?: number }, callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void => {
    resolve(hostname, { all: true, ...(options.family ? { family: options.family } : {}) }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '')
      const loopback = addresses.filter((a) => isLoopbackAddress(a.address))
      if (loopback.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(notLoopbackWords(hostname, addresses[0]?.address ?? 'no address'))
        refused.code = 'ENOTLOOPBACK'
        return callback(refused, options.all ? [] : '')
      }
      if (options.all) return callback(null, loopback)
      callback(null, loopback[0]!.address, loopback[0]!.family)
    })
  }
}

/** The connect options that keep a plain http:// origin named as loopback on loopback; none for any other origin (an address, https, or --allow-insecure-http to another host). */
export function loopbackConnect(baseUrl: string, resolve?: Resolve): { lookup?: ReturnType<typeof loopbackOnlyLookup> } {
  const url = new URL(baseUrl)
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return url.protocol === 'http:' && isIP(host) === 0 && isLoopbackHost(host) ? { lookup: loopbackOnlyLookup(resolve) } : {}
}
