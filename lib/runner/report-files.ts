/**
 * The report files of a run and where they go. Light on purpose: the command line writes the
 * reports of a run that could not be made (lib/runner/cannot-run-reports.ts) without loading the
 * runner (vitest).
 */
import { rmSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Every file a run writes to its report directory. */
export const REPORT_FILES = ['results.json', 'junit.xml', 'report.html', 'summary.md'] as const

export type ReportFile = (typeof REPORT_FILES)[number]

/** Removes the report files an earlier run left, so that none can be read as this run's. */
export function clearReports(reportDir: string): void {
  for (const file of REPORT_FILES) rmSync(join(reportDir, file), { force: true })
}

/** A path as the user should read it: relative to where they ran the command, when that is shorter. */
export function shownPath(path: string, userCwd: string): string {
  const shown = relative(userCwd, path)
  return shown.startsWith('..') || shown === '' ? path : shown
}
