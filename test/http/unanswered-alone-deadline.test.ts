// A try alone waits for the run's connections to close and settle (lib/http/unanswered-alone.ts):
// up to 2.25 s. The request's end (--timeout, --deadline, a signal) ends that wait at once, or the
// run ran past its deadline by as much (review34).
import { expect, test } from 'vitest'
import type { ConnectionPools } from '../../lib/http/connection-pools.ts'
import { clearTheWire, type AloneTry } from '../../lib/http/unanswered-alone.ts'

// pools whose connections take the whole second clearTheWire allows them to close
const slowToClose = { closeEveryConnection: () => new Promise<void>((done) => setTimeout(done, 1_000)) } as unknown as ConnectionPools

test('the wait for the wire to clear ends when the request is aborted, not 1.25 s later', async () => {
  const alone: AloneTry = {}
  const started = performance.now()
  const wait = clearTheWire(slowToClose, 'http://127.0.0.1:1', alone, AbortSignal.timeout(50))
  await expect(wait).rejects.toThrow()
  expect(performance.now() - started).toBeLessThan(600)
  expect(alone.opened).toBeUndefined()
})

test('a request not aborted waits the wire out and goes alone', async () => {
  const alone: AloneTry = {}
  await clearTheWire(slowToClose, 'http://127.0.0.1:1', alone, new AbortController().signal)
  expect(alone.opened).toBe(0)
})
