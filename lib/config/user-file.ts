/**
 * The files a user names (a targets file, a baseline, a .env file, the reports compare and merge
 * read), read whole but never past a bound: `--targets /dev/zero` or a baseline pointed at a log that grows read on until memory ran
 * out, long past any --deadline, since a read of the command's own files comes before the run's
 * clock can stop anything. A pipe (`--targets <(make-targets)`, /dev/stdin) is read as `cat` reads
 * it, until its writer ends it.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs'

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
  // a symbolic link that leads back to itself (ln -s x x, a folder linked into itself) is said, not as its bare code
  if (code === 'ELOOP') return 'a symbolic link in a loop (it leads back to itself)'
  return code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (code ?? String((error as Error).message).split('\n')[0]!)
}

/**
 * The file's text (UTF-8, or UTF-16 after its byte order mark: textOf); throws what fs throws
 * (ENOENT, EISDIR, EACCES…) or UserFileTooLarge. `regularOnly`: a regular file or nothing, opened
 * without waiting for a FIFO's writer.
 */
export function readUserText(path: string, maxBytes: number, regularOnly = false): string {
  return textOf(readUserBytes(path, maxBytes, regularOnly))
}

/**
 * A file of the team's as text: UTF-8, or UTF-16 when it starts with UTF-16's byte order mark (or a zero byte), as
 * Windows PowerShell 5.1 writes a file by `>` or `Out-File` (little-endian) and Notepad's
 * "UTF-16 BE": a baseline or a targets file saved so was refused as "not JSON: Unexpected token
 * '�'", which told nobody to save it again as UTF-8. The mark is left out; a UTF-8 one is the
 * caller's to take off (a report is never written with one).
 */
export function textOf(bytes: Buffer): string {
  const even = (b: Buffer) => Buffer.from(b.subarray(0, b.length - (b.length % 2)))
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return even(bytes.subarray(2)).toString('utf16le')
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return even(bytes.subarray(2)).swap16().toString('utf16le')
  // without the mark (iconv -t UTF-16LE, .NET's new UnicodeEncoding(false, false)): a JSON, YAML or
  // .env file begins with an ASCII character, so a zero byte beside a non-zero one is UTF-16 (RFC 4627 §3 told them so); a
  // .env read as UTF-8 came out empty, and its key "not set"
  if (bytes.length >= 2 && bytes[0] !== 0 && bytes[1] === 0) return even(bytes).toString('utf16le')
  if (bytes.length >= 2 && bytes[0] === 0 && bytes[1] !== 0) return even(bytes).swap16().toString('utf16le')
  return bytes.toString('utf8')
}

/** The file's bytes, read as readUserText reads them (a PKCS#12 file is no text). */
export function readUserBytes(path: string, maxBytes: number, regularOnly = false): Buffer {
  const fd = openSync(path, regularOnly ? constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) : 'r')
  try {
    const stat = fstatSync(fd)
    if (regularOnly && !stat.isFile() && !stat.isDirectory()) throw new Error('it is no regular file (a pipe or a device), which a report always is')
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
    return Buffer.concat(chunks, total)
  } finally {
    closeSync(fd)
  }
}

/**
 * A report read back (compare, merge) from a folder another job may have written: a regular file
 * only, opened without waiting, up to REPORT_FILE_MAX_BYTES. A FIFO planted in an artifact blocked
 * the open for ever, past SIGTERM too, since the process never came back to its event loop.
 */
export function readReportText(path: string): string {
  return readUserText(path, REPORT_FILE_MAX_BYTES, true)
}

/**
 * A report's JSON, from a folder (`inFolder`: a regular file only, as readReportText reads it) or
 * as a file the user named. A syntax error says what is wrong, and never quotes the file: V8 quotes its
 * first characters (the whole of a short one), and a results.json linked to a secret's file would
 * put the secret in the fleet page merge writes.
 */
export function readReportJson(path: string, { inFolder = true }: { inFolder?: boolean } = {}): unknown {
  // a file the user names itself (compare A.json <(…)) may be a pipe, read as cat reads it
  return parseJsonQuietly(inFolder ? readReportText(path) : readUserText(path, REPORT_FILE_MAX_BYTES))
}

/**
 * JSON.parse of a file's text whose syntax error never quotes the text: V8 quotes its first
 * characters (the whole of a short one), and a file named by mistake (a secret's, a .env) would
 * put what it holds in a message, or a page.
 */
export function parseJsonQuietly(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error((error as Error).message.replace(/, ".*"(?:\.\.\.)? is not valid JSON$/s, ': it is not valid JSON'))
  }
}
