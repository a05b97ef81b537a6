/**
 * The forms' anchors and the runs' looked for in one pass (lib/http/secret-filter.ts
 * sharedAnchorPass, perf30): a text the pass found clean, and the steps between left unchanged, is
 * not read again for the runs. The redactor must hide exactly what it hid with a pass for each
 * step, whatever the keys (short, with symbols, words of the host's, one inside another, a fleet of
 * them) and whatever the text (every form the redactor knows, cut, run into one another, escapes
 * that only a step before the runs makes or unmakes). Against the base's code itself (ec4794c9),
 * the same texts redacted alike, 20,000 of them (review31).
 */
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { NEAR_MISS_MIN_KEY_LENGTH, REDACTED, redactorSteps, sameShape, type Redactor } from '../../lib/http/redact.ts'
import { allJsonEscapes, allReferences, base64Inside, bytesListed, hexSpaced, utf16Encoded, utf16Listed, withEscapeRuns } from '../../lib/http/secret-escapes.ts'
import { charReadsOf } from '../helpers/char-reads.ts'
import { runsRedactor } from '../../lib/http/secret-runs.ts'

/**
 * The redactor as it was before the shared pass (redact.ts redactorOf): the same steps, the runs'
 * made as they were, without a pass to tell them a text is clean, so that they read every text.
 * (Not a module mocked without the shared pass: the test files share their modules, vitest.config.ts isolate.)
 */
/** The redactor as createRedactor makes it (redactorOf), without adding the keys to the process's own (secretsGiven), which other test files share. */
const shared = (keys: string[]): Redactor => {
  const { forms, pieces, spread, runs } = redactorSteps(...keys)
  return withEscapeRuns((text) => runs(spread(pieces(forms(text)))), REDACTED)
}
const apart = (keys: string[]): Redactor => {
  const { forms, pieces, spread } = redactorSteps(...keys)
  // redact.ts orderedSecrets: each secret and it trimmed, the longest first, then in one order
  const ordered = [...new Set(keys.flatMap((k) => [k, k.trim()]).filter((k) => k.trim().length > 0))].sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0))
  const runs = runsRedactor(ordered.flatMap((secret) => [secret, sameShape(secret), ...base64Inside(secret, NEAR_MISS_MIN_KEY_LENGTH), hexSpaced(secret)]), REDACTED)
  return withEscapeRuns((text) => runs(spread(pieces(forms(text)))), REDACTED)
}

