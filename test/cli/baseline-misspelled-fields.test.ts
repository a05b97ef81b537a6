/**
 * A baseline edited by hand with a field misspelled: the key was ignored, read as absent. An entry
 * given `"expire": "2026-11-01"` never expired (the gate passed on it past its date, no word said),
 * and one given `"Observed"` excused its code whatever the failure showed. A key near a field's
 * name is refused now (exit 2 before any request, naming the field meant); keys far from every
 * field (a team's `ticket` or `owner`) are kept and ignored, as before.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { readBaseline } from '../../lib/config/baseline-file.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-baseline-typo-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const ENTRY = { rule: 'auth-missing-key-401', code: 'UNEXPECTED_STATUS', observed: 'status 403', reason: 'OPS-112' }

test.each([
  ['expire', { ...ENTRY, expire: '2026-11-01' }, 'expires'],
  ['Observed', { rule: ENTRY.rule, code: ENTRY.code, Observed: 'status 403', reason: 'OPS-112' }, 'observed'],
  ['reson', { rule: ENTRY.rule, code: ENTRY.code, reson: 'OPS-112' }, 'reason'],
  ['checks', { ...ENTRY, checks: 'GET /categories with no Authorization header → 401' }, 'check'],
  ['also_observed', { ...ENTRY, also_observed: [] }, 'alsoObserved'],
  // other words for a field, too far for an edit or two: "expiry" is how the --update-baseline help words it
  ['expiry', { ...ENTRY, expiry: '2026-11-01' }, 'expires'],
  ['expiresAt', { ...ENTRY, expiresAt: '2026-11-01' }, 'expires'],
  ['ruleId', { ...ENTRY, ruleId: 'auth-missing-key-401' }, 'rule'],
  // a team's word for a person near a field is the field mistyped when it holds what the field holds
  ['observer', { rule: ENTRY.rule, code: ENTRY.code, observer: 'status 403', reason: 'OPS-112' }, 'observed'],
  // and a status as a team writes it by hand: kept as a team's word, the entry excused any answer
  ['observer', { rule: ENTRY.rule, code: ENTRY.code, observer: '403 Forbidden', reason: 'OPS-112' }, 'observed'],
])('an entry with "%s" is refused, naming the field meant', (key, entry, meant) => {
  const file = join(dir, `${key}.json`)
  writeFileSync(file, JSON.stringify({ knownFailures: [entry] }))
  expect(() => readBaseline(file, false)).toThrow(`knownFailures[0] has "${key}", no field of an entry (did you mean "${meant}"?)`)
})

// a key near a field the entry has changes nothing read as absent, and a field's name with a word after
// it is a note about the field: refused, a baseline 839b771 read ("node": the replica it fails on) stopped the gate
test.each([
  ['role', { ...ENTRY, role: 'payments' }],
  ['node', { ...ENTRY, node: 'eu-west-1b' }],
  ['mode', { ...ENTRY, mode: 'canary' }],
  ['Rule', { ...ENTRY, Rule: 'see the runbook' }],
  ['observedBy', { ...ENTRY, observedBy: 'alice' }],
  ['check_note', { ...ENTRY, check_note: 'renamed in 0.2' }],
])('an entry with "%s" beside its fields is read, the key ignored', (_key, entry) => {
  const file = join(dir, `kept-${_key}.json`)
  writeFileSync(file, JSON.stringify({ knownFailures: [entry] }))
  expect(readBaseline(file, false).knownFailures).toEqual([entry])
})

test('keys far from every field are kept and ignored: a team may note its ticket or owner', () => {
  const file = join(dir, 'notes.json')
  const entry = { ...ENTRY, ticket: 'OPS-112', owner: 'platform team' }
  writeFileSync(file, JSON.stringify({ knownFailures: [entry] }))
  expect(readBaseline(file, false).knownFailures).toEqual([entry])
})

test('a team\'s "observer" (who saw it) is kept and ignored, in an entry without "observed" too: it stopped the gate as a misspelled "observed"', () => {
  const file = join(dir, 'observer.json')
  const entries = [
    { rule: ENTRY.rule, code: ENTRY.code, reason: 'OPS-112', observer: 'alice', owner: 'platform team' },
    { ...ENTRY, observers: ['alice', 'bob'] },
  ]
  writeFileSync(file, JSON.stringify({ knownFailures: entries, knownProblems: [{ problem: 'stray-answer', reason: 'OPS-9', observer: 'bob' }] }))
  const read = readBaseline(file, false)
  expect(read.knownFailures).toEqual(entries)
  expect(read.knownProblems).toEqual([{ problem: 'stray-answer', reason: 'OPS-9', observer: 'bob' }])
})

test('a rule id mistyped by hand is refused with the nearest, as a mistyped code is', () => {
  const file = join(dir, 'rule.json')
  writeFileSync(file, JSON.stringify({ knownFailures: [{ ...ENTRY, rule: 'auth-missing-key-410' }] }))
  expect(() => readBaseline(file, false)).toThrow('names the unknown rule "auth-missing-key-410" (did you mean auth-missing-key-401?); --list-rules prints the catalogue')
})
