/**
 * A small Pet Store categories service in Express 5, written to the interface document
 * (spec/interface.md of the conformance suite): an in-memory store, a bearer key on every
 * operation, Error records for 400 and 401, and int64 ids written exactly (they start past 2^53,
 * where a JavaScript number would round them).
 */
import { timingSafeEqual } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import express, { type NextFunction, type Request, type Response } from 'express'

interface Category {
  id: bigint
  name: string
  description?: string
}

/** The first id handed out: 2^53 + 1, which a double cannot hold, so a client that rounds ids shows it. */
const FIRST_ID = 2n ** 53n + 1n

/** JSON with bigint ids written as exact numbers (JSON.stringify refuses bigints). */
function toJson(value: unknown): string {
  if (typeof value === 'bigint') return value.toString()
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).filter(([, field]) => field !== undefined)
    return `{${fields.map(([key, field]) => `${JSON.stringify(key)}:${toJson(field)}`).join(',')}}`
  }
  return JSON.stringify(value)
}

function answer(res: Response, status: number, body: unknown): void {
  res.status(status).type('application/json').send(toJson(body))
}

/** §7: every error carries the Error record, its status equal to the HTTP status. */
function error(res: Response, status: number, code: string, message: string): void {
  if (status === 401) res.set('WWW-Authenticate', 'Bearer realm="petstore"')
  answer(res, status, { code, message, status })
}

/** §4.2: a NewCategory is an object with a string name and, optionally, a string description. */
function problemWith(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'the body must be a JSON object'
  const { name, description } = body as Record<string, unknown>
  if (name === undefined) return 'name is required'
  if (typeof name !== 'string') return 'name must be a string'
  if (description !== undefined && typeof description !== 'string') return 'description must be a string'
  return undefined
}

export function createApp(options: { apiKey: string }) {
  const store: Category[] = []
  let nextId = FIRST_ID
  const key = Buffer.from(options.apiKey)
  const app = express()
  app.disable('x-powered-by')
  const v1 = express.Router()

  // §5: every operation requires `Authorization: Bearer <API_KEY>`, compared in constant time
  v1.use((req: Request, res: Response, next: NextFunction) => {
    const given = Buffer.from(/^Bearer (\S+)$/.exec(req.get('authorization') ?? '')?.[1] ?? '')
    if (given.length === key.length && timingSafeEqual(given, key)) return next()
    error(res, 401, 'unauthorized', 'The API key is missing or invalid.')
  })

  v1.get('/categories', (_req, res) => answer(res, 200, store))

  // the body as bytes, whatever its Content-Type: it must be UTF-8 JSON (RFC 8259 §8.1)
  v1.post('/categories', express.raw({ type: () => true, limit: '1mb' }), (req, res) => {
    const bytes: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)
    let body: unknown
    try {
      body = JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes))
    } catch {
      return error(res, 400, 'invalid_json', bytes.length === 0 ? 'The request body is missing.' : 'The request body is not valid JSON.')
    }
    const problem = problemWith(body)
    if (problem) return error(res, 400, 'invalid_request', problem)
    const { name, description } = body as { name: string; description?: string }
    // the id is the service's own, whatever the client sent (§2: never sent by the client)
    const record: Category = { id: nextId++, name, ...(description !== undefined ? { description } : {}) }
    store.push(record)
    answer(res, 201, record)
  })

  app.use('/v1', v1)
  app.use((_req: Request, res: Response) => error(res, 404, 'not_found', 'No such resource.'))
  // a body over the limit, or one that cannot be read: still an Error record, never Express's HTML page
  app.use((err: { status?: number; type?: string }, _req: Request, res: Response, _next: NextFunction) => {
    const status = err.status && err.status >= 400 && err.status < 500 ? err.status : 500
    error(res, status, err.type ?? 'error', status === 500 ? 'Internal error.' : 'The request could not be read.')
  })
  return app
}

export interface RunningService {
  /** Ends in /v1, as the interface puts the version in the address (§9.2). */
  baseUrl: string
  close(): Promise<void>
}

/** Starts the app on loopback; port 0 takes a free one. */
export async function startService(options: { apiKey: string; port?: number }): Promise<RunningService> {
  const server = createApp(options).listen(options.port ?? 0, '127.0.0.1')
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  }
}
