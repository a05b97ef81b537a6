/**
 * The reference server (lib/server/reference-server.ts), which follows every rule, for trying the
 * suite without a service of one's own: on loopback, port 0 (a free one), with a random key unless
 * one is given.
 */
import { startReferenceServer as startServer } from '../server/reference-server.ts'

export interface ReferenceService {
  /** Its base address, ending in /v1, e.g. http://127.0.0.1:40123/v1. */
  baseUrl: string
  /** The key it accepts. */
  apiKey: string
  close(): Promise<void>
}

export interface ReferenceServiceOptions {
  /** Default: a random one. */
  apiKey?: string
  /** Default 127.0.0.1. */
  host?: string
  /** Default 0: a free port. */
  port?: number
}

export async function startReferenceServer(options: ReferenceServiceOptions = {}): Promise<ReferenceService> {
  const server = await startServer(options)
  return { baseUrl: server.baseUrl, apiKey: server.apiKey, close: () => server.close() }
}
