/**
 * A curl command that repeats a recorded request. The key stays an environment variable
 * reference ($CONFORM_API_KEY), expanded by the shell of whoever runs it.
 */
import { escapeRegExp, KEY_PLACEHOLDER, KEY_STAND_INS, REDACTED } from './redact.ts'
import type { RecordedRequest } from './exchange.ts'
import type { ClientTls } from '../config/client-tls.ts'

function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

const STAND_IN = new RegExp(KEY_STAND_INS.map((s) => escapeRegExp(s.placeholder)).join('|'), 'g')

/** Double quotes let the shell expand the key's stand-ins; everything else in the value is escaped. */
function withKeyReference(text: string): string {
  let out = ''
  let last = 0
  for (const match of text.matchAll(STAND_IN)) {
    const end = match.index + match[0].length
    // "$CONFORM_API_KEYx" would name another variable: braces keep the name apart
    const stuck = match[0] === KEY_PLACEHOLDER && /^[A-Za-z0-9_]/.test(text.slice(end))
    out += text.slice(last, match.index).replace(/[\\"$`]/g, '\\$&') + (stuck ? '${CONFORM_API_KEY}' : match[0])
    last = end
  }
  return `"${out + text.slice(last).replace(/[\\"$`]/g, '\\$&')}"`
}

/**
 * Bytes as a printf format in single quotes, each byte that is not printable ASCII as a three-digit
 * octal escape, as POSIX printf reads it in every shell (dash, bash, zsh, busybox): bash's $'…',
 * written before, is no quoting to dash (Debian's /bin/sh), which sent the body as the text "$…".
 * `|` and `&` escaped too, so that no text of a body reads as the line's `| curl -i ` or
 * `&& curl -i ` (run-reports.ts puts the TLS flags after the first of them).
 */
function printfFormat(bytes: Uint8Array): string {
  // a format's first "-" would be read as an option (bash: "printf: -…: invalid option")
  const plain = (b: number, i: number) => b >= 0x20 && b < 0x7f && !"'\\%|&".includes(String.fromCharCode(b)) && !(i === 0 && b === 0x2d)
  return `'${Array.from(bytes, (b, i) => (plain(b, i) ? String.fromCharCode(b) : `\\${b.toString(8).padStart(3, '0')}`)).join('')}'`
}

/** A word of the command made by printf: a URL or header holds no line break (which $(…) would drop at its end) and no NUL. */
const printedWord = (bytes: Uint8Array) => `"$(printf ${printfFormat(bytes)})"`

/**
 * Characters the reports would write as a marker (lib/reporters/visible-text.ts: controls, spaces
 * other than the ASCII one, format characters such as zero-width and bidi ones, ⟨ itself): a word
 * holding one is printed by printf from its UTF-8 bytes (printedWord), so the line a person copies from any
 * report sends the bytes the suite sent (a marked ⟨ZWJ⟩ pasted into a shell sends seven letters).
 */
const MARKED = /[\x00-\x1f\x7f-\xa0\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u27e8\ufeff\ufffe\uffff\p{Cf}]/u

/** A word of the command: single-quoted, or printed by printf when it holds a character the reports mark. */
function quoted(text: string): string {
  return MARKED.test(text) ? printedWord(Buffer.from(text, 'utf8')) : singleQuoted(text)
}

/** A basic regular expression for grep of the line of CONFORM_HEADERS that gives header `name`, single-quoted. */
const headerLine = (name: string) => `^[[:space:]]*${name.replace(/[.*^$]/g, '\\$&')}[[:space:]]*:`.replaceAll("'", `'\\''`)

/**
 * A secret --header, whose value every record holds redacted: its line of CONFORM_HEADERS (where
 * the docs ask for a secret header) taken by the shell of whoever runs the command, as the key is
 * from CONFORM_API_KEY. Written as recorded, the line sent the gateway "[REDACTED]" for its key.
 * The line as the run read it (lib/config/extra-headers.ts trims the name): spaces before the name
 * or the colon found no line, or went to the gateway as "X-Key : …", which a server refuses.
 */
function fromConformHeaders(name: string): string {
  return `"$(printf '%s\\n' "$CONFORM_HEADERS" | grep -i -m 1 '${headerLine(name)}' | sed 's/^[[:space:]]*\\([^:[:space:]]*\\)[[:space:]]*:[[:space:]]*/\\1: /')"`
}

/**
 * What goes before a line whose secret headers it takes from CONFORM_HEADERS: a test that the
 * variable holds a line of each, which stops the command with one line saying what to set. A run
 * given the header with --header left no CONFORM_HEADERS behind, and the line sent `-H ""` (no header)
 * to a gateway that refused it: a failure no one could repeat, and the reason not shown.
 */
function conformHeadersGuard(names: readonly string[]): string {
  const found = names.map((name) => `printf '%s\\n' "$CONFORM_HEADERS" | grep -qi '${headerLine(name)}'`)
  const wanted = `set CONFORM_HEADERS to the line(s) ${names.join(', ')}: VALUE that the run was given (--header or CONFORM_HEADERS)`.replaceAll("'", `'\\''`)
  return `{ ${found.join(' && ')}; } || { echo '${wanted}' >&2; false; } && `
}

