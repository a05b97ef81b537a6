/** A curl line repeats the request exactly, with the key (and its near-misses) left to the shell. */
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { toCurl, withCurlFlags } from '../../lib/http/curl.ts'
import { requestHeaders } from '../../lib/http/request-headers.ts'
import { createRedactor, KEY_AS_BASIC_USER_AND_PASSWORD, KEY_LAST_CHARACTER_CHANGED, KEY_OF_SAME_SHAPE, KEY_PLACEHOLDER, KEY_SWAPPED_CASE, KEY_WITHOUT_LAST_CHARACTER, keyOnTheWire, sameShape } from '../../lib/http/redact.ts'

const KEY = 'Secret-Key-42-abc'

/** What the shell makes of the -H argument of a curl line, with CONFORM_API_KEY set. */
function headerAsTheShellSeesIt(curl: string, key = KEY): string {
  const script = `set -- ${curl.replace(/^[\s\S]* && curl |^curl /, '')}; while [ "$1" != "-H" ]; do shift; done; printf %s "$2"`
  return execFileSync('sh', ['-c', script], { env: { PATH: process.env.PATH, CONFORM_API_KEY: key } }).toString()
}

describe('key stand-ins', () => {
  test.each([
    [`Bearer ${KEY_PLACEHOLDER}`, `Bearer ${KEY}`],
    [`Bearer ${KEY_PLACEHOLDER}x`, `Bearer ${KEY}x`],
    [`Bearer ${KEY_SWAPPED_CASE}`, 'Bearer sECRET-kEY-42-ABC'],
    [`Bearer ${KEY_WITHOUT_LAST_CHARACTER}`, `Bearer ${KEY.slice(0, -1)}`],
    [`Bearer ${KEY_LAST_CHARACTER_CHANGED}`, `Bearer ${KEY.slice(0, -1)}_`],
    // each letter and digit turned within its class: a-f and g-z apart, 9 to 0, f to a, z to g
    [`Bearer ${KEY_OF_SAME_SHAPE}`, 'Bearer Tfdsfu-Lfz-53-bcd'],
    [`Basic ${KEY_PLACEHOLDER} "quoted" $HOME \`x\``, `Basic ${KEY} "quoted" $HOME \`x\``],
    // base64 of "<key>:<key>", on one line whatever the key's length (base64 wraps at 76)
    [`Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}`, `Basic ${Buffer.from(`${KEY}:${KEY}`).toString('base64')}`],
  ])('%s: the wire value and the curl line agree', (template, wire) => {
    expect(keyOnTheWire(template, KEY)).toBe(wire)
    const curl = toCurl({ method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: { authorization: template } })
    expect(curl).not.toContain(KEY)
    expect(headerAsTheShellSeesIt(curl)).toBe(`authorization: ${wire}`)
  })

  test('the key with its last character changed differs from the key whatever that character is, also on the shell', () => {
    for (const key of ['Secret-Key-42-ab_', 'Secret-Key-42-abx']) {
      const changed = keyOnTheWire(KEY_LAST_CHARACTER_CHANGED, key)
      expect(changed).not.toBe(key)
      expect(changed.slice(0, -1)).toBe(key.slice(0, -1))
      const curl = toCurl({ method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: { authorization: `Bearer ${KEY_LAST_CHARACTER_CHANGED}` } })
      expect(headerAsTheShellSeesIt(curl, key)).toBe(`authorization: Bearer ${changed}`)
    }
  })

  test("a key holding $$, $&, $' or $` goes out as it is: a replacement's patterns are not read in it", () => {
    const key = "Pk7$$mQ2$&rT9$'vX$`w4z"
    expect(keyOnTheWire(`Bearer ${KEY_PLACEHOLDER}`, key)).toBe(`Bearer ${key}`)
    expect(keyOnTheWire(`Bearer ${KEY_WITHOUT_LAST_CHARACTER}`, key)).toBe(`Bearer ${key.slice(0, -1)}`)
    expect(keyOnTheWire(`Bearer ${KEY_LAST_CHARACTER_CHANGED}`, key)).toBe(`Bearer ${key.slice(0, -1)}_`)
    const curl = toCurl({ method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: { authorization: `Bearer ${KEY_PLACEHOLDER}` } })
    expect(headerAsTheShellSeesIt(curl, key)).toBe(`authorization: Bearer ${key}`)
  })

  test('the Basic credentials with the key as the user name and the password: one line for a long key, and redacted where a server echoes them', () => {
    const long = 'k'.repeat(90)
    const curl = toCurl({ method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: { authorization: `Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}` } })
    expect(headerAsTheShellSeesIt(curl, long)).toBe(`authorization: ${keyOnTheWire(`Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}`, long)}`)
    expect(keyOnTheWire(`Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}`, long)).toBe(`Basic ${Buffer.from(`${long}:${long}`).toString('base64')}`)
    // both keys inside the base64: the user name's at its start, the password's wherever its bytes fall
    const echoed = createRedactor(KEY)(`echoed: ${keyOnTheWire(`Basic ${KEY_AS_BASIC_USER_AND_PASSWORD}`, KEY)}`)
    const credentials = Buffer.from(`${KEY}:${KEY}`).toString('base64')
    expect(echoed).not.toContain(credentials.slice(0, 12))
    expect(echoed).not.toContain(credentials.slice(-12))
  })

  test('the redactor hides the near-misses of the key too', () => {
    const redact = createRedactor(KEY)
    for (const form of [KEY, 'sECRET-kEY-42-ABC', KEY.slice(0, -1), `${KEY}x`]) expect(redact(`<${form}>`)).not.toMatch(/Secret-Key|sECRET/)
    expect(redact(`<${sameShape(KEY)}>`)).toBe('<[REDACTED]>')
  })

  test('the key of the same shape differs from the key in every letter and digit, and keeps a hex key hex', () => {
    const uuid = '0f8fad5b-d9cb-469f-a165-70867728950e'
    const shifted = sameShape(uuid)
    expect(shifted).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    expect([...shifted].every((c, i) => c === '-' || c !== uuid[i])).toBe(true)
    expect(sameShape('Zz9_Aa0.')).toBe('Gg0_Bb1.')
  })
})

