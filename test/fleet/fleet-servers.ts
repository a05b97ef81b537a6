/**
 * Reference servers for fleet tests: each with its own random key, conforming or running a
 * mutation, recording the Authorization header of every request it receives (so that a test can
 * prove a key went to its own deployment only), on loopback port 0.
 */
import { randomBytes } from 'node:crypto'
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
