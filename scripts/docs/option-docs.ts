/**
 * lib/api/option-docs.ts, written from the command line's options (lib/config/conform-options.ts)
 * and the rule catalogue (spec/rules.yaml): what an editor shows for each option of
 * defineConformance() and runConformance() (its help, unit, limits, default and variable), and
 * the rule ids it offers for `rule`. TypeScript keeps a property's JSDoc only where it is written,
 * not through a type computed from a table, so the table is written out here. `npm run docs`
 * writes it; test/api/option-docs.test.ts fails when the checked-in copy is stale.
 */
import { inOptionWords } from '../../lib/api/options.ts'
import { CONFORM_OPTIONS } from '../../lib/config/conform-options.ts'
import type { OptionSpec } from '../../lib/config/options.ts'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'

/** Flags that are no option of the library (lib/api/options.ts says why). */
const COMMAND_LINE_ONLY = new Set(['help', 'version', 'list-rules', 'dry-run', 'base-url', 'targets'])

const camelCase = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())

/** A JSDoc body: no line closes the comment. */
const safe = (text: string) => text.replaceAll('*/', '*\\/')

/** Where a run from code differs from the command line: it writes report files only into a folder given. */
const FROM_CODE: Record<string, string> = {
  'report-dir': "Takes a string, or false. Not given, or false: no report files (CONFORM_REPORT_DIR is not read). The command line's --report-dir, whose default is reports.",
}

/** What an option takes and what it is when not given, as one sentence. */
function valueLine(o: OptionSpec): string {
  const own = FROM_CODE[o.flag]
  if (own !== undefined) return own
  const limits = [o.min !== undefined ? `at least ${o.min}` : '', o.max !== undefined ? `at most ${o.max}` : ''].filter(Boolean).join(', ')
  const takes = o.kind === 'boolean' ? 'true or false' : o.kind === 'integer' ? `a whole number${o.unit ? ` of ${o.unit}` : ''}${limits ? `, ${limits}` : ''}` : o.kind === 'list' ? 'a string or a list of them' : 'a string'
  const fallback = o.default !== undefined ? String(o.default) : o.defaultText
  const from = o.env ? `read from ${o.env}, else ` : ''
  return `Takes ${takes}. Not given: ${from}${fallback ?? (o.kind === 'boolean' ? 'false' : 'none')}. The command line's --${o.flag}.`
}

export function optionDocsSource(): string {
  const options = CONFORM_OPTIONS.filter((o) => !COMMAND_LINE_ONLY.has(o.flag))
  const ids = ruleCatalogue().map((rule) => rule.id)
  const help = (o: OptionSpec) => {
    const text = inOptionWords(o.help)
    return text.charAt(0).toUpperCase() + text.slice(1)
  }
  return [
    '// Written by `npm run docs` from lib/config/conform-options.ts and spec/rules.yaml: edit those, not this file.',
    '',
    '/** The id of a rule of the catalogue (docs/rules.md). */',
    `export type KnownRuleId =\n${ids.map((id) => `  | '${id}'`).join('\n')}`,
    '',
    '/**',
    ' * The options of the command line a run from code takes, with their help. lib/api/options.ts',
    ' * gives each its type, from the same table, and fails to compile when the names here differ.',
    ' */',
    'export interface OptionDocs {',
    ...options.flatMap((o) => ['  /**', `   * ${safe(help(o))}.`.replace(/\.\.$/, '.'), `   * ${safe(valueLine(o))}`, '   */', `  ${camelCase(o.flag)}: unknown`]),
    '}',
    '',
  ].join('\n')
}
