/**
 * The credentials the suite sends, proven in-process: which near-misses of a key are sent, and
 * that each one the suite sends differs from the key on the wire.
 */
import { describe, expect, test } from 'vitest'
import { keyOnTheWire } from '../../lib/http/redact.ts'
import { CREDENTIAL_CASES } from '../../suites/cases/credentials.ts'
import { answeredBeforeAuthentication, OPERATIONS } from '../../suites/cases/operations.ts'

const RUN_ID = '20260101-0000-abcd'
const caseOf = (key: string) => CREDENTIAL_CASES.find((c) => c.key === key)!

describe('near-misses of the key', () => {
  const keys = {
    base64url: 'kQ3v-9sLr_Zt0xWb2yNp8e',
    uuid: '0f8fad5b-d9cb-469f-a165-70867728950e',
    'upper-case hex': '0F8FAD5BD9CB469FA16570867728950E',
  }

  test.each(Object.entries(keys))('every case sent with a %s key differs from the key on the wire', (_kind, key) => {
    for (const c of CREDENTIAL_CASES) {
      if (c.unusableWith?.(key)) continue
      expect(keyOnTheWire(c.authorization(RUN_ID) ?? '', key), c.key).not.toBe(`Bearer ${key}`)
    }
  })

  test('the case-swapped key is not sent when every letter of the key is a hex digit (RFC 9562: either case is the same UUID)', () => {
    expect(caseOf('key-case-swapped').unusableWith?.(keys.base64url)).toBeUndefined()
    expect(caseOf('key-case-swapped').unusableWith?.(keys.uuid)).toMatch(/hex digit.*RFC 9562/)
    expect(caseOf('key-case-swapped').unusableWith?.(keys['upper-case hex'])).toMatch(/hex digit/)
  })

  test('the key with its last character changed ends in _, which SQL LIKE reads as any one character, or in x where the key ends in _', () => {
    const changed = (key: string) => keyOnTheWire(caseOf('key-last-character-changed').authorization(RUN_ID)!, key).slice('Bearer '.length)
    for (const key of Object.values(keys)) expect(changed(key)).toBe(`${key.slice(0, -1)}_`)
    expect(changed('kQ3v-9sLr_Zt0xWb2yNp8_')).toBe('kQ3v-9sLr_Zt0xWb2yNp8x')
  })

  test('a wrong key of the same shape is sent for every key long enough to redact its near-misses, hex keys included', () => {
    const sameShape = caseOf('key-of-same-shape')
    for (const key of Object.values(keys)) {
      expect(sameShape.unusableWith?.(key)).toBeUndefined()
      const wire = keyOnTheWire(sameShape.authorization(RUN_ID)!, key).slice('Bearer '.length)
      expect(wire.replace(/[0-9]/g, '9').replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A')).toBe(key.replace(/[0-9]/g, '9').replace(/[a-z]/g, 'a').replace(/[A-Z]/g, 'A'))
    }
    expect(sameShape.unusableWith?.('short')).toMatch(/shorter than/)
    expect(sameShape.unusableWith?.('--------')).toMatch(/no letters or digits/)
  })
})

describe('answers that say nothing about authentication', () => {
  const operation = (id: string) => OPERATIONS.find((o) => o.operationId === id)!

  test('GET /pets/{petId} answered 404 or 410 without a valid key is not judged (gone past its sunset, or a petId route constraint)', () => {
    expect(answeredBeforeAuthentication(operation('getPet'), 410)).toMatch(/answered 410: .*§9\.4/)
    expect(answeredBeforeAuthentication(operation('getPet'), 404)).toMatch(/§4\.3/)
  })

  test.each([200, 401, 403, 500, undefined])('GET /pets/{petId} answered %s is judged', (status) => {
    expect(answeredBeforeAuthentication(operation('getPet'), status)).toBeUndefined()
  })

  test.each(['listCategories', 'createCategory', 'listStoreOrders'])('%s answered 404 or 410 is judged (a failure)', (id) => {
    expect(answeredBeforeAuthentication(operation(id), 404)).toBeUndefined()
    expect(answeredBeforeAuthentication(operation(id), 410)).toBeUndefined()
  })
})
