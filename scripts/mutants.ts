/**
 * `npm run mutants`: runs the kill matrix (every mutation must be caught, every conforming variant
 * must pass), prints the table and the score, writes kill-matrix.json to the report directory.
 * Exit 0 when every mutation is caught and every variant passes, 1 otherwise, 2 on bad arguments.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { optionsHelp, readCommandLine, type OptionSpec } from '../lib/config/options.ts'
import { MUTATIONS } from '../lib/server/mutations.ts'
import { VARIANTS } from '../lib/server/variants.ts'
import { DEFAULT_CONCURRENCY, formatMatrix, matrixJson, PROOF_PAGE, runMatrix, withReadmeMatrix } from '../test/mutants/matrix.ts'

const MUTANTS_OPTIONS = [
  { flag: 'report-dir', kind: 'string', value: 'DIR', env: 'CONFORM_REPORT_DIR', default: 'reports', help: 'where kill-matrix.json goes' },
  { flag: 'concurrency', kind: 'integer', value: 'N', min: 1, default: DEFAULT_CONCURRENCY, help: 'conform runs at once' },
  { flag: 'only', kind: 'list', value: 'NAME', help: 'run only this mutation or variant (repeatable)' },
  { flag: 'help', short: 'h', kind: 'boolean', help: 'this text' },
] as const satisfies readonly OptionSpec[]

const PROCESS_IO = { out: (text: string) => process.stdout.write(text), err: (text: string) => process.stderr.write(text) }

const USAGE = `Usage: npm run mutants -- [options]

Runs npm run conform against every mutation (must exit 1, failing the rule it breaks with the
failure code it declares) and every conforming variant (must exit 0) of the reference server,
prints the kill matrix and writes kill-matrix.json; a run of every case also rewrites the
kill-matrix table of docs/proof.md.

${optionsHelp(MUTANTS_OPTIONS)}`

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url))

async function main(argv: string[]): Promise<number> {
  const values = readCommandLine({ name: 'mutants', usage: USAGE, options: MUTANTS_OPTIONS }, argv, PROCESS_IO, process.env)
  if (typeof values === 'number') return values
  const concurrency = values.concurrency as number
  const only = values.only as string[]
  const known = new Set([...MUTATIONS, ...VARIANTS].map((c) => c.name))
  const unknown = only.filter((name) => !known.has(name))
  if (unknown.length > 0) {
    process.stderr.write(`mutants: unknown case ${unknown.join(', ')}; known: ${[...known].join(', ')}\n`)
    return 2
  }
  const pick = <T extends { name: string }>(table: readonly T[]) => (only.length === 0 ? table : table.filter((c) => only.includes(c.name)))
  const mutations = pick(MUTATIONS)
  const variants = pick(VARIANTS)

  process.stdout.write(`Running npm run conform against ${mutations.length} mutations and ${variants.length} variants, ${concurrency} at a time…\n`)
  const report = await runMatrix({
    concurrency,
    mutations,
    variants,
    onOutcome: (outcome, kind) => {
      const ok = 'caught' in outcome ? outcome.caught : outcome.passed
      const verdict = kind === 'mutation' ? (ok ? 'caught' : 'SURVIVED') : ok ? 'passed' : 'FAILED'
      process.stdout.write(`  ${kind.padEnd(8)} ${outcome.name.padEnd(34)} ${verdict} (exit ${outcome.exitCode}, ${(outcome.durationMs / 1000).toFixed(1)} s)\n`)
    },
  })
  process.stdout.write('\n' + formatMatrix(report))
  for (const o of report.mutations.filter((m) => !m.caught)) {
    process.stdout.write(`\nSurvived: ${o.name} (must fail ${o.breaks}); conform said:\n${o.output}\n`)
  }
  for (const o of report.variants.filter((v) => !v.passed)) {
    process.stdout.write(`\nFalse alarm: variant ${o.name}; conform said:\n${o.output}\n`)
  }

  const reportDir = resolve(values['report-dir'] as string)
  mkdirSync(reportDir, { recursive: true })
  const path = join(reportDir, 'kill-matrix.json')
  writeFileSync(path, matrixJson(report))
  process.stdout.write(`\nWritten: ${path} (${(report.durationMs / 1000).toFixed(0)} s)\n`)
  // the table of docs/proof.md is this output, never pasted by hand; a run of a few cases leaves it alone
  if (only.length === 0) {
    const readme = join(PROJECT_ROOT, PROOF_PAGE)
    writeFileSync(readme, withReadmeMatrix(readFileSync(readme, 'utf8'), report))
    process.stdout.write(`Written: the kill-matrix table of ${readme}\n`)
  }
  const { score } = report
  return score.caught === score.mutations && score.passed === score.variants ? 0 : 1
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`mutants: ${(error as Error).stack ?? String(error)}\n`)
    process.exitCode = 2
  },
)
