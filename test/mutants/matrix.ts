/**
 * The kill matrix: every mutation of lib/server/mutations/ must make `npm run conform` exit 1
 * with its rule failed for the reason it declares (its failure code); every variant of lib/server/variants.ts must make it exit 0.
 * Each case starts its own reference server on port 0 and runs the command line against it: its
 * main(), in this process (test/helpers/run-conform.ts), with the compiled code `npm run conform`
 * runs. The command as a process is proven apart (test/cli/, test/package/). Shared by
 * test/mutants/kill-matrix.test.ts and scripts/mutants.ts.
 */
import { FAILURE_CODES, type FailureCode } from '../../lib/spec/failure-codes.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { caseKey, startCase, type Mutation, type ServerCase, type Variant } from '../../lib/server/server-cases.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { failedRules, runConformInProcess } from '../helpers/run-conform.ts'

/**
 * Every case runs with this --seed: the generated inputs, and so the table, are the same from run
 * to run (a mutation caught under some seeds only would make the gate flaky, not stronger).
 */
export const MATRIX_SEED = '1'
/**
 * Conform runs at once, in this process: each takes a fraction of a core for a fraction of a
 * second, and some wait for seconds (rate limits, a serial server), so three keep 2 cores busy.
 */
export const DEFAULT_CONCURRENCY = 3

export interface CaseRun {
  /** conform's exit code; null when it was killed. */
  exitCode: number | null
  failedRules: string[]
  /** Rules with advisory notes (status warn). */
  warnedRules: string[]
  problems: string[]
  /** Every failed check, by rule: what the suite said, and the failure code it gave. */
  failures: { rule: string; check: string; code: string; message: string; recurrence?: string }[]
  durationMs: number
  /** The conform output, for a failure message. */
  output: string
}

