/**
 * The harness of the in-process client tests (test/http/client.test.ts, resends.test.ts): real
 * servers on loopback, a client with the test's options, all closed afterwards.
 */
import { afterAll } from 'vitest'
import { DEFAULTS } from '../../lib/config/config.ts'
import { HttpClient, type ClientOptions } from '../../lib/http/client.ts'
import { runClock } from '../../lib/runner/run-clock.ts'
import { httpServer, type HostileServer } from '../hostile/hostile-servers.ts'

const KEY = 'client-test-key-0123456789abcdef'
const servers: HostileServer[] = []
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()))
})

export async function serve(handler: Parameters<typeof httpServer>[0]): Promise<HostileServer> {
  return closedAfterwards(await httpServer(handler))
}

/** A server started elsewhere (test/hostile/hostile-servers.ts), closed after the file's tests. */
export function closedAfterwards(server: HostileServer): HostileServer {
  servers.push(server)
  return server
}

/** `deadlineAt`: the run's deadline, kept as a run keeps it (one timer that ends the run's clock, lib/http/run-clock.ts). */
export async function withClient<T>(options: Partial<ClientOptions> & { baseUrl: string; deadlineAt?: number }, use: (client: HttpClient) => Promise<T>): Promise<T> {
  const { deadlineAt, ...rest } = options
  const run = deadlineAt === undefined ? undefined : runClock(deadlineAt)
  const timer = deadlineAt === undefined ? undefined : setTimeout(() => run?.end(), Math.max(0, deadlineAt - Date.now()))
  const client = new HttpClient({ apiKey: KEY, timeoutMs: 2_000, maxResponseBytes: 1_000_000, concurrency: DEFAULTS.concurrency, ...(run ? { run } : {}), ...rest })
  try {
    return await use(client)
  } finally {
    clearTimeout(timer)
    await client.close()
  }
}
