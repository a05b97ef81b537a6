/**
 * A report folder held by one run at a time. A run empties its reportDir of an earlier run's files
 * and appends its journal there as it goes; two test files of a service's vitest that declare the
 * suite with the same reportDir run at once (vitest's default), and the later one deleted the
 * other's journal while it was written and replaced its reports, with no word: the ledger of a run
 * was lost. A run claims the folder with a file naming its process (created only where none is,
 * an atomic step); a second run while the claim's process lives is refused before any request,
 * with the way out. A claim whose process ended (a worker killed by a timeout) is taken over, and
 * so is one that names this process and thread but that it does not hold: a container's processes
 * get the same small ids run after run, so a claim left in a kept folder may name this very process.
 */
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'

/** The claim's file in the report folder. */
export const CLAIM_FILE = '.conform-run-in-progress'

/** Whether a process of this id is running (signal 0 only asks). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it runs, under another user
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * The claims this thread holds, by path: one naming this process and thread and not here was left
 * by an earlier process of the same id. Other threads of this process (vitest's threads pool runs a
 * test file in each) hold theirs apart, and their claims name their thread.
 */
const held = new Set<string>()

export type ReportDirClaim = { ok: true; release(): void } | { ok: false; problem: string }

/** Claims `reportDir` (an existing folder) for this run; `shown` is how a message names it. */
export function claimReportDir(reportDir: string, shown: string): ReportDirClaim {
  const path = join(reportDir, CLAIM_FILE)
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx')
      writeSync(fd, `${JSON.stringify({ pid: process.pid, thread: threadId, since: new Date().toISOString() })}\n`)
      closeSync(fd)
      held.add(path)
      return { ok: true, release: () => (held.delete(path), rmSync(path, { force: true })) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return { ok: true, release: () => {} }
    }
    let holder: { pid?: unknown; thread?: unknown; since?: unknown } = {}
    try {
      holder = JSON.parse(readFileSync(path, 'utf8')) as typeof holder
    } catch {
      // a claim being written, or not one of ours: read as held
    }
    const mine = holder.pid === process.pid && holder.thread === threadId
    if (typeof holder.pid === 'number' && (mine ? !held.has(path) : !alive(holder.pid))) {
      rmSync(path, { force: true })
      continue
    }
    const by = holder.pid === process.pid ? 'another run in this process' : `another run (process ${String(holder.pid)})`
    return {
      ok: false,
      problem: `reportDir ${shown} is in use by ${by}, which writes its journal there: two test files that declare the suite and run at once need a reportDir each (reportDir: 'reports/<the file's name>'); a run that was killed leaves ${CLAIM_FILE} there, which can be deleted`,
    }
  }
  return { ok: false, problem: `reportDir ${shown}: ${CLAIM_FILE} could not be claimed` }
}
