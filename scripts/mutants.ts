/**
 * `npm run mutants`: runs the kill matrix (every mutation must be caught, every conforming variant
 * must pass), prints the table and the score, writes kill-matrix.json to the report directory.
 * Exit 0 when every mutation is caught and every variant passes, 1 otherwise, 2 on bad arguments.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { MUTATIONS } from '../lib/server/mutations.ts'
import { VARIANTS } from '../lib/server/variants.ts'
import { DEFAULT_CONCURRENCY, formatMatrix, matrixJson, runMatrix, withReadmeMatrix } from '../test/mutants/matrix.ts'

const USAGE = `Usage: npm run mutants -- [options]

Runs npm run conform against every mutation (must exit 1, failing the rule it breaks with the
failure code it declares) and every conforming variant (must exit 0) of the reference server,
prints the kill matrix and writes kill-matrix.json; a run of every case also rewrites the
kill-matrix table of README.md.

  --report-dir DIR    where kill-matrix.json goes (default reports) [CONFORM_REPORT_DIR]
  --concurrency N     conform runs at once (default ${DEFAULT_CONCURRENCY})
  --only NAME         run only this mutation or variant (repeatable)
  -h, --help          this text`

const PROJECT_ROOT = fileURLToPath(new URL('../', import.meta.url))

async function main(argv: string[]): Promise<number> {
  let values
  try {
    values = parseArgs({
      args: argv,
      options: {
        'report-dir': { type: 'string' },
        concurrency: { type: 'string' },
        only: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    process.stderr.write(`mutants: ${(error as Error).message.split('\n')[0]}\n${USAGE}\n`)
    return 2
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n')
    return 0
  }
  const concurrency = values.concurrency === undefined ? DEFAULT_CONCURRENCY : Number(values.concurrency)
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) {
    process.stderr.write(`mutants: --concurrency takes a whole number of at least 1, got "${values.concurrency}"\n`)
    return 2
  }
  const only = values.only ?? []
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

  const reportDir = resolve(values['report-dir'] ?? process.env.CONFORM_REPORT_DIR ?? 'reports')
  mkdirSync(reportDir, { recursive: true })
  const path = join(reportDir, 'kill-matrix.json')
  writeFileSync(path, matrixJson(report))
  process.stdout.write(`\nWritten: ${path} (${(report.durationMs / 1000).toFixed(0)} s)\n`)
  // the README's table is this output, never pasted by hand; a run of a few cases leaves it alone
  if (only.length === 0) {
    const readme = join(PROJECT_ROOT, 'README.md')
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
