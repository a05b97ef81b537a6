/**
 * The run's Writes note (the run's test's annotation in vitest) when the embedded reference server
 * is checked: its memory, where no setting bounds the writes; with `readOnly` or `maxWrites`, the
 * plan those settings make, as the command line's first lines say it (test/cli/conform-embedded.test.ts).
 * `defineConformance({ readOnly: true })` with no address was said to write to the embedded
 * server's memory, in a run that sent no POST.
 */
import { expect, test } from 'vitest'
import { runConformanceWith } from '../../lib/api/run-conformance.ts'
import { EMBEDDED_WRITES_TO } from '../../lib/suite-kit/write-plan.ts'
import { manifest } from '../../suites/manifest.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'

test.each([
  ['no setting', {}, EMBEDDED_WRITES_TO],
  ['readOnly: true', { readOnly: true }, 'Writes: none (--read-only)'],
  ['maxWrites: 3', { maxWrites: 3 }, 'Writes: at most 3'],
])('the embedded server checked with %s: the Writes note', async (_, settings, starts) => {
  const run = await runConformanceWith(manifest, { ...settings, rule: 'create-returns-201', environment: {}, cwd: scratchDir('conform-embedded-plan-') })
  expect(run.result.embeddedServer).toBe(true)
  expect(run.writePlan.startsWith(starts), run.writePlan).toBe(true)
}, 60_000)
