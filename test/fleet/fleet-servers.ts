/**
 * Reference servers for fleet tests: each with its own random key, conforming or running a
 * mutation, recording the Authorization header of every request it receives (so that a test can
 * prove a key went to its own deployment only), on loopback port 0.
 */
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { sameShape } from '../../lib/http/redact.ts'
import type { Behaviour, RunningServer } from '../../lib/server/reference-server.ts'
import { startCase, type ServerCase } from '../../lib/server/server-cases.ts'

export interface FleetServer {
  server: RunningServer
  key: string
  /** The Authorization header of every request, as received (undefined: none). */
  authorizations: (string | undefined)[]
}

/** A key shaped like a real one, with the characters encodings change. */
export const canaryKey = () => `fleet-${randomBytes(12).toString('hex')}+/Z=`

const CONFORMING: ServerCase = { name: 'conforming', description: 'the reference server', behaviour: {} }

export async function fleetServer(serverCase: ServerCase = CONFORMING, key = canaryKey()): Promise<FleetServer> {
  const authorizations: (string | undefined)[] = []
  const finish: Behaviour['finish'] = (reply, request, store) => {
    authorizations.push(request.authorization)
    return serverCase.behaviour.finish ? serverCase.behaviour.finish(reply, request, store) : reply
  }
  const server = await startCase({ ...serverCase, behaviour: { ...serverCase.behaviour, finish } }, { apiKey: key })
  return { server, key, authorizations }
}

/** Every form a key could take in a leak: as is, encoded, and the wrong key of its shape the suite sends. */
export function formsOf(key: string): Record<string, string> {
  return {
    raw: key,
    'URL-encoded': encodeURIComponent(key),
    base64: Buffer.from(key).toString('base64'),
    'Bearer … in base64': Buffer.from(`Bearer ${key}`).toString('base64'),
    'same shape': sameShape(key),
  }
}

/** Every file under `dir`, by its path relative to it (latin1: every byte kept). */
export function filesUnder(dir: string): Record<string, string> {
  const texts: Record<string, string> = {}
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else texts[relative(dir, path)] = readFileSync(path, 'latin1')
    }
  }
  walk(dir)
  return texts
}

/** Where any of `keys` appears in `texts` (by name), in any of its forms: empty when nowhere. */
export function keyLeaks(texts: Record<string, string>, keys: readonly string[]): string[] {
  const leaks: string[] = []
  for (const [where, text] of Object.entries(texts)) {
    for (const key of keys) {
      for (const [form, value] of Object.entries(formsOf(key))) if (text.includes(value)) leaks.push(`${where} holds a key (${form})`)
    }
  }
  return leaks
}
