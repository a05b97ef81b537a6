/**
 * JSON text redacted inside its values only, its structure kept: the last resort of
 * redactedJsonText and redactedJsonLines (json-report.ts), when the report redacted whole no longer
 * parses. A key that is a piece of JSON's own text hid it: `1` or `2` (every count, `"exitCode": 1`
 * became `"exitCode": [REDACTED]`), `t` or `n` (the escapes `\t` and `\n` of every body),
 * `true` (every flag), `1234` (a duration), `{`, `,` or `:`, and compare, merge and every script
 * read no report at all. Here each string is redacted as the text it holds (decoded, then written
 * again as portableJson writes it), a property name of the model (`keptName`) is kept, and a number
 * or literal the key hides is written as the string "[REDACTED]" in its place.
 */
import { portableJsonText } from '../json/portable-json.ts'

/** A string of JSON, quotes and escapes with it. */
const STRING = /"(?:[^"\\]|\\.)*"/y
/** A number or literal of JSON. */
const SCALAR = /-?[0-9][0-9.eE+-]*|true|false|null/y
const REDACTED = '[REDACTED]'

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Whether every line of `text` (journal.ndjson's) parses as JSON; blank lines are none. */
export const linesParse = (text: string): boolean => text.split('\n').every((line) => line.trim() === '' || parses(line))
export const jsonParses = parses

/** One string token redacted: as the text it holds, then as written (an escaped form the text does not show), as long as it stays a string. */
function stringRedacted(token: string, redact: (text: string) => string): string {
  const value = JSON.parse(token) as string
  const hidden = redact(value)
  const written = hidden === value ? token : portableJsonText(JSON.stringify(hidden))
  const inner = written.slice(1, -1)
  const again = redact(inner)
  return again !== inner && parses(`"${again}"`) ? `"${again}"` : written
}

/**
 * `text` (one JSON document, or lines of them) with every string value and every property name but
 * the model's redacted, and every number or literal the key hides made the string "[REDACTED]":
 * whatever the key, the text parses as before, with the same names.
 */
export function stringsRedacted(text: string, redact: (text: string) => string, keptName: (name: string) => boolean): string {
  let out = ''
  let at = 0
  while (at < text.length) {
    const c = text[at] as string
    if (c === '"') {
      STRING.lastIndex = at
      const token = STRING.exec(text)?.[0]
      if (token === undefined) return out + text.slice(at)
      at += token.length
      const name = /^\s*:/.test(text.slice(at, at + 8)) && keptName(JSON.parse(token) as string)
      out += name ? token : stringRedacted(token, redact)
      continue
    }
    SCALAR.lastIndex = at
    const scalar = /[-0-9tfn]/.test(c) ? SCALAR.exec(text)?.[0] : undefined
    if (scalar !== undefined) {
      out += redact(scalar) === scalar ? scalar : `"${REDACTED}"`
      at += scalar.length
      continue
    }
    out += c
    at++
  }
  return out
}
