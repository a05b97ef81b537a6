/**
 * What a base URL that does not parse was most likely meant to be, when it can be told. Node's
 * server.address() gives an IPv6 address without brackets (`::1`), and a test file that builds its
 * service's address as `http://${address}:${port}/v1` gets `http://::1:35067/v1`, which no URL
 * parser takes: RFC 3986 §3.2.2 writes an IPv6 literal in brackets.
 */
export function meantUrl(raw: string): string | undefined {
  const bare = /^(https?:\/\/)([0-9a-f]*:[0-9a-f:.]*):(\d{1,5})(\/.*)?$/i.exec(raw.trim())
  if (!bare || (!bare[2]!.includes('::') && bare[2]!.split(':').length < 3)) return undefined
  const url = `${bare[1]}[${bare[2]}]:${bare[3]}${bare[4] ?? ''}`
  return URL.canParse(url) ? url : undefined
}
