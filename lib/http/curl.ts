/**
 * A curl command that repeats a recorded request. The key stays an environment variable
 * reference ($CONFORM_API_KEY), expanded by the shell of whoever runs it.
 */
import { KEY_PLACEHOLDER } from './redact.ts'
import type { RecordedRequest } from './exchange.ts'

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/** Double quotes let the shell expand $CONFORM_API_KEY; everything else in the value is escaped. */
function withKeyReference(text: string): string {
  const parts = text.split(KEY_PLACEHOLDER).map((part) => part.replace(/[\\"$`]/g, '\\$&'))
  return `"${parts.join(KEY_PLACEHOLDER)}"`
}

export function toCurl(request: RecordedRequest): string {
  const words = ['curl', '-i', '-X', request.method, singleQuoted(request.url)]
  for (const [name, value] of Object.entries(request.headers)) {
    const header = `${name}: ${value}`
    words.push('-H', header.includes(KEY_PLACEHOLDER) ? withKeyReference(header) : singleQuoted(header))
  }
  if (request.body !== undefined) words.push('--data-binary', singleQuoted(request.body))
  return words.join(' ')
}
