/**
 * The connections open to each origin, and the requests whose body was written whole, as undici's
 * diagnostics channels tell them (`undici:client:connected`, a socket's close,
 * `undici:request:bodySent`): what a request sent alone needs to show that it was alone on the
 * wire (lib/http/unanswered-alone.ts). Process-wide, as a fleet's or the kill matrix's runs share
 * the process: each run asks about its own origin only. An undici that does not publish them tells
 * nothing, and no request is ever taken for one sent alone.
 */
import { subscribe } from 'node:diagnostics_channel'
import type { Socket } from 'node:net'

/** Per origin (`host:port`, the port as a URL writes it): connections open now, and connections opened so far. */
const byOrigin = new Map<string, { open: number; opened: number }>()
/** The traceparents of requests whose body undici wrote whole, the latest last (a long-lived process keeps only so many). */
const whole = new Set<string>()
const KEPT = 20_000

const originKey = (hostname: string, port: string) => `${hostname}:${port}`

function onConnected(message: unknown): void {
  const { connectParams, socket } = message as { connectParams?: { hostname?: string; port?: string | number }; socket?: Socket }
  if (connectParams?.hostname === undefined || socket === undefined) return
  const key = originKey(connectParams.hostname, String(connectParams.port ?? ''))
  const counts = byOrigin.get(key) ?? { open: 0, opened: 0 }
  byOrigin.set(key, { open: counts.open + 1, opened: counts.opened + 1 })
  socket.once('close', () => {
    const now = byOrigin.get(key)
    if (now) now.open--
  })
}

/** A header list as undici keeps it: a flat array of names and values, or the head as text. */
function traceparentOf(headers: unknown): string | undefined {
  if (typeof headers === 'string') return /\r\ntraceparent: ([^\r\n]+)/i.exec(`\r\n${headers}`)?.[1]
  if (!Array.isArray(headers)) return undefined
  for (let i = 0; i + 1 < headers.length; i += 2) if (String(headers[i]).toLowerCase() === 'traceparent') return String(headers[i + 1])
  return undefined
}

function onBodySent(message: unknown): void {
  const traceparent = traceparentOf((message as { request?: { headers?: unknown } }).request?.headers)
  if (traceparent === undefined) return
  whole.add(traceparent)
  if (whole.size > KEPT) whole.delete(whole.values().next().value as string)
}

let watching = false

/** Starts counting (once per process: lib/http/first-requests.ts starts it with its own watch). */
export function watchConnections(): void {
  if (watching) return
  watching = true
  subscribe('undici:client:connected', onConnected)
  subscribe('undici:request:bodySent', onBodySent)
}

/** The connections open to an origin (`http://host:port`) now, and those opened so far. */
export function connectionsTo(origin: string): { open: number; opened: number } {
  const url = new URL(origin)
  const counts = byOrigin.get(originKey(url.hostname, url.port))
  return { open: counts?.open ?? 0, opened: counts?.opened ?? 0 }
}

/** Whether undici wrote the whole body of the request with this traceparent (a request without a body too, once its head went out). */
export function bodyWrittenWhole(traceparent: string | undefined): boolean {
  return traceparent !== undefined && whole.has(traceparent)
}
