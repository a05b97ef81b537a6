/**
 * A server's text that a failure quotes cut short (a record's name at 120 characters, a schema
 * problem at 300): every secret a redactor was made for in this process (secretsGiven: the run's
 * key, a fleet's keys, a secret --header) hidden first, then cut clear of secrets. Cut first and
 * redacted by the reports after, a key the server echoed whole was made a piece that no report
 * hides: a key a character at a time (a zero-width space or a space after each) cut at 120 kept 28
 * of its 36 letters and digits, and a key glued to the text before it ("nnn…" then the key) its
 * first 9, shorter than a run the reports hide (secret-runs.ts).
 */
import { createRedactor, secretsGiven } from './redact.ts'
import { cutClearOfSecrets } from './secret-runs.ts'

export function quotedCut(text: string, limit: number): string {
  if (text.length <= limit) return text
  return cutClearOfSecrets(createRedactor(...secretsGiven())(text), limit)
}
