/**
 * `<report-dir>/journal.ndjson`: the run's journal (lib/http/journal.ts) appended line by line as
 * the run goes, so that the ledger of a run that crashed or was killed is kept. One open file and
 * one write per line, each in the kernel before the next event (a killed process loses none);
 * lines are redacted as every report is. A write that fails stops the appends and is said once.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeFolder } from './report-files.ts'
import type { JournalLine } from '../http/journal.ts'

export interface JournalFile {
  append(line: JournalLine): void
  close(): void
  /** Why the file could not be written, if it could not. */
  readonly failure: string | undefined
}

/** Opens (truncates) `path` for a run's journal. */
export function openJournalFile(path: string, redact: (text: string) => string): JournalFile {
  let fd: number | undefined
  let failure: string | undefined
  const failed = (error: unknown) => {
    failure ??= `the run's journal could not be written to ${path}: ${(error as Error).message}`
    if (fd !== undefined) closeSync(fd)
    fd = undefined
  }
  try {
    // the report folder may not exist yet (a fleet's <report-dir>/<label>/, a library call's reportDir)
    makeFolder(dirname(path))
    fd = openSync(path, 'w')
  } catch (error) {
    failed(error)
  }
  return {
    append(line) {
      if (fd === undefined) return
      try {
        writeSync(fd, redact(JSON.stringify(line)) + '\n')
      } catch (error) {
        failed(error)
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
    get failure() {
      return failure
    },
  }
}