export interface MutationOutcome extends CaseRun {
  name: string
  breaks: string
  code: FailureCode
  /** What confirmation must say of the failure, when the mutation pins it. */
  recurrence?: 'deterministic' | 'intermittent'
  /** Mutation.shownByVarying: the table says what the code means, not which request showed it. */
  shownByVarying?: string
  /** Mutation.alsoFailsVarying: the table says the side effects vary, not one run's. */
  alsoFailsVarying?: string
  /** Exit 1 with a check of `breaks` failed with `code`: the rule and the reason both pinned. */
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
  const apiKey = caseKey(serverCase)
  const started = performance.now()
  const server = await startCase(serverCase, { apiKey })
  try {
    const run = await runConformInProcess(['--base-url', server.baseUrl, '--seed', MATRIX_SEED, ...(serverCase.args ?? [])], { env: { CONFORM_API_KEY: apiKey } })
    try {
      return {
        exitCode: run.code,
        failedRules: failedRules(run),
        warnedRules: (run.results?.rules ?? []).filter((r) => r.status === 'warn').map((r) => r.id),
        problems: (run.results?.problems ?? []).map((p) => `${p.kind}: ${p.message}`),
        failures: (run.results?.rules ?? []).flatMap((r) =>
          r.checks
            .filter((c) => c.status === 'fail')
            .map((c) => ({ rule: r.id, check: c.name, code: c.failure?.code ?? '-', message: c.failure?.message ?? 'failed', ...(c.recurrence ? { recurrence: c.recurrence.kind } : {}) })),
        ),
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

/** Runs of a mutation whose catch depends on timing (Mutation.timing), until one catches it. */
const TIMING_ATTEMPTS = 3

/** `run` once; for a mutation whose catch depends on timing, again while `caught` says no, TIMING_ATTEMPTS in all. */
export async function untilCaught<T>(serverCase: ServerCase, run: () => Promise<T>, caught: (outcome: T) => boolean): Promise<T> {
  let outcome = await run()
  const attempts = 'timing' in serverCase && serverCase.timing !== undefined ? TIMING_ATTEMPTS : 1
  for (let attempt = 2; attempt <= attempts && !caught(outcome); attempt++) outcome = await run()
  return outcome
}

export function runMutation(mutation: Mutation): Promise<MutationOutcome> {
  return untilCaught(
    mutation,
    async () => {
      const run = await runCase(mutation)
      const pinned = run.failures.some((f) => f.rule === mutation.breaks && f.code === mutation.code && (mutation.recurrence === undefined || f.recurrence === mutation.recurrence))
      return {
        name: mutation.name, breaks: mutation.breaks, code: mutation.code, ...(mutation.recurrence ? { recurrence: mutation.recurrence } : {}),
        ...(mutation.shownByVarying ? { shownByVarying: mutation.shownByVarying } : {}), ...(mutation.alsoFailsVarying ? { alsoFailsVarying: mutation.alsoFailsVarying } : {}), ...run, caught: run.exitCode === 1 && pinned,
      }
    },
    (outcome) => outcome.caught,
  )
}

export async function runVariant(variant: Variant): Promise<VariantOutcome> {
  const run = await runCase(variant)
  return { name: variant.name, description: variant.description, ...run, passed: run.exitCode === 0 }
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

/** The cases whose runs wait for seconds (`slow`) first: started last, they would run alone at the end. */
export function slowestFirst<T extends ServerCase>(cases: readonly T[]): T[] {
  return [...cases].sort((a, b) => Number(b.slow !== undefined) - Number(a.slow !== undefined))
}

export async function runMatrix(options: MatrixOptions = {}): Promise<MatrixReport> {
  const limit = limiter(options.concurrency ?? DEFAULT_CONCURRENCY)
  const started = performance.now()
  const mutations = options.mutations ?? MUTATIONS
  const variants = options.variants ?? VARIANTS
  const run = <T extends ServerCase, O extends MutationOutcome | VariantOutcome>(kind: 'mutation' | 'variant', runCase: (c: T) => Promise<O>) => (c: T) =>
    limit(async () => {
      const outcome = await runCase(c)
      options.onOutcome?.(outcome, kind)
      return outcome
    })
  // the variants queue first, the slow ones of each first of all; the report keeps the order of the tables
  const variantRuns = new Map(slowestFirst(variants).map((v) => [v.name, run('variant', runVariant)(v)]))
  const mutationRuns = new Map(slowestFirst(mutations).map((m) => [m.name, run('mutation', runMutation)(m)]))
  const mutationOutcomes = await Promise.all(mutations.map((m) => mutationRuns.get(m.name)!))
  const variantOutcomes = await Promise.all(variants.map((v) => variantRuns.get(v.name)!))
  return matrixReport(mutationOutcomes, variantOutcomes, performance.now() - started)
}

export function matrixReport(mutations: MutationOutcome[], variants: VariantOutcome[], durationMs: number): MatrixReport {
  return {
    generatedAt: new Date().toISOString(),
    durationMs: Math.round(durationMs),
    score: {
      mutations: mutations.length,
      caught: mutations.filter((o) => o.caught).length,
      variants: variants.length,
      passed: variants.filter((o) => o.passed).length,
    },
    mutations,
    variants,
  }
}

/** The score line. */
export function formatScore(report: MatrixReport): string {
  const { score } = report
  return `Kill matrix: ${score.caught}/${score.mutations} mutations caught, ${score.passed}/${score.variants} conforming variants passed`
}

// name prefixes (cf-k3x9q-…) and run ids differ from run to run, and so do the ids a server gives
// creates sent at once (in the order they arrive); the table should not
const cell = (text: string) =>
  text
    .replace(/\bcf-[0-9a-z]{5}\b/g, 'cf-RUN')
    .replace(/conform-\d{8}-\d{4}-[0-9a-z]{5}/g, 'conform-RUN')
    // and so does the reference server's port, which a redirect written as an absolute URL names (Starlette's, Werkzeug's)
    .replace(/\/\/127\.0\.0\.1:\d+\//g, '//127.0.0.1:PORT/')
    .replace(/\bcategory \d+\b/g, 'category ID')
    // which create is stored last depends on arrival order too (list-omits-newest named -plain or
    // -bigdesc), and so does the one a replica kept (a name with spaces around it, "  cf-RUN-padded  ")
    .replace(/created category ID \("\s*cf-RUN-[^"]*"\)/g, 'created category ID ("cf-RUN-…")')
    // and so does the create stored before one whose answer is another's record (create-answers-the-row-before-its-own)
    .replace(/another create's record \(its "[a-z]+" holds cf-RUN-[^,]*, which/g, `another create's record (its "…" holds cf-RUN-…, which`)
    // ids past int64 (id-past-int64) are given to concurrent creates in arrival order too
    .replace(/\b92233720368547758\d\d\b/g, '2^63+n')
    .replaceAll('|', '\\|')
    .replaceAll('\n', ' ')

/** The score and one row per case, as `npm run mutants` prints it (Markdown tables). */
export function formatMatrix(report: MatrixReport): string {
  const lines: string[] = [formatScore(report), '']
  lines.push('| mutation | must fail | with code | caught | exit | how the suite said it | also failed |')
  lines.push('|---|---|---|---|---|---|---|')
  for (const o of report.mutations) {
    const others = o.failedRules.filter((r) => r !== o.breaks)
    const pinned = o.failures.find((f) => f.rule === o.breaks && f.code === o.code)
    const said = pinned ?? o.failures.find((f) => f.rule === o.breaks)
    const whole = said ? (said === pinned ? said.message : `${said.code}: ${said.message}`) : '-'
    // an intermittent fault lands on whichever request comes at its turn, and what the suite
    // expected of that request (and why it might fail) differs from run to run: the table keeps
    // what the fault was, which does not
    // a fault shown by whichever request the pool puts on a connection: what its code means, and why
    const saidText = o.shownByVarying && pinned ? `${FAILURE_CODES[o.code]} (the request that shows it varies: ${o.shownByVarying})` : o.recurrence === 'intermittent' ? whole.replace(/, expected .*$/s, '') : whole
    const also = o.alsoFailsVarying ? `varies: ${o.alsoFailsVarying}` : others.join(', ') || '-'
    lines.push(`| ${o.name} | ${o.breaks} | ${o.code}${o.recurrence ? ` (${o.recurrence})` : ''} | ${o.caught ? 'yes' : '**NO**'} | ${o.exitCode ?? 'killed'} | ${cell(saidText)} | ${cell(also)} |`)
  }
  lines.push('')
  lines.push('| variant | what it does | passed | exit | advisory notes |')
  lines.push('|---|---|---|---|---|')
  for (const o of report.variants) {
    const failed = o.failedRules.length > 0 ? ` (failed: ${o.failedRules.join(', ')})` : ''
    lines.push(`| ${o.name} | ${cell(o.description)} | ${o.passed ? 'yes' : `**NO**${failed}`} | ${o.exitCode ?? 'killed'} | ${o.warnedRules.join(', ') || '-'} |`)
  }
  return lines.join('\n') + '\n'
}

/** The report as written to kill-matrix.json (without the conform output of each case). */
export function matrixJson(report: MatrixReport): string {
  const strip = <T extends CaseRun>({ output: _output, ...rest }: T) => rest
  return JSON.stringify({ ...report, mutations: report.mutations.map(strip), variants: report.variants.map(strip) }, null, 2) + '\n'
}

/** The page that keeps the table `npm run mutants` writes. */
export const PROOF_PAGE = 'docs/proof.md'

/** Where docs/proof.md keeps the table that `npm run mutants` writes. */
const README_BEGIN = '<!-- kill-matrix:begin (written by npm run mutants) -->\n'
const README_END = '<!-- kill-matrix:end -->'

/** The kill-matrix table as README.md has it. */
export function readmeMatrix(readme: string): string {
  const begin = readme.indexOf(README_BEGIN)
  const end = readme.indexOf(README_END)
  if (begin < 0 || end < begin) throw new Error(`${PROOF_PAGE} has no ${README_BEGIN.trim()} … ${README_END} section`)
  return readme.slice(begin + README_BEGIN.length, end)
}

/** README.md with its kill-matrix table replaced by the one of `report`. */
export function withReadmeMatrix(readme: string, report: MatrixReport): string {
  const table = readmeMatrix(readme)
  const at = readme.indexOf(README_BEGIN) + README_BEGIN.length
  return readme.slice(0, at) + formatMatrix(report) + readme.slice(at + table.length)
}
