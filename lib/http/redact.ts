/**
 * The API key never leaves the process in clear: every text that is stored or printed passes
 * through a redactor that knows the key in the forms a server might echo it back in.
 */
export const KEY_PLACEHOLDER = '$CONFORM_API_KEY'
export const REDACTED = '[REDACTED]'

export type Redactor = (text: string) => string

/** The ways a secret can show up in text we write: as is, URL-encoded, JSON-escaped, base64, HTML/XML-escaped. */
function formsOf(secret: string): string[] {
  const html = (text: string, quote: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, quote).replace(/'/g, '&#39;')
  return [
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
    Buffer.from(secret).toString('base64url'),
    html(secret, '&quot;'),
    html(secret, '&#34;'),
  ]
}

/** A redactor for one or more secrets (the key from the environment, from --api-key, …). */
export function createRedactor(...secrets: (string | undefined)[]): Redactor {
  const forms = new Set<string>()
  for (const secret of secrets) if (secret) for (const form of formsOf(secret)) if (form.length > 0) forms.add(form)
  if (forms.size === 0) return (text) => text
  // longest first, so that a form containing another is replaced whole
  const pattern = new RegExp([...forms].sort((a, b) => b.length - a.length).map(escapeRegExp).join('|'), 'g')
  return (text) => (text.length === 0 ? text : text.replace(pattern, REDACTED))
}

/** The longest text a redacted secret can occupy: how far a cut must look past its end. */
export function longestForm(...secrets: (string | undefined)[]): number {
  return Math.max(0, ...secrets.flatMap((secret) => (secret ? formsOf(secret).map((f) => f.length) : [])))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
