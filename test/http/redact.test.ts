/**
 * lib/http/redact.ts: a key echoed back inside a JSON string, as the encoders of real services
 * write it, is hidden as surely as the key itself (a key from base64 carries + / =).
 */
import { describe, expect, test } from 'vitest'
import { createRedactor, FRAGMENT_MIN_SECRET_LENGTH, fragmentLength, longestForm, REDACTED } from '../../lib/http/redact.ts'
import { redactedResult, type RunResult } from '../../lib/result/run-result.ts'

const KEY = 'sk_live_Review+Key/123=='

describe('createRedactor on a key echoed inside JSON', () => {
  test.each([
    ["PHP's json_encode (\\/)", 'sk_live_Review+Key\\/123=='],
    [".NET's System.Text.Json (\\u002B)", 'sk_live_Review\\u002BKey/123=='],
    ['Gson (\\u003d, lower-case hex)', 'sk_live_Review+Key/123\\u003d\\u003d'],
    ['every character but letters and digits escaped, upper-case hex', 'sk\\u005Flive\\u005FReview\\u002BKey\\u002F123\\u003D\\u003D'],
    ['every character escaped, letters and digits too (\\u0073\\u006b…)', KEY.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')],
    ['every character escaped, upper-case hex', KEY.split('').map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join('')],
  ])('%s', (_label, echoed) => {
    const redact = createRedactor(KEY)
    const body = `{"message":"key ${echoed} is not valid"}`
    expect(redact(body)).toBe(`{"message":"key ${REDACTED} is not valid"}`)
    expect(longestForm(KEY)).toBeGreaterThanOrEqual(echoed.length)
  })

  test('the near-misses the suite sends are hidden in their escaped forms too', () => {
    const withoutLast = KEY.slice(0, -1).replace('/', '\\/')
    expect(createRedactor(KEY)(`"${withoutLast}"`)).toBe(`"${REDACTED}"`)
  })

  test('a key of 12 characters without a digit, every character escaped, is hidden too', () => {
    const key = 'Ab%Zq+/x=(Kd'
    for (const hex of [(c: string) => c.charCodeAt(0).toString(16).padStart(4, '0'), (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()]) {
      expect(createRedactor(key)(`{"esc":"${key.split('').map((c) => `\\u${hex(c)}`).join('')}"}`)).toBe(`{"esc":"${REDACTED}"}`)
    }
  })

  test('a key that is the base64 of text is hidden echoed decoded (a service that read the token as base64); a key of random bytes has no such form', () => {
    for (const [key, encoding] of [['c2stbGl2ZS1hYmNkZWYxMjM0NTY3ODkw', 'base64'], [Buffer.from('prod:s3cr3t-pass').toString('base64url'), 'base64url']] as const) {
      expect(createRedactor(key)(`{"message":"token ${Buffer.from(key, encoding).toString()} unknown"}`)).toBe(`{"message":"token ${REDACTED} unknown"}`)
    }
    expect(createRedactor('sk_live_Review+Key/123==')('Categories, category 12')).toBe('Categories, category 12')
  })

  test('a key of letters and digits only, and text that merely resembles an escape, are unaffected', () => {
    expect(createRedactor('abcDEF123456')('x abcDEF123456 y')).toBe(`x ${REDACTED} y`)
    // another key's text, sharing no run of the key as long as fragmentLength (a run is hidden, see below)
    expect(createRedactor(KEY)('pk_test_Other+Key\\/124==')).toBe('pk_test_Other+Key\\/124==')
  })
})

describe('createRedactor on a key echoed inside a URL or a form', () => {
  test.each([
    ['encodeURIComponent (upper-case hex)', encodeURIComponent(KEY)],
    [".NET's WebUtility.UrlEncode (lower-case hex)", encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ["Python's quote() (\"/\" left as it is)", KEY.replace(/[+=]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)],
    ['cases mixed within the one text', 'sk_live_Review%2bKey%2F123%3d%3D'],
  ])('%s', (_label, echoed) => {
    const redact = createRedactor(KEY)
    expect(redact(`https://app.example/cb?key=${echoed}&x=1`)).toBe(`https://app.example/cb?key=${REDACTED}&x=1`)
    expect(longestForm(KEY)).toBeGreaterThanOrEqual(echoed.length)
  })

  // RFC 3986 leaves ~ unreserved, but HTML's form encoding escapes it, and so do Java's
  // URLEncoder.encode and PHP's urlencode(): a key of unreserved characters and ~ was printed whole
  test("a key with ~, which Java's URLEncoder and PHP's urlencode() write %7E", () => {
    const key = 'abc~defghijk'
    for (const echoed of ['abc%7Edefghijk', 'abc%7edefghijk']) {
      expect(createRedactor(key)(`https://app.example/cb?key=${echoed}&x=1`)).toBe(`https://app.example/cb?key=${REDACTED}&x=1`)
      expect(longestForm(key)).toBeGreaterThanOrEqual(echoed.length)
    }
  })

  // a URL with the key in its query put in another's (a redirect to a login page's ?next=…): a key of
  // `openssl rand -base64 32` stood whole, its pieces between the escapes each shorter than the runs hidden
  test('escaped twice or three times (%252B), as a URL inside another URL\'s query holds it', () => {
    const key = 'Ab3dEf9hIj+Kl2nOp4rSt/Uv6xYz8bCd+Fg0iJk2mN='
    const twice = encodeURIComponent(encodeURIComponent(key))
    for (const echoed of [twice, twice.replace(/%25([0-9A-F]{2})/g, (_, hex: string) => `%25${hex.toLowerCase()}`), encodeURIComponent(twice)]) {
      expect(createRedactor(key)(`Location: /login?next=%2Fv1%3Ftoken%3D${echoed}&x=1`)).toBe(`Location: /login?next=%2Fv1%3Ftoken%3D${REDACTED}&x=1`)
      expect(longestForm(key)).toBeGreaterThanOrEqual(echoed.length)
    }
  })

  // a key of `openssl rand -base64 32` has a "+", "/" or "=" every ten characters or so: written in a
  // way no form knows, its pieces stood apart, each shorter than the runs hidden, and gave it back whole
  test.each([
    ['in a header name, lower-cased, "+", "/" and "=" made "-"', 'x-echo-ab3def9hij-kl2nop4rst-uv6xyz8bcd-fg0ijk2mn-: 1', 'x-echo-[REDACTED]-: 1'],
    ['its other characters stripped', 'token Ab3dEf9hIjKl2nOp4rStUv6xYz8bCdFg0iJk2mN!', `token ${REDACTED}!`],
    ["JSON in JSON, PHP's \\/ escaped again", '{"log":"{\\"t\\":\\"Ab3dEf9hIj+Kl2nOp4rSt\\\\\\/Uv6xYz8bCd+Fg0iJk2mN=\\"}"}', `{"log":"{\\"t\\":\\"${REDACTED}\\"}"}`],
    ['quoted-printable', 'token=3DAb3dEf9hIj=2BKl2nOp4rSt=2FUv6xYz8bCd=2BFg0iJk2mN=3D', `token=3D${REDACTED}3D`],
  ])('a base64 key %s', (_label, echoed, shown) => {
    const key = 'Ab3dEf9hIj+Kl2nOp4rSt/Uv6xYz8bCd+Fg0iJk2mN='
    expect(createRedactor(key)(echoed)).toBe(shown)
    expect(longestForm(key)).toBeGreaterThanOrEqual(echoed.length - 12)
    // one piece alone, or pieces far apart, is ordinary text
    expect(createRedactor(key)('Ab3dEf9hIj and, much later in the text, Kl2nOp4rSt')).toBe('Ab3dEf9hIj and, much later in the text, Kl2nOp4rSt')
  })

  // a pattern of [\s\S]{0,12}? between the pieces held the redactor for minutes on 200 characters of such a text
  test('a text made of a key\'s pieces, to make the search go back and forth, is redacted in bounded time', () => {
    const base64 = 'Ab3dEf9hIj+Kl2nOp4rSt/Uv6xYz8bCd+Fg0iJk2mN='
    for (const [key, text] of [['aa-aa-aa-aa-aa-aa-aa-aa-zz9', 'a'.repeat(200_000)], [base64, `${base64.slice(0, 33)}!`.repeat(6_000)]] as const) {
      const started = performance.now()
      createRedactor(key)(text)
      expect(performance.now() - started, key).toBeLessThan(5_000)
    }
  })

  // Python's uuid.hex and .NET's Guid.ToString("N") write it without its dashes: 20 of its 32 digits stood there
  test('a UUID key echoed without its dashes, in either case', () => {
    const key = '3fa85f64-5717-4562-b3fc-2c963f66afa6'
    for (const echoed of [key.replace(/-/g, ''), key.replace(/-/g, '').toUpperCase()]) expect(createRedactor(key)(`invalid key ${echoed}!`)).toBe(`invalid key ${REDACTED}!`)
  })

  test('a key of unreserved characters only has no escaped form, and other escapes are left alone', () => {
    expect(createRedactor(KEY)('pk_test_Other%2BKey%2F124%3D%3D')).toBe('pk_test_Other%2BKey%2F124%3D%3D')
    expect(createRedactor('abc-DEF_123.456_x')('a%2Db')).toBe('a%2Db')
  })
})

describe('createRedactor on a key echoed in part, or in another case', () => {
  // a server that quotes the key cut short, splits it over two headers, or folds its case (a header name)
  const key = 'HoStIlE7kEy9Qz3Xw5Vt1Rp8Nm2Lk4Jh6+/Z='
  const redact = createRedactor(key)
  test.each([
    ['cut short in an error message', `invalid token '${key.slice(0, 20)}…'`],
    ['its last part', `token …${key.slice(-14)} expired`],
    ['split over two headers', `x-part-1: ${key.slice(0, 19)}\nx-part-2: ${key.slice(19)}`],
    ['split in three', `${key.slice(0, 12)} ${key.slice(12, 24)} ${key.slice(24)}`],
    ['lower-case (a header name)', `x-${key.toLowerCase()}: 1`],
    ['upper-case', `TOKEN=${key.toUpperCase()}`],
  ])('%s: no run of the key as long as fragmentLength is left', (_label, echoed) => {
    const out = redact(echoed)
    expect(out).toContain(REDACTED)
    const folded = out.toLowerCase()
    for (let at = 0; at + fragmentLength(key) <= key.length; at++) expect(folded).not.toContain(key.slice(at, at + fragmentLength(key)).toLowerCase())
  })
  test('a run goes as far as the text follows the key, and what follows is kept', () => {
    expect(redact(`a ${key.slice(3, 30)}!b`)).toBe(`a ${REDACTED}!b`)
    expect(redact(`a ${key.slice(0, fragmentLength(key) - 1)} b`)).toBe(`a ${key.slice(0, fragmentLength(key) - 1)} b`)
  })
  test('a key made of words: a run that reads as a word (no digit, one case) is left, so the reports keep their words', () => {
    const wordy = createRedactor('petstore-conformance-staging-2024')
    expect(wordy('Pet Store categories conformance · https://staging.petstore.example/v1')).toBe('Pet Store categories conformance · https://staging.petstore.example/v1')
    // its runs with a digit are hidden still
    expect(wordy('key …-staging-2024 expired')).toBe(`key …${REDACTED} expired`)
  })
  test('a key of 12 to 15 characters is hidden in part too: any run of 8 of it, in any case', () => {
    const key = 'sk_Ab12Cd34Ef5'
    expect(key.length).toBeGreaterThanOrEqual(FRAGMENT_MIN_SECRET_LENGTH)
    expect(fragmentLength(key)).toBe(8)
    const redact12 = createRedactor(key)
    expect(redact12(`invalid token '${key.slice(0, 9)}…'`)).toBe(`invalid token '${REDACTED}…'`)
    expect(redact12(`x-part: ${key.slice(5).toLowerCase()}`)).toBe(`x-part: ${REDACTED}`)
    expect(redact12(`a ${key.slice(0, 7)} b`)).toBe(`a ${key.slice(0, 7)} b`)
  })
  test('a key of 8 to 11 characters is hidden in part by runs of 6 (with a digit or both cases): an echo cut short leaves 3 or more to guess', () => {
    const short = 'abcdefgh123'
    expect(short.length).toBeLessThan(FRAGMENT_MIN_SECRET_LENGTH)
    expect(fragmentLength(short)).toBe(6)
    // 9 of its 11 left 2 to guess (its runs that read as a word, abcdef, are left); 8 of hunter2x99, 2
    expect(createRedactor(short)(`${short.slice(0, 9)} ${short}`)).toBe(`abc${REDACTED} ${REDACTED}`)
    expect(createRedactor('hunter2x99')('invalid token hunter2x…')).toBe(`invalid token h${REDACTED}…`)
    expect(createRedactor('sk_9aB3xQ7')('key ending 9AB3XQ')).toBe(`key ending ${REDACTED}`)
    // a run of 5, and one that reads as a word, are ordinary text
    expect(createRedactor(short)('defgh and abcdefg')).toBe('defgh and abcdefg')
    // and one of digits alone, a number: the date and time create-described sends, under a key of 12345678
    expect(createRedactor('12345678')('"2024-02-29T23:59:59.123456+00:00" 12345678')).toBe(`"2024-02-29T23:59:59.123456+00:00" ${REDACTED}`)
  })
  test('a run that reads as a capitalised word is left: a key made of words does not hide "Categories" in every report', () => {
    expect(createRedactor('CategoriesApiKey2024')('Pet Store Categories · GET /v1/categories')).toBe('Pet Store Categories · GET /v1/categories')
  })
})

describe('createRedactor on a key with a digit echoed in another case, escaped', () => {
  // a URL a server lower-cased (or upper-cased) as a whole: the key's escapes and letters both folded
  const key = 'Ab+Cd/Ef12Gh'
  test.each([
    ['a URL lower-cased whole', `https://app.example/cb?key=${encodeURIComponent(key).toLowerCase()}&x=1`],
    ['a URL upper-cased whole', `HTTPS://APP.EXAMPLE/CB?KEY=${encodeURIComponent(key).toUpperCase()}&X=1`],
    ['JSON-escaped, lower-cased', `{"got":"${key.replace('/', '\\/').replace('+', '\\u002B').toLowerCase()}"}`],
    ['title-cased by a template', `Token ${key[0]}${key.slice(1).toLowerCase()} refused`],
  ])('%s: hidden', (_label, echoed) => {
    const shown = createRedactor(key)(echoed)
    expect(shown).toContain(REDACTED)
    expect(shown.toLowerCase()).not.toContain('ef12gh')
  })
  test('a key without a digit keeps its case: folded, it could read as a word', () => {
    expect(createRedactor('Pet+Store/Key')('pet%2bstore%2fkey')).toBe('pet%2bstore%2fkey')
  })
})

describe('createRedactor on a key inside base64 of a longer text', () => {
  // a server that echoes the Authorization header base64-encoded, or Basic credentials holding the key
  const key = 'sk_live_4f9a8b7c6d5e4f3a2b1c'
  const redact = createRedactor(key)
  test.each(['', 'B', 'Be', 'Bearer ', 'user:', 'Bearer  '])('after %j, at every alignment, in base64 and base64url', (prefix) => {
    for (const encoding of ['base64', 'base64url'] as const) {
      const echoed = Buffer.from(`${prefix}${key} and more`).toString(encoding)
      expect(redact(echoed)).toContain(REDACTED)
      // what is left shows nothing of the key's base64 core
      expect(redact(echoed).length).toBeLessThan(echoed.length)
    }
  })
  test('a key too short for the runs inside base64: the whole header, base64-encoded, is hidden', () => {
    const short = 'k3y+4/x'
    for (const encoding of ['base64', 'base64url'] as const) {
      const echoed = Buffer.from(`Bearer ${short}`).toString(encoding)
      expect(createRedactor(short)(`echo: ${echoed}`)).toBe(`echo: ${REDACTED}`)
    }
  })
  test('Basic credentials echoed from a character too far in, or cut at either end: no run of their base64 is left', () => {
    // a service that cuts "Basic " one character short echoes the rest, which decodes to the key once a character is guessed in front
    const credentials = Buffer.from(`${key}:`).toString('base64')
    for (const echoed of [credentials.slice(1), credentials.slice(2, -3), credentials.slice(0, -6)]) {
      const shown = redact(`invalid credentials ${echoed}`)
      expect(shown).toContain(REDACTED)
      for (let at = 0; at + 8 <= credentials.length; at++) expect(shown).not.toContain(credentials.slice(at, at + 8))
    }
  })
  test('Basic credentials as the suite sends them (KEY:), and any holding the key, echoed in a body written in UTF-16: hidden, as the key is there', () => {
    const utf16 = (text: string) => Buffer.from(text, 'utf16le').toString('utf8')
    for (const credentials of [`${key}:`, `:${key}`, `user:${key}`]) {
      const echoed = Buffer.from(credentials).toString('base64')
      const shown = redact(`{"got":"${utf16(`Basic ${echoed}`)}"}`).replaceAll('\u0000', '')
      expect(shown, credentials).toContain(REDACTED)
      for (let at = 0; at + 12 <= echoed.length; at++) expect(shown).not.toContain(echoed.slice(at, at + 12))
    }
  })
  test('ordinary text and base64 of other texts are left as they are', () => {
    const other = Buffer.from('Bearer another-key-entirely-0123').toString('base64')
    expect(redact(other)).toBe(other)
    expect(redact('GET /v1/categories answered 200')).toBe('GET /v1/categories answered 200')
  })
})

describe('createRedactor on a key written out byte by byte, or with its case folded', () => {
  // a debug page that dumps the Authorization header in hex, an encoder that escapes every byte,
  // a header name (lower-case) or a log line (upper-case): a key too short for the case-blind runs too
  const short = 'sk_Ab12Cd3E'
  const hex = (text: string) => Buffer.from(text).toString('hex')
  test.each([
    ['hex', hex(short)],
    ['hex, upper-case', hex(short).toUpperCase()],
    ['hex of the whole header', hex(`Bearer ${short}`)],
    ['every byte percent-escaped', hex(short).toUpperCase().replace(/../g, '%$&')],
    ['every byte percent-escaped, in lower case', hex(short).replace(/../g, '%$&')],
    ['upper-case', short.toUpperCase()],
    ['lower-case (a header name)', `x-${short.toLowerCase()}`],
    ['in a body written in UTF-16, read as UTF-8', Buffer.from(`"Bearer ${short}"`, 'utf16le').toString('utf8')],
  ])('%s: hidden', (_label, echoed) => {
    expect(short.length).toBeLessThan(FRAGMENT_MIN_SECRET_LENGTH)
    const shown = createRedactor(short)(`echo: ${echoed};`)
    expect(shown).toContain(REDACTED)
    for (const form of [hex(short), short.toLowerCase(), short.toUpperCase()]) expect(shown.toLowerCase()).not.toContain(form.toLowerCase())
    expect(longestForm(short)).toBeGreaterThanOrEqual(3 * short.length)
  })
  test('a long key in hex too, and a key shorter than 8 characters only as it is', () => {
    expect(createRedactor(KEY)(`x ${hex(KEY)} y`)).toBe(`x ${REDACTED} y`)
    expect(createRedactor('Ab3x9')(`x ${hex('Ab3x9')} AB3X9 y`)).toBe(`x ${hex('Ab3x9')} AB3X9 y`)
  })
  test('a key without a digit is not hidden folded: folded, it reads as a word of the reports', () => {
    expect(createRedactor('Categories')('GET /v1/categories')).toBe('GET /v1/categories')
  })
})

describe('redactedResult', () => {
  test("the key is hidden in the server's header names and values, never in the result's own property names", () => {
    const result = {
      rules: [{ id: 'r', checks: [{ name: 'a check', exchanges: [{ response: { headers: { 'x-checks': 'checks', checks: 'ok' } } }] }] }],
      summary: { encodedAnswers: { checks: 1 } },
    } as unknown as RunResult
    const shown = redactedResult(result, createRedactor('checks')) as unknown as typeof result & { rules: { checks: { exchanges: { response: { headers: Record<string, string> } }[] }[] }[] }
    const headers = shown.rules[0]!.checks[0]!.exchanges[0]!.response.headers
    expect(headers).toEqual({ [`x-${REDACTED}`]: REDACTED, [REDACTED]: 'ok' })
    expect(Object.keys((shown as unknown as { summary: { encodedAnswers: object } }).summary.encodedAnswers)).toEqual([REDACTED])
  })
})

describe('createRedactor on many keys (a fleet: one key per deployment)', () => {
  // twenty keys: one pattern of them all compiled by V8 without its fast paths (840 ms over a
  // results.json); each has a pattern of its own, applied in turn
  const keys = Array.from({ length: 20 }, (_, i) => `fleet-key-${String(i).padStart(2, '0')}-Zx8Qw2Lm9Rt4Vb7N`)
  const redact = createRedactor(...keys)

  test('every key is hidden, in every form, wherever it stands among the others', () => {
    for (const key of keys) {
      const text = `a ${key} b ${Buffer.from(`Bearer ${key}`).toString('base64')} c ${encodeURIComponent(key)} d`
      expect(redact(text)).not.toContain(key)
      expect(redact(text).match(/\[REDACTED\]/g)?.length).toBeGreaterThanOrEqual(3)
    }
    expect(redact(keys.join(' '))).toBe(keys.map(() => REDACTED).join(' '))
  })

  test('a key that contains another is hidden whole, whichever is given first', () => {
    const short = 'tenant-key-1234'
    const long = `${short}-region-eu`
    for (const order of [[short, long], [long, short]]) {
      expect(createRedactor(...order)(`x ${long} y ${short} z`)).toBe(`x ${REDACTED} y ${REDACTED} z`)
    }
  })
})
