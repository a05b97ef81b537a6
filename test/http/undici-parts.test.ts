// lib/http/undici-parts.ts loads undici's files, not its index: each part must be the index's own,
// so that an undici that moves or renames one of them fails here, by name, and not in a run
import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import * as parts from '../../lib/http/undici-parts.ts'

const undici = createRequire(import.meta.url)('undici') as typeof import('undici')

describe("undici's parts", () => {
  it("are the very classes, connector and errors of undici's index", () => {
    expect(parts.Agent).toBe(undici.Agent)
    expect(parts.Client).toBe(undici.Client)
    expect(parts.Pool).toBe(undici.Pool)
    expect(parts.ProxyAgent).toBe(undici.ProxyAgent)
    expect(parts.buildConnector).toBe(undici.buildConnector)
    expect(parts.errors).toBe(undici.errors)
  })

  it("give the dispatchers the index's request API (without the index, test/http/client.test.ts: every request)", async () => {
    const agent = new parts.Agent()
    expect(agent.request).toBe(undici.Dispatcher.prototype.request)
    await agent.close()
  })
})
