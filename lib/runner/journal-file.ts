/**
 * `<report-dir>/journal.ndjson`: the run's journal (lib/http/journal.ts) appended line by line as
 * the run goes, so that the ledger of a run that crashed or was killed is kept. A request's
 * `dispatched` line is in the kernel before the request is handed to undici: the client says when
 * (beforeSend), and the lines held since the last write go with one write. Lines are held until
 * then, or the end of the event loop's turn, whichever comes first: the checks start their ~130
 * requests in a burst, whose dispatched lines went in ~130 writes, one each, and now go in one
 * (a fleet of ten deployments spent ~3 % of its time in those writes). A process killed with
 * SIGKILL keeps a line for every request that may have reached the server, and loses at most the
 * lines of its last turn that no request waited for. Lines are redacted as every report is, the lines of a turn at once. A
 * write that fails stops the appends and is said once.
 */
import { closeSync, openSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeFolder } from './report-files.ts'
import type { JournalSink } from '../http/journal.ts'
import { portableJsonText } from '../json/portable-json.ts'
import { redactedJsonLines } from '../reporters/json-report.ts'

export interface JournalFile extends JournalSink {
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
  let held: string[] = []
  let flushScheduled = false
  // a dispatched line is held: the next request handed to undici may be its request
  let dispatchedHeld = false
  const flush = () => {
    flushScheduled = false
    dispatchedHeld = false
    if (held.length === 0 || fd === undefined) return
    // made portable and redacted once for the turn's lines, not line by line: a fleet of ten wrote
    // ~5,000 lines, each with its passes of the key's forms and of the characters JSON leaves raw.
    // The same text: no form of a key holds a line break, and each line is JSON.stringify's
    // its property names kept whatever the key (redactedJsonLines)
    const text = redactedJsonLines(portableJsonText(held.join('\n')), redact) + '\n'
    held = []
    try {
      writeSync(fd, text)
    } catch (error) {
      failed(error)
    }
  }
  return {
    append(line) {
      if (fd === undefined) return
      held.push(JSON.stringify(line))
      if (line.phase === 'dispatched') dispatchedHeld = true
      if (!flushScheduled) {
        flushScheduled = true
        setImmediate(flush)
      }
    },
    beforeSend() {
      if (dispatchedHeld) flush()
    },
    close() {
      flush()
      if (fd !== undefined) closeSync(fd)
      fd = undefined
    },
    get failure() {
      return failure
    },
  }
}
