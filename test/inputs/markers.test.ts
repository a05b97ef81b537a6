/**
 * The markers a run looks for in the list to tell that a refused POST was stored
 * (lib/checks/category.ts recordsHolding): no marker of one case may be found in what another case
 * sends, or a conforming service that refuses one create and takes another fails (the list of a
 * service that refused the empty description but took the empty name showed `cf-…-empty` inside
 * the empty name's description `cf-…-empty-name`).
 */
import { describe, expect, test } from 'vitest'
import { holdsMarker, recordsHolding } from '../../lib/checks/category.ts'
import { caseMarker } from '../../suites/cases/case-markers.ts'
import { CREDENTIAL_CASES } from '../../suites/cases/credentials.ts'
import { INVALID_BODIES } from '../../suites/cases/invalid-bodies.ts'
import { MALFORMED_BODIES, malformedMarker } from '../../suites/cases/malformed-json.ts'
import { createMarker, NAME_FLOOR, VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { carriesMarker, wrongTypeCases } from '../../suites/cases/wrong-types.ts'

const PREFIX = 'cf-ab12c'

/** The markers of the keyed tables, as suites/categories/probes.ts makes them: the prefix and a case's table and place in it. */
const KEYED_MARKERS: [string, string][] = [
  ...INVALID_BODIES.filter((c) => c.marker).map((c) => [c.key, c.marker!(PREFIX)] as [string, string]),
  ...MALFORMED_BODIES.map((c) => [c.key, malformedMarker(PREFIX, c.key)] as [string, string]),
  ...wrongTypeCases().flatMap((c, index) => (carriesMarker(c) ? [[c.key, caseMarker(PREFIX, 't', index)] as [string, string]] : [])),
  ...CREDENTIAL_CASES.flatMap((c, index) => (c.readsOnly ? [] : [[c.key, caseMarker(PREFIX, 'k', index)] as [string, string]])),
]
/** The markers of valid creates that may be refused (suites/categories/refusal-checks.ts). */
const CREATE_MARKERS: [string, string][] = VALID_CREATES.filter((c) => c.mayRefuse).map((c) => [c.key, createMarker(c, c.body(PREFIX))])

/** Every string a run sends as a name or a description, by the case that sends it. */
const SENT: [string, string][] = [
  ...KEYED_MARKERS,
  ...VALID_CREATES.flatMap((c) => [c.body(PREFIX), ...(c.shortForm ? [c.shortForm(PREFIX)] : [])].flatMap((b) => [b.name, b.description ?? ''].map((text) => [c.key, text] as [string, string]))),
]

describe('markers of refused POSTs', () => {
  test('a keyed marker is the prefix and characters a marker is made of', () => {
    for (const [, marker] of KEYED_MARKERS) expect(marker).toMatch(new RegExp(`^${PREFIX}-[a-z0-9-]+$`))
  })

  // a longer one is refused by a VARCHAR(16) name before anything else: 400 to a POST without a key
  // from a service that reads the body first, and a wrong-typed description taken unseen
  test('a keyed marker fits the shortest name column every class is verified against, with the run prefix of any run', () => {
    for (const [, marker] of KEYED_MARKERS) expect([...marker].length).toBeLessThanOrEqual(NAME_FLOOR)
  })

  test.each([...KEYED_MARKERS, ...CREATE_MARKERS])('%s: its marker is found in what its own case sends, and in nothing another case sends', (key, marker) => {
    expect(SENT.some(([owner, text]) => owner === key && holdsMarker(text, marker))).toBe(true)
    expect(SENT.filter(([owner, text]) => owner !== key && holdsMarker(text, marker))).toEqual([])
  })

  test('a marker is found whole: at the end of a value or before a character no marker has, never as the start of a longer one', () => {
    const list = [
      { id: 1, name: '', description: `${PREFIX}-empty-name` },
      { id: 2, name: `${PREFIX}-missing-name \uFFFD` },
      { id: 3, name: "['x']", description: `['${PREFIX}-wrong-type-name-array']` },
    ]
    expect(recordsHolding(list, `${PREFIX}-empty`)).toEqual([])
    expect(recordsHolding(list, `${PREFIX}-empty-name`).map((r) => r.id)).toEqual([1])
    expect(recordsHolding(list, `${PREFIX}-missing-name`).map((r) => r.id)).toEqual([2])
    expect(recordsHolding(list, `${PREFIX}-wrong-type-name-array`).map((r) => r.id)).toEqual([3])
    expect(recordsHolding(list, `${PREFIX}-wrong-type-name`)).toEqual([])
  })
})
