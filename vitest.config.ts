// The project's own tests (test/). The conformance suites in suites/ are not run by this config:
// they run only through `npm run conform`, which gives them a base URL and a key.
import { BaseSequencer, type TestSpecification } from 'vitest/node'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

/** dist/, the compiled code `npm run conform` runs (npm test builds it first). */
const DIST = fileURLToPath(new URL('./dist/', import.meta.url))

/**
 * The longest files first, whatever vitest's cache knows (a clean clone has none): the kill matrix,
 * and the same cases with the checks one at a time, are most of the run.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const longest = (spec: TestSpecification) => (spec.moduleId.includes('/test/mutants/') || spec.moduleId.endsWith('/checks-one-at-a-time.test.ts') ? 0 : 1)
    return sorted.sort((a, b) => longest(a) - longest(b))
  }
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // vitest's default on 2 cores is one file at a time, while most files wait on the runs and
    // servers they start (resends waited out, rate limits, slow answers, child vitest and npm
    // runs). Three at once: measured on an idle 2-core machine, 2 files took 120 s and 3 took 90 s
    // and 105 s, all green (with two, earlier, when the matrix was most of the CPU, three took as
    // long; it no longer is)
    maxWorkers: 3,
    // a worker keeps the modules it loaded for its next file (about 15 s of CPU in all): no test
    // mocks a module, stubs a global or changes process.env, and each starts the servers it needs
    isolate: false,
    sequence: { sequencer: LongestFirst },
    // a run in the test's process (test/helpers/run-conform.ts) imports dist/ natively, as
    // bin/conform.mjs does, instead of through vite's transform of every module in each test file
    server: { deps: { external: [new RegExp(`^${DIST.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)] } },
    testTimeout: 60_000,
    hookTimeout: 30_000,
    reporters: ['default'],
  },
})
