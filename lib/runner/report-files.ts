/**
 * The report files of a run and where they go. Light on purpose: the command line writes the
 * reports of a run that could not be made (lib/runner/cannot-run-reports.ts) without loading the
 * runner and the suites.
 */
import { existsSync, lstatSync, mkdirSync, rmdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { readReportJson } from '../config/user-file.ts'

/** Every file a run writes to its report directory once it has ended. */
export const REPORT_FILES = ['results.json', 'junit.xml', 'report.html', 'summary.md'] as const

export type ReportFile = (typeof REPORT_FILES)[number]

/** The run's journal, which the run appends to as it goes (lib/runner/journal-file.ts), beside the reports. */
export const JOURNAL_FILE = 'journal.ndjson'

/** What a dry run writes (lib/cli/dry-run.ts): the requests a run would send. A run removes them, as an earlier run's reports: they are no record of what it sent. */
export const DRY_RUN_FILES = ['dry-run.md', 'dry-run.json'] as const

/** The pages a fleet writes at the top of its report folder, beside junit.xml (lib/fleet/fleet-files.ts). */
export const FLEET_PAGE_FILES = ['fleet.json', 'fleet.md', 'fleet.html'] as const

/**
 * Removes the files an earlier run left, so that none can be read as this run's: by default every
 * one, the journal and a fleet's pages too (before a run starts, or when it cannot be made: a
 * fleet.html left in the folder said PASS beside this run's FAIL); the reports alone when a run
 * that has written its journal writes them.
 */
export function clearReports(reportDir: string, files: readonly string[] = [...REPORT_FILES, JOURNAL_FILE, ...FLEET_PAGE_FILES, ...DRY_RUN_FILES]): void {
  for (const file of files) rmSync(join(reportDir, file), { force: true })
}

/**
 * A run's or a fleet's folder cleared (clearReports), with the reports of the deployments an earlier
 * fleet's page there lists (fleetFolders): not merge's, whose inputs may be inside its OUT, and
 * whose page says which are its own.
 */
export function clearRunFolder(reportDir: string): void {
  for (const folder of fleetFolders(reportDir)) clearFleetFolder(folder)
  clearReports(reportDir)
}

/**
 * The folders an earlier fleet's page (fleet.json) in `reportDir` lists as its deployments',
 * `<label>/` directly inside it: a single run into the folder left them, and its results.json sat
 * above last week's deployments' verdicts, which `merge reports/*` or a reader mixed with its own.
 * Only folders the page names, directly inside (a merged page's links to other folders are
 * not its own), and none that is a link: the files of another folder are not this run's to remove.
 */
function fleetFolders(reportDir: string): string[] {
  let page: unknown
  try {
    page = readReportJson(join(reportDir, 'fleet.json'))
  } catch {
    return []
  }
  const deployments = (page as { deployments?: unknown } | null)?.deployments
  if (!Array.isArray(deployments)) return []
  const top = resolve(reportDir)
  return deployments.flatMap((d: { report?: unknown } | null) => {
    if (typeof d?.report !== 'string') return []
    const folder = resolve(top, dirname(d.report))
    try {
      return dirname(folder) === top && lstatSync(folder, { throwIfNoEntry: false })?.isDirectory() ? [folder] : []
    } catch {
      return []
    }
  })
}

/** A fleet's deployment's reports and journal, and its folder when nothing else is in it; what cannot be removed (no permission, a folder named results.json) is left, and the run goes on. */
function clearFleetFolder(folder: string): void {
  // each report on its own: one that cannot be removed (a folder named results.json) keeps the others from none
  for (const file of [...REPORT_FILES, JOURNAL_FILE]) {
    try {
      rmSync(join(folder, file), { force: true })
    } catch {
      // kept, and so is the folder
    }
  }
  try {
    rmdirSync(folder)
  } catch {
    // something of the user's own is in it, or stays: kept, with the folder
  }
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
