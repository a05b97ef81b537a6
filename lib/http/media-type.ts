/** Media type without parameters, lower-cased: `Application/JSON; charset=utf-8` → `application/json` (RFC 9110 §8.3.1: case-insensitive). */
export function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined
}

/**
 * Each media type of a Content-Type, without parameters: one, unless the header came in several
 * field lines, which the client records joined with ", " (RFC 9110 §5.3), or a list was written
 * in one. A comma inside a quoted parameter value (`profile="a,b"`) does not split it.
 */
export function mediaTypes(contentType: string | undefined): string[] {
  if (contentType === undefined) return []
  const parts: string[] = []
  let part = ''
  let quoted = false
  for (let i = 0; i < contentType.length; i++) {
    const c = contentType[i]
    if (quoted && c === '\\') {
      part += c + (contentType[++i] ?? '')
      continue
    }
    if (c === '"') quoted = !quoted
    if (c === ',' && !quoted) {
      parts.push(part)
      part = ''
    } else part += c
  }
  parts.push(part)
  return parts.flatMap((p) => mediaType(p) ?? [])
}
