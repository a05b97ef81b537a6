/** Media type without parameters, lower-cased: `Application/JSON; charset=utf-8` → `application/json` (RFC 9110 §8.3.1: case-insensitive). */
export function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0]?.trim().toLowerCase() || undefined
}
