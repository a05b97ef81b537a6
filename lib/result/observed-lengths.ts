/**
 * The lengths a service accepted and refused, read from the run's journal: a note, never a
 * verdict (lengths are not shown, §8). The creates that found them are the valid creates and the
 * plain ASCII of a refused one's sizes (suites/cases/write-order.ts, sameSizeKey).
 */
import type { JournalEntry } from '../http/journal.ts'

export interface ObservedLengths {
  /** The longest name and description (in characters) the service answered 201 to. */
  acceptedName?: number
  acceptedDescription?: number
  /** The shortest plain ASCII name and description it refused (400 or 413) after a create refused for length. */
  refusedName?: number
  refusedDescription?: number
}

const fieldsOf = (body: string | undefined): { name?: unknown; description?: unknown } | undefined => {
  try {
    const value = JSON.parse(body ?? '') as unknown
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as { name?: unknown; description?: unknown }) : undefined
  } catch {
    return undefined // cut to the evidence limit, or not JSON: it tells no length
  }
}

const chars = (text: unknown) => (typeof text === 'string' ? [...text].length : undefined)
const max = (a: number | undefined, b: number | undefined) => (b === undefined ? a : a === undefined ? b : Math.max(a, b))
const min = (a: number | undefined, b: number | undefined) => (b === undefined ? a : a === undefined ? b : Math.min(a, b))

export function observedLengths(journal: readonly JournalEntry[]): ObservedLengths {
  const seen: ObservedLengths = {}
  for (const entry of journal) {
    if (entry.method !== 'POST' || entry.probe === undefined || !entry.probe.startsWith('create-')) continue
    const fields = fieldsOf(entry.body)
    if (!fields) continue
    if (entry.status === 201) {
      seen.acceptedName = max(seen.acceptedName, chars(fields.name))
      seen.acceptedDescription = max(seen.acceptedDescription, chars(fields.description))
    } else if ((entry.status === 400 || entry.status === 413) && entry.probe.endsWith('-same-size')) {
      seen.refusedName = min(seen.refusedName, chars(fields.name))
      seen.refusedDescription = min(seen.refusedDescription, chars(fields.description))
    }
  }
  return seen
}

/** The note a report shows, or undefined when the run met no limit. */
export function lengthsNote(seen: ObservedLengths): string | undefined {
  if (seen.refusedName === undefined && seen.refusedDescription === undefined) return undefined
  const accepted = `names of up to ${seen.acceptedName ?? 0} and descriptions of up to ${seen.acceptedDescription ?? 0} characters were accepted`
  const refused = `plain ASCII of a ${seen.refusedName}-character name${seen.refusedDescription === undefined ? '' : ` and a ${seen.refusedDescription}-character description`} was refused`
  return `Length limits (not shown, §8: a freedom, not a failure): ${accepted}; ${refused}, so the classes of strings went again in short values`
}
