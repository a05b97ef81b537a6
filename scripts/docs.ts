/**
 * `npm run docs`: writes what the docs state from the code: docs/rules.md (from the rule catalogue
 * and the case tables) and the options table of README.md (from lib/config/conform-options.ts).
 * The kill matrix of docs/proof.md is `npm run mutants`'s, the measurements of
 * docs/performance.md are `npm run bench`'s. test/spec/docs.test.ts and test/cli/options.test.ts
 * fail when a checked-in copy is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CONFORM_OPTIONS } from '../lib/config/conform-options.ts'
import { optionsMarkdown } from '../lib/config/options.ts'
import { optionDocsSource } from './docs/option-docs.ts'
import { rulesPage } from './docs/rules-page.ts'

const rulesPath = fileURLToPath(new URL('../docs/rules.md', import.meta.url))
writeFileSync(rulesPath, rulesPage())
process.stdout.write(`Written: ${rulesPath}\n`)

// the table is the block of lines starting with | under ## Options
const readmePath = fileURLToPath(new URL('../README.md', import.meta.url))
const readme = readFileSync(readmePath, 'utf8')
const table = /(## Options\n(?:(?!\|)[^\n]*\n)*)(\|[^\n]*\n)+/.exec(readme)
if (!table) throw new Error('README.md has no table under ## Options')
writeFileSync(readmePath, readme.replace(table[0], table[1] + optionsMarkdown(CONFORM_OPTIONS).trimEnd() + '\n'))
process.stdout.write(`Written: the options table of ${readmePath}\n`)

const optionDocsPath = fileURLToPath(new URL('../lib/api/option-docs.ts', import.meta.url))
writeFileSync(optionDocsPath, optionDocsSource())
process.stdout.write(`Written: ${optionDocsPath}\n`)
