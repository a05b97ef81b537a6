/**
 * compare beside a run of some rules (--rule): the rules it left out read "pass → absent", as if
 * gone from the service, and its observed behaviour "not recorded" without a word of why. They
 * read "not run (--rule)" now, and the heading says what such a run does not record.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { compareMain, compareRuns } from '../../lib/cli/compare.ts'
import { check, runResult } from '../reporters/fixture.ts'
import { scratchDir } from '../helpers/scratch-dir.ts'

const RULE = 'auth-missing-key-401'
const full = runResult((id) => [check(`${id} check`, 'pass')])
const some = runResult((id) => [check(`${id} check`, 'pass')])
some.observed = undefined
some.rules = some.rules.filter((r) => r.id === RULE)
some.options = { ...some.options, rules: [RULE] }

test('the rules a --rule run left out read "not run (--rule)", and the heading says why its observed behaviour is not recorded', () => {
  expect(compareRuns(full, some).ruleChanges).toContain('list-returns-200: pass → not run (--rule)')
  expect(compareRuns(full, some).ruleChanges.join('\n')).not.toContain('absent')
  const dir = scratchDir('conform-compare-rules-')
  for (const [name, run] of [['a', full], ['b', some]] as const) {
    mkdirSync(join(dir, name))
    writeFileSync(join(dir, name, 'results.json'), JSON.stringify(run))
  }
  let out = ''
  compareMain([join(dir, 'a'), join(dir, 'b')], { out: (t) => void (out += t), err: (t) => void (out += t) }, dir)
  expect(out).toMatch(/^Observed behaviour that differs \(\d+; B ran some rules \(--rule\), so what the others send is not recorded there\):$/m)
})
