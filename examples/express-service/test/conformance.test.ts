// The conformance suite as part of this service's own tests: one describe per rule of the
// interface, one test per check, against the app started here on a free port.
import { afterAll, beforeAll } from 'vitest'
import { defineConformance } from 'petstore-categories-conformance/vitest'
import { startService, type RunningService } from '../src/app.ts'

const apiKey = 'example-service-key-5d1f0a'
let service: RunningService

// declared before defineConformance(): its beforeAll runs first, so the address exists when the run asks for it
beforeAll(async () => {
  service = await startService({ apiKey, port: 0 })
})
afterAll(() => service?.close())

defineConformance({ baseUrl: () => service.baseUrl, apiKey })