const swapCase = (t: string) => t.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
const b64 = (t: string) => Buffer.from(t).toString('base64')
const hex = (t: string) => Buffer.from(t).toString('hex')
const each = (k: string, f: (c: string) => string) => Array.from(k, f).join('')
const code = (c: string, base: number, pad: number) => c.charCodeAt(0).toString(base).padStart(pad, '0')
/** Every form a key may be written in that the redactor knows of, and some near them. */
const FORMS: ((k: string) => string[])[] = [
  (k) => [k, swapCase(k), k.toUpperCase(), k.toLowerCase(), sameShape(k), k.slice(0, -1), k.slice(1), `${k.slice(0, -1)}#`],
  (k) => [encodeURIComponent(k), encodeURIComponent(k).toLowerCase(), hex(k).replace(/../g, '%$&'), encodeURIComponent(encodeURIComponent(k)), each(k, (c) => `%${code(c, 16, 2)}%00`)],
  (k) => [JSON.stringify(k).slice(1, -1), JSON.stringify(k).slice(1, -1).replace(/\//g, '\\/'), JSON.stringify(JSON.stringify(k)), ...allJsonEscapes(k)],
  (k) => [each(k, (c) => `\\u${code(c, 16, 4)}`), each(k, (c) => `\\\\u${code(c, 16, 4)}`), each(k, (c) => `\\x${code(c, 16, 2)}`), each(k, (c) => `\\${code(c, 8, 3)}`), each(k, (c) => `=${code(c, 16, 2).toUpperCase()}`)],
  (k) => [each(k, (c) => `&#${c.codePointAt(0)};`), each(k, (c) => `&#x${c.codePointAt(0)!.toString(16)};`), k.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'), ...allReferences(k)],
  (k) => [b64(k), b64(`Bearer ${k}`), b64(`${k}:`), b64(`${k}:${k}`), b64(`Basic ${k}`).slice(1), b64(`x${k}`).slice(2), ...base64Inside(k, 8), b64(Buffer.from(k, 'utf16le').toString('latin1'))],
  (k) => [hex(k), hex(k).toUpperCase(), hex(k).replace(/../g, '$& ').trim(), ...bytesListed(k), Buffer.from(k, 'utf16le').toString('hex'), ...utf16Encoded(k, 8), ...utf16Listed(k, 8)],
  (k) => [[...k].join(' '), [...k].join('-'), [...k].join('\u0000'), [...k].join('\\u0000'), each(k, (c) => `${c}.`), k.slice(0, Math.ceil(k.length / 2)), k.slice(Math.floor(k.length / 3), Math.floor(k.length / 3) + 9), k.slice(-9)],
]
const formOf = (key: string, kind: number, which: number) => {
  const forms = FORMS[kind % FORMS.length]!(key)
  return forms.length === 0 ? key : forms[which % forms.length]!
}

const HOSTISH = ['127.0.0.1', 'localhost', 'categories', 'v1', 'http', 'name', 'Bearer', 'error', '[REDACTED]', 'REDACTED', 'null', 'description']
// a key is visible ASCII (lib/config/api-key.ts); a fleet's keys of other shapes are hidden all the same
const keyChar = fc.oneof(fc.constantFrom(...'abcdefxyzABCXYZ0123456789'), fc.constantFrom(...'-_+/=.~!@#$%^&*()[]{}"\'\\:;<>?,|`'), fc.constantFrom('Ω', 'ключ', 'é', '€', ' '))
const keyArb = fc.oneof(
  fc.array(keyChar, { minLength: 1, maxLength: 40 }).map((a) => a.join('')),
  fc.tuple(fc.constantFrom(...HOSTISH), fc.array(keyChar, { maxLength: 10 })).map(([w, a]) => w + a.join('')),
  fc.constantFrom('sk_live_Review+Key/123==', 'a1b2c3d4e5f6a7b8c9d0', 'tenant-Ω-ключ-0042', 'AbCdEfGh', 'z/z/z/z/z/z/z/z', 'k3y', 'ab', 'x', 'bench-fleet-0-k3y0x9q2w7', 'cnry-3f9a1b2c4d5e6f708192a3b4+/Z=', '%41%42%43%44%45'),
  fc.stringMatching(/^[A-Za-z0-9]{8,48}$/),
)
/** A fleet's keys, some cut from others (a key inside another, sharing a run with it, running into a third). */
const keysArb = fc.array(keyArb, { minLength: 1, maxLength: 4 }).chain((keys) =>
  fc.array(fc.tuple(fc.nat(keys.length - 1), fc.nat(40), fc.nat(40), keyArb), { maxLength: 3 }).map((cuts) => [
    ...keys,
    ...cuts.map(([i, from, length, more]) => Array.from(keys[i]!).slice(from, from + Math.max(1, length)).join('') + (length % 2 ? more : '') || more),
  ]),
)
const textArb = (keys: string[]) =>
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
        // pieces of escapes, which a form before them or after them completes
        { weight: 1, arbitrary: fc.constantFrom('\\u00', '%', '\\x', '&#', '\\\\u', '=', '\u0000', '\\u0000', ' ', '"', ...HOSTISH) },
        { weight: 5, arbitrary: fc.tuple(fc.nat(keys.length - 1), fc.nat(FORMS.length - 1), fc.nat(20)).map(([k, kind, which]) => formOf(keys[k]!, kind, which)) },
        { weight: 1, arbitrary: fc.tuple(fc.nat(keys.length - 1), fc.nat(FORMS.length - 1), fc.nat(20), fc.nat(30), fc.nat(30)).map(([k, kind, which, from, length]) => formOf(keys[k]!, kind, which).slice(from, from + length + 4)) },
      ),
      { maxLength: 10 },
    )
    .map((pieces) => pieces.join(''))

test('the redactor with one anchor pass hides exactly what it hid with a pass for each step, for any keys and any text', () => {
  let changed = 0
  fc.assert(
    fc.property(
      keysArb.chain((keys) => fc.tuple(fc.constant(keys), fc.array(textArb(keys), { minLength: 1, maxLength: 6 }))),
      ([keys, texts]) => {
        const [now, before]: Redactor[] = [shared(keys), apart(keys)]
        // the texts in turn, then again in the other order: the pass remembers the last text it found clean
        for (const text of [...texts, ...[...texts].reverse()]) {
          const redacted = now(text)
          expect(redacted, JSON.stringify({ keys, text })).toBe(before(text))
          if (redacted !== text) changed++
        }
      },
    ),
    { numRuns: 100 },
  )
  // the texts held keys the redactor hid, not only text it left alone
  expect(changed).toBeGreaterThan(100)
}, 300_000)

test('the redactor before the change is the one without the shared pass', () => {
  const text = `{"name":"a category","description":"${'the Pet Store categories interface '.repeat(40)}"}`
  const count = (redact: Redactor) => charReadsOf(redact, text)
  expect(count(apart(['bench-fleet-0-k3y0x9q2w7']))).toBeGreaterThan(count(shared(['bench-fleet-0-k3y0x9q2w7'])))
})
