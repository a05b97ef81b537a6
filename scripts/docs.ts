/**
 * `npm run docs`: writes the generated pages of docs/ (docs/rules.md, from the rule catalogue and
 * the case tables). The kill matrix of docs/proof.md is `npm run mutants`'s, the options table of
 * README.md is checked against lib/config/conform-options.ts by test/cli/options.test.ts.
 */
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { rulesPage } from './docs/rules-page.ts'

const path = fileURLToPath(new URL('../docs/rules.md', import.meta.url))
writeFileSync(path, rulesPage())
process.stdout.write(`Written: ${path}\n`)
