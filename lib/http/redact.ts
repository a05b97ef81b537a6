/**
 * The API key never leaves the process in clear: every text that is stored or printed passes
 * through a redactor that knows the key in the forms a server might echo it back in.
 */
export const KEY_PLACEHOLDER = '$CONFORM_API_KEY'
export const REDACTED = '[REDACTED]'

export type Redactor = (text: string) => string

export function createRedactor(secret: string | undefined): Redactor {
  if (!secret) return (text) => text
  const forms = new Set<string>([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)])
  forms.add(Buffer.from(secret).toString('base64'))
  const pattern = new RegExp([...forms].filter((f) => f.length > 0).map(escapeRegExp).join('|'), 'g')
  return (text) => (text.length === 0 ? text : text.replace(pattern, REDACTED))
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
