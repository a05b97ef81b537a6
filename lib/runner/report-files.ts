/**
 * The report files of a run and where they go. Light on purpose: the command line writes the
 * reports of a run that could not be made (lib/runner/cannot-run-reports.ts) without loading the
 * runner and the suites.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** Every file a run writes to its report directory once it has ended. */
export const REPORT_FILES = ['results.json', 'junit.xml', 'report.html', 'summary.md'] as const

export type ReportFile = (typeof REPORT_FILES)[number]

/** The run's journal, which the run appends to as it goes (lib/runner/journal-file.ts), beside the reports. */
export const JOURNAL_FILE = 'journal.ndjson'

/** The pages a fleet writes at the top of its report folder, beside junit.xml (lib/fleet/fleet-files.ts). */
export const FLEET_PAGE_FILES = ['fleet.json', 'fleet.md', 'fleet.html'] as const

/**
 * Removes the files an earlier run left, so that none can be read as this run's: by default every
 * one, the journal and a fleet's pages too (before a run starts, or when it cannot be made: a
 * fleet.html left in the folder said PASS beside this run's FAIL); the reports alone when a run
 * that has written its journal writes them.
 */
export function clearReports(reportDir: string, files: readonly string[] = [...REPORT_FILES, JOURNAL_FILE, ...FLEET_PAGE_FILES]): void {
  for (const file of files) rmSync(join(reportDir, file), { force: true })
}

/**
 * mkdir -p, one folder at a time: Node's own recursive mkdirSync loops for ever on a path it can
 * never create under a pseudo file system (/proc/x: each mkdir answers ENOENT, and it retries the
 * parent), which would hang the run past its deadline before the first request.
 */
export function makeFolder(dir: string): void {
  const missing: string[] = []
  for (let at = resolve(dir); !existsSync(at); at = dirname(at)) {
    missing.unshift(at)
    if (dirname(at) === at) break
  }
  for (const folder of missing) mkdirSync(folder)
}

/** A path as the user should read it: relative to where they ran the command, when that is shorter. */
export function shownPath(path: string, userCwd: string): string {
  const shown = relative(userCwd, path)
  return shown.startsWith('..') || shown === '' ? path : shown
}

/**
 * Why reports cannot be written to `reportDir`, or undefined when they can: asked before the first
 * request, so that a run is not made only to lose its verdict (a read-only mount, a file where the
 * folder should be, no permission).
 */
export function reportDirProblem(reportDir: string): string | undefined {
  const probe = join(reportDir, `.conform-write-test-${process.pid}`)
  try {
    makeFolder(reportDir)
    writeFileSync(probe, '')
    rmSync(probe, { force: true })
    return undefined
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException
    const why = { EACCES: 'permission denied', EPERM: 'permission denied', EROFS: 'a read-only file system', ENOTDIR: 'a file stands where a folder is needed', EEXIST: 'a file stands where the folder should be', ENOSPC: 'no space left on the device', ENOENT: 'no folder can be made there' }[code ?? ''] ?? message
    return `cannot write the reports to ${reportDir}: ${why}; give a writable folder with --report-dir`
  }
}
