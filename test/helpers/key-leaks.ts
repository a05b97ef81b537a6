/**
 * Where a secret shows in what a run left: every file under a folder, and the forms a secret
 * takes in a leak. Shared by the tests that prove no key or credential reaches an output.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { sameShape } from '../../lib/http/redact.ts'

/** Every form a key could take in a leak: as is, encoded, and the wrong key of its shape the suite sends. */
export function formsOf(key: string): Record<string, string> {
  return {
    raw: key,
    'URL-encoded': encodeURIComponent(key),
    base64: Buffer.from(key).toString('base64'),
    'Bearer … in base64': Buffer.from(`Bearer ${key}`).toString('base64'),
    // the credentials of HTTP Basic with the key as the user name, which the suite sends (suites/cases/credentials.ts)
    'Basic user in base64': Buffer.from(`${key}:`).toString('base64'),
    'same shape': sameShape(key),
    ...writtenOut(key),
  }
}

/** The key's bytes in hex, and the key upper- or lower-cased, for a key the redactor hides so (8 characters or more; folded, with a digit). */
export function writtenOut(key: string): Record<string, string> {
  if (key.length < 8) return {}
  const hex = Buffer.from(key).toString('hex')
  return { hex, 'hex, upper-case': hex.toUpperCase(), 'every byte percent-escaped, lower-case': hex.replace(/../g, '%$&'), ...(/[0-9]/.test(key) ? { 'upper-case': key.toUpperCase(), 'lower-case': key.toLowerCase() } : {}) }
}

/** Every file under `dir`, by its path relative to it (latin1: every byte kept). */
export function filesUnder(dir: string): Record<string, string> {
  const texts: Record<string, string> = {}
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name)
      if (statSync(path).isDirectory()) walk(path)
      else texts[relative(dir, path)] = readFileSync(path, 'latin1')
    }
  }
  walk(dir)
  return texts
}

/** Where any of `keys` appears in `texts` (by name), in any of its forms: empty when nowhere. */
export function keyLeaks(texts: Record<string, string>, keys: readonly string[]): string[] {
  const leaks: string[] = []
  for (const [where, text] of Object.entries(texts)) {
    for (const key of keys) {
      for (const [form, value] of Object.entries(formsOf(key))) if (text.includes(value)) leaks.push(`${where} holds a key (${form})`)
    }
  }
  return leaks
}