export function toCurl(request: RecordedRequest): string {
  // a dot segment is sent as it is (a router may resolve it after its guard did not): so does curl with --path-as-is
  const asIs = /\/\.\.?(\/|$)/.test(new URL(request.url).pathname) || /\/\.\.?(\/|$)/.test(request.url.replace(/^[a-z]+:\/\/[^/]+/i, '')) ? ['--path-as-is'] : []
  const words = ['curl', '-i', ...asIs, '-X', request.method, quoted(request.url)]
  const fromVariable: string[] = []
  for (const [name, value] of Object.entries(request.headers)) {
    // the User-Agent naming the run and Accept-Encoding: identity go on every request and are
    // recorded (request-headers.ts), but a line a person runs is no request of the run, and curl
    // asks for no coding by itself: the line stays as short as it was
    if (name === 'user-agent' || (name === 'accept-encoding' && value === 'identity')) continue
    const header = `${name}: ${value}`
    // curl drops a header given with no value (`-H 'x-a: '`, as it drops its own Accept with `Accept:`): `x-a;` sends it empty
    if (/^[ \t]*$/.test(value)) {
      words.push('-H', quoted(`${name};`))
      continue
    }
    if (value === REDACTED) {
      words.push('-H', fromConformHeaders(name))
      fromVariable.push(name)
      continue
    }
    // a header goes as Latin-1 (undici writes each character as one byte): é is the byte E9, which a UTF-8 shell would send as two
    const latin1 = /[\x80-\xff]/.test(header) && !/[^\x00-\xff]/.test(header)
    words.push('-H', KEY_STAND_INS.some((s) => header.includes(s.placeholder)) ? withKeyReference(header) : latin1 ? printedWord(Buffer.from(header, 'latin1')) : quoted(header))
  }
  // a request recorded without an Accept went without one (lib/http/request-headers.ts): curl's
  // own Accept: */* is removed, or the line sends what the suite did not
  if (!Object.keys(request.headers).some((name) => name.toLowerCase() === 'accept')) words.push('-H', singleQuoted('Accept:'))
  const guard = fromVariable.length > 0 ? conformHeadersGuard(fromVariable) : ''
  const pieces = inPiecesCommand(request)
  if (pieces) return `${guard}${pieces.sent} | ${[...words, ...pieces.options].join(' ')}`
  // bytes that are not UTF-8, or a character the reports mark: printf's bytes on curl's input, a line break at the end and U+0000 too;
  // and a body starting with @, which --data-binary reads as the name of a file to send (`@/etc/hostname` sent that file's text)
  const byPrintf = (body: string) => MARKED.test(body) || body.startsWith('@')
  const bytes = request.bodyBase64 !== undefined ? Buffer.from(request.bodyBase64, 'base64') : request.body !== undefined && byPrintf(request.body) ? Buffer.from(request.body, 'utf8') : undefined
  if (bytes !== undefined) return `${guard}printf ${printfFormat(bytes)} | ${[...words, '--data-binary', '@-'].join(' ')}`
  if (request.body !== undefined) words.push('--data-binary', singleQuoted(request.body))
  return guard + words.join(' ')
}

/**
 * A body the suite sent in two pieces (lib/http/body-pieces.ts), sent so again: each piece's bytes
 * from printf, a pause between them, and curl uploading its input as it comes (-T -) under the
 * body's Content-Length, neither chunked nor waiting for 100 Continue. Undefined for any other request.
 */
function inPiecesCommand(request: RecordedRequest): { sent: string; options: string[] } | undefined {
  if (request.splitAt === undefined || request.body === undefined) return undefined
  const bytes = Buffer.from(request.body, 'utf8')
  const piece = (part: Uint8Array) => `printf ${printfFormat(part)}`
  return {
    sent: `{ ${piece(bytes.subarray(0, request.splitAt))}; sleep 0.1; ${piece(bytes.subarray(request.splitAt))}; }`,
    options: ['-H', singleQuoted(`content-length: ${bytes.byteLength}`), '-H', singleQuoted('expect:'), '-H', singleQuoted('transfer-encoding:'), '-T', '-'],
  }
}

/** curl's words for the run's TLS files (--cacert, --cert, --key; a passphrase curl asks for itself), quoted as every word of a curl line is. */
export function curlTlsFlags(tls: Pick<ClientTls, 'caCert' | 'clientCertificate'>): string {
  const cert = tls.clientCertificate
  return [
    ...(tls.caCert ? ['--cacert', quoted(tls.caCert.file)] : []),
    ...(cert ? [...(cert.format === 'pkcs12' ? ['--cert-type', 'P12'] : []), '--cert', quoted(cert.file), ...(cert.keyFile !== cert.file ? ['--key', quoted(cert.keyFile)] : [])] : []),
  ].join(' ')
}

/**
 * A curl line with `flags` (curlTlsFlags) after its `curl -i`: the command's own, at the line's
 * start or after the `| ` or `&& ` that feed it, never a text of a body printf writes before it
 * (printfFormat escapes | and &).
 */
export const withCurlFlags = (line: string, flags: string) => line.replace(/(^|\| |&& )curl -i /, (_, before: string) => `${before}curl -i ${flags} `)
