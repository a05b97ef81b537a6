/**
 * One server listed twice under two host names (`http://127.0.0.1:8080/v1` and
 * `http://localhost:8080/v1`, or two DNS names of one address) with one key would be judged twice
 * at once and written to twice. The same base URL and key is refused (targets.ts); two host names
 * that resolve to the same address, port, path and key may still be virtual hosts of their own, so
 * they get a note, not a refusal, said before any request. Only the host names that could alias
 * one another are resolved (same scheme, port, path and key), as the preflight resolves them anyway:
 * no request is sent, and a name behind a proxy, or one that does not resolve in time, is left alone.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import type { Config } from '../config/config.ts'
import { proxyFor } from '../runner/preflight.ts'

/** What a note needs of a deployment. */
export interface AliasCandidate {
  label: string
  config: Pick<Config, 'baseUrl' | 'apiKey'> & Partial<Pick<Config, 'readOnly' | 'maxWrites'>>
}

/** Whether a run may send the deployment a POST: read-only and `maxWrites: 0` send none. */
const mayWrite = (d: AliasCandidate) => d.config.readOnly !== true && d.config.maxWrites !== 0

/** The addresses a host name resolves to. */
export type Resolve = (host: string) => Promise<string[]>

/** How long the names are given to resolve: the runner and suites load meanwhile, so this is rarely waited for. */
const RESOLVE_WAIT_MS = 1000

const systemResolve: Resolve = async (host) => (await dnsLookup(host, { all: true })).map((a) => a.address)

/** `::ffff:127.0.0.1` (and `::ffff:7f00:1`, as a URL writes it) is 127.0.0.1. */
function plainAddress(address: string): string {
  const lower = address.toLowerCase()
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower)
  if (dotted) return dotted[1] as string
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower)
  if (!hex) return lower
  const [high, low] = [parseInt(hex[1] as string, 16), parseInt(hex[2] as string, 16)]
  return [high >> 8, high & 255, low >> 8, low & 255].join('.')
}

/** The notes of deployments that reach one address, port, path and key under another host name; empty when none does. */
export async function sameServerNotes(deployments: readonly AliasCandidate[], env: NodeJS.ProcessEnv, resolve: Resolve = systemResolve): Promise<string[]> {
  const parsed = deployments.map((d) => {
    const url = new URL(d.config.baseUrl as string)
    const port = url.port || (url.protocol === 'https:' ? '443' : '80')
    const host = url.hostname.replace(/^\[|\]$/g, '')
    const group = JSON.stringify([url.protocol, port, url.pathname.replace(/\/+$/, ''), d.config.apiKey])
    return { d, host, port, group, proxied: proxyFor(url, env) !== undefined }
  })
  // a host name is resolved only when another entry of its group has another one
  const hostsOf = new Map<string, Set<string>>()
  for (const p of parsed) if (!p.proxied) hostsOf.set(p.group, (hostsOf.get(p.group) ?? new Set()).add(p.host))
  const wanted = new Set([...hostsOf.values()].filter((hosts) => hosts.size > 1).flatMap((hosts) => [...hosts]))
  if (wanted.size === 0) return []
  const resolved = new Map<string, Set<string>>()
  await Promise.all(
    [...wanted].map(async (host) => {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<string[]>((done) => (timer = setTimeout(() => done([]), RESOLVE_WAIT_MS).unref()))
      const addresses = await Promise.race([resolve(host).catch(() => []), late])
      clearTimeout(timer)
      resolved.set(host, new Set(addresses.map(plainAddress)))
    }),
  )
  const notes: string[] = []
  for (const [i, later] of parsed.entries()) {
    if (later.proxied) continue
    const earlier = parsed.slice(0, i).find((p) => !p.proxied && p.group === later.group && p.host !== later.host && [...(resolved.get(p.host) ?? [])].some((a) => resolved.get(later.host)?.has(a)))
    if (earlier === undefined) continue
    const shared = [...(resolved.get(later.host) ?? [])].find((a) => resolved.get(earlier.host)?.has(a)) as string
    notes.push(
      `${later.d.label} (${later.host}) and ${earlier.d.label} (${earlier.host}) reach the same address, ${shared} port ${later.port}, with the same path and key: ` +
        // two read-only entries (production listed under two names) write nothing: "written to twice" alarmed for nothing
        `if they are one server, it is judged twice at once${mayWrite(later.d) && mayWrite(earlier.d) ? ' and written to twice' : ''} (list it once); if they are virtual hosts of their own, nothing is wrong`,
    )
  }
  return notes
}
