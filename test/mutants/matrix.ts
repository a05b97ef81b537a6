/**
 * The kill matrix: every mutation of lib/server/mutations.ts must make `npm run conform` exit 1
 * with its rule among the failed ones; every variant of lib/server/variants.ts must make it exit 0.
 * Each case starts its own reference server on port 0 and runs the real entry point against it as
 * a child process. Shared by test/mutants/kill-matrix.test.ts and scripts/mutants.ts.
 */
import { randomBytes } from 'node:crypto'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase, type Mutation, type ServerCase, type Variant } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { failedRules, runConform } from '../helpers/run-conform.ts'

/** Conform children at once: each uses about one core for ~1.5 s. */
export const DEFAULT_CONCURRENCY = 2

export interface CaseRun {
  code: number | null
  failedRules: string[]
  /** Rules with advisory notes (status warn). */
  warnedRules: string[]
  problems: string[]
  /** The first failed check of each failed rule: what the suite said. */
  failures: { rule: string; check: string; message: string }[]
  durationMs: number
  /** The conform output, for a failure message. */
  output: string
}

export interface MutationOutcome extends CaseRun {
  name: string
  breaks: string
  /** Exit 1 with `breaks` among the failed rules. */
  caught: boolean
}

export interface VariantOutcome extends CaseRun {
  name: string
  description: string
  /** Exit 0. */
  passed: boolean
}

export interface MatrixReport {
  generatedAt: string
  durationMs: number
  score: { mutations: number; caught: number; variants: number; passed: number }
  mutations: MutationOutcome[]
  variants: VariantOutcome[]
}

/** Starts the case's server, runs conform against it, closes the server. */
export async function runCase(serverCase: ServerCase): Promise<CaseRun> {
  const apiKey = randomBytes(18).toString('base64url')
  const started = performance.now()
  const server = await startCase(serverCase, { apiKey })
  try {
    const run = await runConform(['--base-url', server.baseUrl, ...(serverCase.args ?? [])], { env: { CONFORM_API_KEY: apiKey } })
    try {
      return {
        code: run.code,
        failedRules: failedRules(run),
        warnedRules: (run.results?.rules ?? []).filter((r) => r.status === 'warn').map((r) => r.id),
        problems: run.results?.problems ?? [],
        failures: (run.results?.rules ?? []).flatMap((r) => {
          const failed = r.checks.find((c) => c.status === 'fail')
          return failed ? [{ rule: r.id, check: failed.name, message: failed.failure?.message ?? 'failed' }] : []
        }),
        durationMs: Math.round(performance.now() - started),
        output: `${run.stdout}${run.stderr}`,
      }
    } finally {
      run.cleanup()
    }
  } finally {
    await server.close()
  }
}

export async function runMutation(mutation: Mutation): Promise<MutationOutcome> {
  const run = await runCase(mutation)
  return { name: mutation.name, breaks: mutation.breaks, ...run, caught: run.code === 1 && run.failedRules.includes(mutation.breaks) }
}

export async function runVariant(variant: Variant): Promise<VariantOutcome> {
  const run = await runCase(variant)
  return { name: variant.name, description: variant.description, ...run, passed: run.code === 0 }
}

/** At most `n` of the functions given to it run at once; the rest wait their turn, in order. */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0
  const waiting: (() => void)[] = []
  return async (task) => {
    if (running >= n) await new Promise<void>((resolve) => waiting.push(resolve))
    running++
    try {
      return await task()
    } finally {
      running--
      waiting.shift()?.()
    }
  }
}

export interface MatrixOptions {
  concurrency?: number
  mutations?: readonly Mutation[]
  variants?: readonly Variant[]
  /** Called as each case finishes (progress). */
  onOutcome?: (outcome: MutationOutcome | VariantOutcome, kind: 'mutation' | 'variant') => void
}

export async function runMatrix(options: MatrixOptions = {}): Promise<MatrixReport> {
  const limit = limiter(options.concurrency ?? DEFAULT_CONCURRENCY)
  const started = performance.now()
  const mutations = options.mutations ?? MUTATIONS
  const variants = options.variants ?? VARIANTS
  const [mutationOutcomes, variantOutcomes] = await Promise.all([
    Promise.all(
      mutations.map((m) =>
        limit(async () => {
          const outcome = await runMutation(m)
          options.onOutcome?.(outcome, 'mutation')
          return outcome
        }),
      ),
    ),
    Promise.all(
      variants.map((v) =>
        limit(async () => {
          const outcome = await runVariant(v)
          options.onOutcome?.(outcome, 'variant')
          return outcome
        }),
      ),
    ),
  ])
  return {
    generatedAt: new Date().toISOString(),
    durationMs: Math.round(performance.now() - started),
    score: {
      mutations: mutationOutcomes.length,
      caught: mutationOutcomes.filter((o) => o.caught).length,
      variants: variantOutcomes.length,
      passed: variantOutcomes.filter((o) => o.passed).length,
    },
    mutations: mutationOutcomes,
    variants: variantOutcomes,
  }
}

/** The score line. */
export function formatScore(report: MatrixReport): string {
  const { score } = report
  return `Kill matrix: ${score.caught}/${score.mutations} mutations caught, ${score.passed}/${score.variants} conforming variants passed`
}

// run ids (conform-20261121-0844-9d43-…) differ from run to run; the table should not
const cell = (text: string) =>
  text
    .replace(/conform-\d{8}-\d{4}-[0-9a-f]{4}/g, 'conform-RUN')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ')

/** The score and one row per case, as `npm run mutants` prints it (Markdown tables). */
export function formatMatrix(report: MatrixReport): string {
  const lines: string[] = [formatScore(report), '']
  lines.push('| mutation | must fail | caught | exit | how the suite said it | also failed |')
  lines.push('|---|---|---|---|---|---|')
  for (const o of report.mutations) {
    const others = o.failedRules.filter((r) => r !== o.breaks)
    const said = o.failures.find((f) => f.rule === o.breaks)?.message ?? '-'
    lines.push(`| ${o.name} | ${o.breaks} | ${o.caught ? 'yes' : '**NO**'} | ${o.code ?? 'killed'} | ${cell(said)} | ${others.join(', ') || '-'} |`)
  }
  lines.push('')
  lines.push('| variant | what it does | passed | exit | advisory notes |')
  lines.push('|---|---|---|---|---|')
  for (const o of report.variants) {
    const failed = o.failedRules.length > 0 ? ` (failed: ${o.failedRules.join(', ')})` : ''
    lines.push(`| ${o.name} | ${cell(o.description)} | ${o.passed ? 'yes' : `**NO**${failed}`} | ${o.code ?? 'killed'} | ${o.warnedRules.join(', ') || '-'} |`)
  }
  return lines.join('\n') + '\n'
}

/** The report as written to kill-matrix.json (without the conform output of each case). */
export function matrixJson(report: MatrixReport): string {
  const strip = <T extends CaseRun>({ output: _output, ...rest }: T) => rest
  return JSON.stringify({ ...report, mutations: report.mutations.map(strip), variants: report.variants.map(strip) }, null, 2) + '\n'
}
