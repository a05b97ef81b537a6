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

/**
 * `text` decoded every way a key echoed one character or byte at a time may be written, its NULs
 * (of UTF-16) dropped: escapes (\u, \u{…}, \x, their backslash escaped or percent-encoded, %u, CSS's, octal,
 * percent, quoted-printable, character references, each twice over), then every run of base64 or hex characters decoded (from each of its first
 * characters: a key inside "Bearer …" or Basic credentials is aligned anyhow). A key found in any
 * of these texts was written so that anyone can read it.
 */
export function unescapedTexts(text: string): string[] {
  const dropNuls = (t: string) => t.replace(/\u0000|⟨NUL⟩|⟨U\+0000⟩/g, '')
  let unescaped = text
  for (let round = 0; round < 2; round++) {
    unescaped = dropNuls(
      unescaped
        .replace(/(?:\\{1,4}|%(?:25)?5[cC])u\{([0-9a-fA-F]{1,6})\}/g, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
        .replace(/(?:\\{1,4}|%(?:25)?5[cC]|%(?:25)?)u([0-9a-fA-F]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        .replace(/(?:\\{1,4}|%(?:25)?5[cC])x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        // CSS's escapes: hex ended by a space, or six digits
        .replace(/\\([0-9a-fA-F]{1,6}) |\\([0-9a-fA-F]{6})/g, (_, a?: string, b?: string) => String.fromCodePoint(Math.min(parseInt((a ?? b)!, 16), 0x10ffff)))
        .replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))
        .replace(/[%=]([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
        .replace(/&#[xX]([0-9a-fA-F]{1,6});/g, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
        .replace(/&#([0-9]{1,7});/g, (_, d: string) => String.fromCodePoint(Math.min(parseInt(d, 10), 0x10ffff))),
    )
  }
  const decoded: string[] = []
  for (const plain of [text, unescaped]) {
    for (const [run] of plain.matchAll(/[A-Za-z0-9+/_-]{16,}/g)) {
      for (let at = 0; at < 4; at++) decoded.push(dropNuls(Buffer.from(run.slice(at), 'base64').toString('latin1')))
      if (/^[0-9a-fA-F]+$/.test(run)) for (let at = 0; at < 2; at++) decoded.push(dropNuls(Buffer.from(run.slice(at), 'hex').toString('latin1')))
    }
  }
  return [unescaped, ...decoded]
}

/** Where any of `keys` appears in `texts` (by name), in any of its forms or decoded (unescapedTexts): empty when nowhere. */
export function keyLeaks(texts: Record<string, string>, keys: readonly string[]): string[] {
  const leaks: string[] = []
  for (const [where, text] of Object.entries(texts)) {
    const decoded = unescapedTexts(text)
    for (const key of keys) {
      for (const [form, value] of Object.entries(formsOf(key))) if (text.includes(value)) leaks.push(`${where} holds a key (${form})`)
      if (decoded.some((t) => t.includes(key))) leaks.push(`${where} holds a key (escaped, in UTF-16, base64 or hex)`)
    }
  }
  return leaks
}
