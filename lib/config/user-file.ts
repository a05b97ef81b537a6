/**
 * The files a user names (a targets file, a baseline, a .env file, the reports compare and merge
 * read), read whole but never past a bound: `--targets /dev/zero` or a baseline pointed at a log that grows read on until memory ran
 * out, long past any --deadline, since a read of the command's own files comes before the run's
 * clock can stop anything. A pipe (`--targets <(make-targets)`, /dev/stdin) is read as `cat` reads
 * it, until its writer ends it.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs'

const CHUNK = 64 * 1024

/**
 * The suite's own reports read back (compare, merge): a results.json holds each exchange once, its
 * bodies cut (a run against a million-record list writes a few MiB), so this is far past any.
 */
export const REPORT_FILE_MAX_BYTES = 256 * 1024 * 1024

/** A .env file is a few lines: /dev/zero or a growing log named by --env is refused at this. */
export const ENV_FILE_MAX_BYTES = 1024 * 1024

/** Thrown when the file holds more than `maxBytes`; the caller names the file and what it is. */
export class UserFileTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`it holds more than ${shownBytes(maxBytes)}`)
  }
}

export const shownBytes = (bytes: number): string => (bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`)

/** Why a file could not be read, in words: what fs threw, or that it is too large. */
export function whyUnreadable(error: unknown): string {
  if (error instanceof UserFileTooLarge) return error.message
  const code = (error as NodeJS.ErrnoException).code
  return code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? (error as Error).message)
}

/** The file's text (UTF-8); throws what fs throws (ENOENT, EISDIR, EACCES…) or UserFileTooLarge. */
export function readUserText(path: string, maxBytes: number): string {
  const fd = openSync(path, 'r')
  try {
    const stat = fstatSync(fd)
    // a directory opens on Linux, and its read fails: say so as a read of it would
    if (stat.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read`), { code: 'EISDIR' })
    // a regular file says its size; a device or a pipe is read up to the bound
    if (stat.isFile() && stat.size > maxBytes) throw new UserFileTooLarge(maxBytes)
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK)
      let read: number
      try {
        read = readSync(fd, chunk, 0, CHUNK, null)
      } catch (error) {
        // a pipe opened non-blocking by the shell has nothing yet: wait for its writer, as cat does
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10)
          continue
        }
        throw error
      }
      if (read === 0) break
      total += read
      if (total > maxBytes) throw new UserFileTooLarge(maxBytes)
      chunks.push(chunk.subarray(0, read))
    }
    return Buffer.concat(chunks, total).toString('utf8')
  } finally {
    closeSync(fd)
  }
}
