/**
 * The measured part of docs/performance.md, written by a full `npm run bench` between two markers:
 * the date, the machine, and the tables of the run it just measured. The rest of the page (how the
 * bench measures, why a run has a runner of its own) is written by hand around it.
 * test/spec/docs.test.ts checks that the block is there and has the tables the bench writes now.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { listsTable, phasesTable, runsTable, setUpTable, sideBySideTable, table, type BenchReport } from './report.ts'

export const PERFORMANCE_PAGE = fileURLToPath(new URL('../../docs/performance.md', import.meta.url))
export const BEGIN = '<!-- measured by npm run bench: begin -->'
export const END = '<!-- measured by npm run bench: end -->'

/** The headings of the block, in order: a page whose block lacks one was written by an older bench. */
export const BLOCK_HEADINGS = ['### The runs', '### Side by side with Dredd', '### Where the time goes', '### The set-up, item by item', '### Large lists', '### Targets'] as const

export function measuredBlock(r: BenchReport & { startedAt: string }): string {
  const m = r.machine
  const out = [
    BEGIN,
    '',
    `Measured ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC on ${m.nproc} × ${m.cpu}, ${Math.round(m.memoryMiB / 1024)} GiB, ${m.platform}, Node ${m.node}; load average ${m.loadAverageAtStart.join(' ')} at the start, ${m.loadAverageAtEnd.join(' ')} at the end. Medians of ${r.repetitions.conform} runs of each kind, interleaved.`,
    '',
    BLOCK_HEADINGS[0],
    '',
    runsTable(r, true),
    '',
    BLOCK_HEADINGS[1],
    '',
    r.sideBySide ? sideBySideTable(r.sideBySide, true) : 'Not measured in this run (Dredd could not be installed, or --without-dredd).',
    '',
    BLOCK_HEADINGS[2],
    '',
    phasesTable(r.conform, true),
    '',
    BLOCK_HEADINGS[3],
    '',
    'When each item before the first request was done, in ms from the spawn (medians); the runner and the suites load beside the preflight or the server\'s start.',
    '',
    setUpTable(r.conform, true),
    '',
    BLOCK_HEADINGS[4],
    '',
    listsTable(r, true),
    '',
    BLOCK_HEADINGS[5],
    '',
    table([['target', 'limit', 'actual', 'verdict'], ...r.targets.map((t) => [t.target, t.limit, t.actual, t.met ? 'met' : `missed by ${t.missedBy}`])], true),
    '',
    END,
  ]
  return out.join('\n')
}

/** Replaces the block of docs/performance.md (or only builds it, dryRun); returns the page's path. */
export function writePerformancePage(r: BenchReport & { startedAt: string }, { dryRun }: { dryRun: boolean }): string {
  const page = readFileSync(PERFORMANCE_PAGE, 'utf8')
  const from = page.indexOf(BEGIN)
  const to = page.indexOf(END)
  if (from < 0 || to < from) throw new Error(`${PERFORMANCE_PAGE} has no block between ${BEGIN} and ${END}`)
  const next = page.slice(0, from) + measuredBlock(r) + page.slice(to + END.length)
  if (!dryRun) writeFileSync(PERFORMANCE_PAGE, next)
  return PERFORMANCE_PAGE
}