/** The shells a curl line is run in: dash (Debian's /bin/sh), bash and zsh where installed. */
const SHELLS = ['dash', 'bash', 'zsh', 'sh'].filter((shell) => spawnSync(shell, ['-c', 'true']).status === 0)

/** The bytes each shell sends a server with the line, `curl` a stub that writes its input when it reads --data-binary @- or -T -, and the argument after `flag` else. */
function sentByEachShell(curl: string, flag = '--data-binary'): Buffer[] {
  const bin = mkdtempSync(join(tmpdir(), 'curl-stub-'))
  const stub = `#!/bin/sh\nwhile [ "$#" -gt 0 ] && [ "$1" != "${flag}" ]; do shift; done\nif [ "$2" = @- ] || [ "$2" = - ]; then cat; else printf %s "$2"; fi\n`
  writeFileSync(join(bin, 'curl'), stub, { mode: 0o755 })
  try {
    return SHELLS.map((shell) => execFileSync(shell, ['-c', curl], { env: { PATH: `${bin}:${process.env.PATH}`, CONFORM_API_KEY: KEY } }))
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
}

describe('bodies with characters the reports mark', () => {
  test('dash, which Debian runs as /bin/sh and which reads no $\'…\', is among the shells tried', () => {
    expect(SHELLS).toEqual(expect.arrayContaining(['dash', 'bash']))
  })
  test.each([
    ['a zero-width joiner', '{"name":"👩\u200d👩\u200d👧"}'],
    ['a byte order mark', '\ufeff{"name":"bom"}'],
    ['a no-break space and a right-to-left override', '{"name":"a\u00a0b\u202ec"}'],
    ['controls and a quote', '{"name":"it\'s\u0007\u001b[31m"}'],
    ['a ⟨ the reports would mark', '{"name":"⟨ZWJ⟩"}'],
    ['a line break at the end, a backslash, %, | and &', '{\n  "name": "a\\\\b 100% x|y && z"\n}\n'],
    ['U+0000, a leading dash', '-{"name":"nul\u0000end"}'],
  ])('%s: the line is plain ASCII, and every shell sends the bytes the suite sent', (_, body) => {
    const curl = toCurl({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', headers: {}, body })
    expect(curl).toMatch(/^[\x20-\x7e]*$/)
    for (const sent of sentByEachShell(curl)) expect(sent.toString('hex')).toBe(Buffer.from(body, 'utf8').toString('hex'))
  })
  test('bytes that are not UTF-8, and a header with a marked character: every shell sends them', () => {
    const bytes = Buffer.concat([Buffer.from(`{"name": "it's \\ `), Buffer.from([0xff, 0xfe, 0x00, 0xc3, 0x28]), Buffer.from('"}\n')])
    const curl = toCurl({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', headers: { 'x-note': 'a\u200bb' }, body: '', bodyBase64: bytes.toString('base64') })
    for (const sent of sentByEachShell(curl)) expect(sent.toString('hex')).toBe(bytes.toString('hex'))
    for (const sent of sentByEachShell(curl, '-H')) expect(sent.toString()).toBe('x-note: a\u200bb')
  })
  test('visible Unicode stays readable, single-quoted', () => {
    expect(toCurl({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', headers: {}, body: '{"name":"Ñandú 🐇"}' })).toContain(`--data-binary '{"name":"Ñandú 🐇"}'`)
  })
})

describe('a body the suite sent in two pieces (splitAt)', () => {
  const body = '{"name":"cf-x-Ñandú 🐇 it\'s 100%"}'
  const splitAt = Buffer.from('{"name":"cf-x-').byteLength + 1
  const curl = toCurl({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', headers: { 'content-type': 'application/json', accept: 'application/json' }, body, splitAt })

  test('printf sends the two pieces, a pause between them, into curl uploading its input under the Content-Length, not chunked', () => {
    const [pieces, command] = curl.split(' | ') as [string, string]
    for (const shell of SHELLS) expect(execFileSync(shell, ['-c', pieces], { env: { PATH: process.env.PATH } }).toString('hex')).toBe(Buffer.from(body, 'utf8').toString('hex'))
    for (const sent of sentByEachShell(curl, '-T')) expect(sent.toString('hex')).toBe(Buffer.from(body, 'utf8').toString('hex'))
    expect(pieces).toMatch(/^\{ printf '[^']*\\303'; sleep 0\.1; printf '\\221/)
    expect(command).toMatch(/^curl -i -X POST 'http:\/\/127\.0\.0\.1:1\/v1\/categories' -H 'content-type: application\/json' -H 'accept: application\/json' -H 'content-length: 38' -H 'expect:' -H 'transfer-encoding:' -T -$/)
  })

  test('a body with U+0000 goes in its pieces too: printf writes it, where no shell argument holds it', () => {
    const nul = '{"name":"Ñ\u0000"}'
    const line = toCurl({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', headers: {}, body: nul, splitAt: 10 })
    for (const sent of sentByEachShell(line, '-T')) expect(sent.toString('hex')).toBe(Buffer.from(nul, 'utf8').toString('hex'))
  })
})

describe('the Accept a request went with, in its curl line', () => {
  const curlInstalled = (() => {
    try {
      execFileSync('curl', ['--version'])
      return true
    } catch {
      return false
    }
  })()
  /** The Accept header a server received from the curl line of a request the suite recorded with these headers. */
  async function acceptCurlSends(given: Record<string, string>): Promise<string | undefined> {
    const received: (string | undefined)[] = []
    const server = createServer((req, res) => void (received.push(req.headers.accept), res.end('[]')))
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const { port } = server.address() as AddressInfo
    const { recorded } = requestHeaders(given, '0123456789abcdef', { apiKey: KEY, redact: createRedactor(KEY), traceId: '0'.repeat(32) })
    const curl = toCurl({ method: 'GET', url: `http://127.0.0.1:${port}/v1/categories`, headers: recorded })
    try {
      await new Promise<void>((resolve, reject) => execFile('sh', ['-c', `${curl} -s -o /dev/null`], { env: { PATH: process.env.PATH, CONFORM_API_KEY: KEY } }, (e) => (e ? reject(e) : resolve())))
    } finally {
      server.close()
    }
    return received[0]
  }

  test.skipIf(!curlInstalled)("the suite's application/json, none where the request sent none (curl's own */* removed), and the request's own", async () => {
    expect(await acceptCurlSends({})).toBe('application/json')
    expect(await acceptCurlSends({ accept: '' })).toBeUndefined()
    expect(await acceptCurlSends({ accept: '*/*' })).toBe('*/*')
  })
})

// a secret --header is recorded redacted: its curl line sent the gateway "[REDACTED]"; it now takes the header from CONFORM_HEADERS
// the line as the run read it: spaces before the name or the colon (parseExtraHeaders trims them) found no line, or sent "X-Key : …"
test.each([
  ['x-gateway-key', 'gw_Zq81LmX0pR4tYv2N', ': '],
  ["x-odd.name*'s^key$", 'Zq81LmX0pR4tYv2NaB', ': '],
  ['x-gateway-key', 'gw_Zq81LmX0pR4tYv2N', ' :  ', '  '],
])('a secret --header %s: the line takes its value from CONFORM_HEADERS, as the key from CONFORM_API_KEY', (name, value, colon, indent = '') => {
  const redact = createRedactor(KEY, value)
  const { recorded } = requestHeaders(undefined, '0'.repeat(16), { apiKey: KEY, redact, traceId: '0'.repeat(32), extraHeaders: [{ name, value }] })
  expect(recorded[name]).toBe('[REDACTED]')
  const curl = toCurl({ method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: { [name]: recorded[name]! } })
  expect(curl).not.toContain(value)
  const script = `set -- ${curl.replace(/^[\s\S]* && curl |^curl /, '')}; while [ "$1" != "-H" ]; do shift; done; printf %s "$2"`
  const headers = `X-Tenant: acme\n${indent}${name.toUpperCase()}${colon}${value}\nX-Other-Key: nope`
  expect(execFileSync('sh', ['-c', script], { env: { PATH: process.env.PATH, CONFORM_HEADERS: headers } }).toString()).toBe(`${name.toUpperCase()}: ${value}`)
})

// a run given the secret with --header left no CONFORM_HEADERS behind: the line sent -H "" (no header at all) to the gateway
test('a line whose secret header CONFORM_HEADERS does not hold stops before curl, saying what to set; with it, curl gets the header', () => {
  const bin = mkdtempSync(join(tmpdir(), 'curl-stub-'))
  writeFileSync(join(bin, 'curl'), '#!/bin/sh\nprintf "%s\\n" "$@"\n', { mode: 0o755 })
  try {
    const curl = toCurl({ method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: { 'x-gateway-key': '[REDACTED]', 'x-api-key': '[REDACTED]' } })
    const run = (headers: string | undefined) => spawnSync('sh', ['-c', curl], { env: { PATH: `${bin}:${process.env.PATH}`, ...(headers === undefined ? {} : { CONFORM_HEADERS: headers }) } })
    for (const headers of [undefined, '', 'X-Gateway-Key: gw_Zq81LmX0pR4tYv2N']) {
      const stopped = run(headers)
      expect(stopped.status).not.toBe(0)
      expect(stopped.stdout.toString()).toBe('')
      expect(stopped.stderr.toString()).toBe('set CONFORM_HEADERS to the line(s) x-gateway-key, x-api-key: VALUE that the run was given (--header or CONFORM_HEADERS)\n')
    }
    const sent = run('X-Gateway-Key: gw_Zq81LmX0pR4tYv2N\nx-api-key: k_9f8e7d6c5b4a')
    expect(sent.status).toBe(0)
    expect(sent.stdout.toString().split('\n')).toEqual(expect.arrayContaining(['X-Gateway-Key: gw_Zq81LmX0pR4tYv2N', 'x-api-key: k_9f8e7d6c5b4a']))
  } finally {
    rmSync(bin, { recursive: true, force: true })
  }
})

// undici writes a header's characters as Latin-1 bytes (é as E9): the line sends those bytes, not é's two in UTF-8
test('a header holding a character of Latin-1 beyond ASCII goes as its one byte, printed by printf in every shell', () => {
  const curl = toCurl({ method: 'GET', url: 'http://127.0.0.1:1/v1/categories', headers: { authorization: 'Bearer conform-x-cl\u00e9' } })
  expect(curl).toContain(`-H "$(printf 'authorization: Bearer conform-x-cl\\351')"`)
  const script = `set -- ${curl.replace(/^curl /, '')}; while [ "$1" != "-H" ]; do shift; done; printf %s "$2"`
  for (const shell of SHELLS) expect(execFileSync(shell, ['-c', script], { env: { PATH: process.env.PATH } })).toEqual(Buffer.from('authorization: Bearer conform-x-cl\u00e9', 'latin1'))
})

test("the TLS flags go after the line's own curl -i, not after one a body's text holds before it, and a $& in a file's name stays as it is", () => {
  const line = toCurl({ method: 'POST', url: 'http://127.0.0.1:1/v1/categories', headers: {}, body: 'x | curl -i && curl -i \u200b' })
  const flagged = withCurlFlags(line, "--cacert '/tmp/$&ca.pem'")
  expect(flagged).toMatch(/^printf '[^']*' \| curl -i --cacert '\/tmp\/\$&ca\.pem' -X POST /)
  expect(withCurlFlags("curl -i -X GET 'u'", '--cacert a')).toBe("curl -i --cacert a -X GET 'u'")
})
