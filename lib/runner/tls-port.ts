/**
 * After a run over plain HTTP that got no answer at all: does the port speak TLS? A TLS handshake
 * only, no request, so no key and no write (as the preflight's for https://). Asked only when
 * every request the run sent went unanswered, so a server of plain HTTP never sees a ClientHello.
 */
import { isIP } from 'node:net'
import { connect } from 'node:tls'
import type { JournalEntry } from '../http/journal.ts'
import type { RunProblem } from '../result/run-problems.ts'
import { speaksTlsProblem } from '../result/speaks-tls.ts'

/** Fewer unanswered requests than this say too little (a --rule run of one check). */
const ENOUGH = 3
/** The handshake's wait at most: a port that speaks TLS answers a ClientHello at once. */
const HANDSHAKE_MS = 2_000

export async function tlsPortProblem(baseUrl: string, journal: readonly JournalEntry[], waitMs: number): Promise<RunProblem | undefined> {
  const url = new URL(baseUrl)
  if (url.protocol !== 'http:') return undefined
  const sent = journal.filter((e) => e.onWire)
  if (sent.length < ENOUGH || sent.some((e) => e.status !== undefined)) return undefined
  const host = url.hostname.replace(/^\[|\]$/g, '')
  const secured = await new Promise<boolean>((resolve) => {
    const socket = connect({ host, port: Number(url.port || 80), ...(isIP(host) === 0 ? { servername: host } : {}), rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
    const done = (answer: boolean) => (clearTimeout(timer), socket.destroy(), resolve(answer))
    const timer = setTimeout(() => done(false), Math.max(1, Math.min(HANDSHAKE_MS, waitMs)))
    socket.once('secureConnect', () => done(true))
    socket.once('error', () => done(false))
    socket.once('close', () => done(false))
  })
  return secured ? speaksTlsProblem(baseUrl) : undefined
}
