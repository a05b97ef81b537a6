/**
 * The numbers the docs state of the write plan are the plan's (suites/cases/write-order.ts): how
 * many POSTs a run may send, how many create a record, how many cases each table has. They drifted
 * each time a case was added (docs/production.md's `Sent:` example kept "of at most 74 of the plan"
 * at 77, docs/inputs.md "19 bodies of the wrong type" at 21 and "6 POSTs" of the values that poison
 * a store at 7), since nothing read them back. Dated measurements ("Measured …: 73 POSTs in the
 * plan") say what was true then, and are not read here.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { MALFORMED_BODIES } from '../../suites/cases/malformed-json.ts'
import { VALID_CREATES } from '../../suites/cases/valid-creates.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'
import { wrongTypeCases } from '../../suites/cases/wrong-types.ts'
import { ROOT } from '../helpers/run-conform.ts'
import { POST_RESENDS_PER_WRITE } from '../../lib/http/retry-after.ts'

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

const POSTS = POST_PROBES.length
const CREATIONS = POST_PROBES.filter((p) => p.creates).length
const FOLLOW_UPS = POST_PROBES.filter((p) => p.followUp).length
const REFUSED = POSTS - CREATIONS - FOLLOW_UPS
const POISONS = VALID_CREATES.filter((c) => c.holds).length
/** The default --confirm: each failed POST goes again at most this many more times. */
const CONFIRM = 2

const WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 }
const asNumber = (text: string) => (/^\d+$/.test(text) ? Number(text) : (WORDS[text.toLowerCase()] ?? Number.NaN))

/** Every number the pattern's first group matches in the page (prose reflowed onto one line), as numbers. */
function stated(page: string, pattern: RegExp): number[] {
  const text = read(page).replace(/\s+/g, ' ')
  return [...text.matchAll(new RegExp(pattern, 'g'))].map((m) => asNumber(m[1] as string))
}

describe('the write plan as docs/production.md states it', () => {
  const page = 'docs/production.md'
  test.each([
    ['a run sends at most N POSTs', /sends? at most (\d+) POSTs/, POSTS],
    ['N valid creations', /(\d+) valid creations/, CREATIONS],
    ['at most N records on a conforming server', /at most (\d+) records on a conforming server/, CREATIONS],
    ['N of them carry the values a store may accept', /(\d+) of them carry the values a store may accept/, POISONS],
    ['N that a conforming server refuses', /(\d+) that a conforming server refuses/, REFUSED],
    ['N that go only to a service that refuses long values', /(\d+) that go only to a service that refuses long values/, FOLLOW_UPS],
    ['N in all, with --confirm 2', /: (\d+) in all/, POSTS * (1 + CONFIRM)],
    ['of at most N of the plan (the Sent: line)', /of at most (\d+) of the plan/, POSTS],
    ['at most N times in a run, as many as the plan has POSTs', /at most (\d+) times in a run \(as many as the plan has POSTs/, POSTS],
    ['names the N sent again after a lost answer', /it names the (\d+) sent again after an answer lost/, POSTS],
    ['gives the sum of the three, N', /gives the sum of the three, (\d+),/, (2 + CONFIRM) * POSTS],
    ['where it gave N (the plan and its confirmations)', /gives the sum of the three, \d+, where it gave (\d+)/, POSTS * (1 + CONFIRM)],
    ['at most N such resends in a run', /at most (\d+) such resends in a run/, POST_RESENDS_PER_WRITE * POSTS],
    ['--repeat 10: at most N POSTs, 1 in each further round', /"at most (\d+) POSTs, 1 in each further round/, POSTS],
    ['--repeat 10: creating at most N records (one more in each of 9 further rounds)', /1 in each further round \(--repeat 10\), …, creating at most (\d+) records/, CREATIONS + 9],
    ['(N for each POST the run may send)', /such resends in a run \((\d+) for each POST the run may send\)/, POST_RESENDS_PER_WRITE],
    // each of the plan's POSTs answered 429 once; a merge took a branch's page and put back the figure of a plan two POSTs older
    ['and N sent again after a 429 or 503 (the Sent: line of a limited run)', /and (\d+) sent again after the server answered 429 or 503/, POSTS],
  ])('%s', (_, pattern, expected) => {
    const numbers = stated(page, pattern)
    expect(numbers.length, `${page} no longer says ${pattern}: update this test with it`).toBeGreaterThan(0)
    expect(numbers).toEqual(numbers.map(() => expected))
  })

  test('the bound of every POST, whatever the server does: the plan, its confirmations and its resends after lost answers', () => {
    const text = read(page).replace(/\s+/g, ' ')
    const sum = /at most (\d+) \+ (\d+) \+ (\d+) = (\d+) POSTs/.exec(text)
    expect(sum, `${page} no longer gives the sum`).not.toBeNull()
    expect(sum!.slice(1).map(Number)).toEqual([POSTS, CONFIRM * POSTS, POSTS, (2 + CONFIRM) * POSTS])
  })
})

describe('the case tables as docs/inputs.md counts them', () => {
  const page = 'docs/inputs.md'
  test.each([
    ['N malformed JSON texts', /(\d+) malformed JSON texts/, MALFORMED_BODIES.length],
    ['N bodies with a value of the wrong type', /(\d+) bodies with a value of the wrong type/, wrongTypeCases().length],
    ['N creates carry such values (that poison a store)', /(\w+) creates carry such values/, POISONS],
    ['with the malformed body they are N POSTs', /with the malformed body below they are (\d+) POSTs/, POISONS + MALFORMED_BODIES.filter((b) => b.key === 'malformed-surrogate-bytes').length],
  ])('%s', (_, pattern, expected) => {
    const numbers = stated(page, pattern)
    expect(numbers.length, `${page} no longer says ${pattern}: update this test with it`).toBeGreaterThan(0)
    expect(numbers).toEqual(numbers.map(() => expected))
  })
})
