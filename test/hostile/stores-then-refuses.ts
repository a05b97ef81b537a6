/**
 * A service that stores every create with a string name and answers it 503 or 429: after storing
 * (`storesFirst`: a proxy that lost its service's answer, a quota counted after the handler), or
 * before, the first time only (a limiter, which stored nothing). `listAfterMs`: the list answered that
 * late (a loaded machine). `hidden`: the list leaves out the records (a read replica far behind).
 * Used by stored-despite-unavailable.test.ts (503) and stored-despite-429.test.ts (429).
 */
import { httpServer, jsonReply as json, type HostileServer } from './hostile-servers.ts'

export interface RefusingOnCreate {
  /** The status of the refusal, with its body and headers. */
  status: 429 | 503
  body: unknown
  headers?: Record<string, string>
  storesFirst: boolean
  listAfterMs?: number
  hidden?: boolean
}

export async function refusingOnCreate(key: string, refusal: RefusingOnCreate): Promise<{ server: HostileServer; stored: { id: number; name: string; description?: string }[] }> {
  const { status, storesFirst, listAfterMs = 0, hidden = false } = refusal
  const stored: { id: number; name: string; description?: string }[] = []
  const refused = new Set<string>()
  const server = await httpServer((req, res, seen) => {
    if (seen.headers.authorization !== `Bearer ${key}`) return json(res, 401, { code: 'unauthorized', message: 'no', status: 401 })
    if (req.method === 'GET' && req.url === '/v1/categories' && listAfterMs > 0) return void setTimeout(() => json(res, 200, stored), listAfterMs)
    if (req.method === 'GET') return json(res, 200, req.url === '/v1/categories' && !hidden ? stored : req.url === '/v1/categories' ? [] : {})
    let body: unknown
    try {
      body = JSON.parse(seen.body)
    } catch {
      return json(res, 400, { code: 'bad_json', message: 'not JSON', status: 400 })
    }
    const { name, description } = (body ?? {}) as { name?: unknown; description?: unknown }
    if (typeof name !== 'string' || (description !== undefined && typeof description !== 'string')) return json(res, 400, { code: 'invalid', message: 'name', status: 400 })
    const refuse = () => void res.writeHead(status, { 'content-type': 'application/json', ...refusal.headers }).end(JSON.stringify(refusal.body))
    if (!storesFirst && !refused.has(seen.body)) {
      refused.add(seen.body)
      return refuse()
    }
    const record = { id: stored.length + 1, name, ...(description !== undefined ? { description } : {}) }
    stored.push(record)
    if (storesFirst) return refuse()
    json(res, 201, record)
  })
  return { server, stored }
}
