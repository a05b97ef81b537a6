/**
 * What an editor shows a service's engineers as they write defineConformance({ … }): each option's
 * help (its meaning, unit, limits, default and variable) on hover and in completion, and the
 * catalogue's rule ids for `rule`. The options type was computed from the table of options, which
 * TypeScript shows without any JSDoc (a completion of `timeout` said nothing of milliseconds), and
 * `rule` was any string. The help now stands on the properties of OptionDocs, written from the table
 * by `npm run docs`, which ConformanceOptions maps over (a mapped type keeps the JSDoc of the
 * properties it maps); TypeScript 7 has no language service to ask, so the shipped declarations
 * are read.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { distIsCurrent } from '../../build/source-digest.mjs'
import { CONFORM_OPTIONS } from '../../lib/config/conform-options.ts'
import type { OptionSpec } from '../../lib/config/options.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { optionDocsSource } from '../../scripts/docs/option-docs.ts'
import { ROOT } from '../helpers/run-conform.ts'

const LIBRARY_OPTIONS: readonly OptionSpec[] = CONFORM_OPTIONS.filter((o) => !['help', 'version', 'list-rules', 'dry-run', 'base-url', 'targets'].includes(o.flag))
const camelCase = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

test('lib/api/option-docs.ts is what npm run docs writes from the table of options and the rule catalogue', () => {
  expect(readFileSync(join(ROOT, 'lib/api/option-docs.ts'), 'utf8'), 'run npm run docs').toBe(optionDocsSource())
})

test('the shipped declarations carry each option\'s help on the property ConformanceOptions maps, and the rule ids', (ctx) => {
  if (!distIsCurrent(ROOT)) ctx.skip('dist/ is older than the sources: npm run build (npm test does it first)')
  const docs = readFileSync(join(ROOT, 'dist/lib/api/option-docs.d.ts'), 'utf8')
  for (const option of LIBRARY_OPTIONS) {
    // the help's first words, the unit where it has one, then the property, in one comment
    const words = escape(option.help.slice(1, 24))
    const inComment = '(?:(?!\\*/)[^])*'
    const unit = option.unit ? `${inComment}of ${escape(option.unit)}` : ''
    expect(docs, option.flag).toMatch(new RegExp(`/\\*\\*\\n\\s+\\* .${words}${inComment}${unit}${inComment}\\*/\\n\\s+${camelCase(option.flag)}: unknown;`))
  }
  expect(readFileSync(join(ROOT, 'dist/lib/api/options.d.ts'), 'utf8')).toMatch(/\[Key in keyof OptionDocs\]\?: Key extends 'rule' \? RuleId \| readonly RuleId\[\]/)
  for (const rule of ruleCatalogue()) expect(docs).toContain(`'${rule.id}'`)
})
