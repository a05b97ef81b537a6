// The project's own tests (test/). The conformance suites in suites/ are not run by this config:
// they run only through `npm run conform`, which gives them a base URL and a key.
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
})
