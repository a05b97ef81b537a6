/**
 * The side-by-side figure of issue 13: a full conformance run next to Dredd's 7 checks of the same
 * interface, alternating runs against one local reference server, medians. Dredd is not a
 * dependency of this project: `npm run bench -- --dredd PATH` takes an installed Dredd (for example
 * `npm install --prefix /tmp/dredd dredd@14` and PATH=/tmp/dredd/node_modules/.bin/dredd). Dredd does
 * not read OpenAPI 3.1 (spec/openapi.yaml), so the 7 checks are written here as an API Blueprint,
 * into the benchmark's scratch folder: each operation's documented answers, with and without a key.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, realpathSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { cleanEnv, ROOT, runNode } from '../../test/helpers/child-process.ts'
import { conformRun, summarise, timedServer, type ConformSample } from './conform-runs.ts'
import { readUsage, usageProbeArgs } from './process-usage.ts'
import { median, round } from './stats.ts'

const CATEGORY = '{"type": "object", "required": ["id", "name"], "properties": {"id": {"type": "integer"}, "name": {"type": "string"}, "description": {"type": "string"}}}'
const ERROR = '{"type": "object", "required": ["code", "message", "status"], "properties": {"code": {"type": "string"}, "message": {"type": "string"}, "status": {"type": "integer"}}}'

/** The 7 checks: a request (with the key or without) and the status and body schema it must get. */
function blueprint(baseUrl: string, apiKey: string): string {
  const indent = (text: string, by: number) => text.split('\n').map((line) => ' '.repeat(by) + line).join('\n')
  const request = (title: string, withKey: boolean, body?: string) =>
    [
      `+ Request ${title}${body ? ' (application/json)' : ''}`,
      ...(withKey ? ['    + Headers', '', indent(`Authorization: Bearer ${apiKey}`, 12), ''] : []),
      ...(body ? ['    + Body', '', indent(body, 12), ''] : []),
      '',
    ].join('\n')
  const response = (status: number, schema: string) => `+ Response ${status} (application/json)\n    + Schema\n\n${indent(schema, 12)}\n\n`
  return [
    `FORMAT: 1A\nHOST: ${baseUrl}\n\n# Pet Store categories (7 checks)\n\n`,
    '## Categories [/categories]\n\n### List categories [GET]\n\n',
    request('with a valid key', true) + response(200, `{"type": "array", "items": ${CATEGORY}}`),
    request('without a key', false) + response(401, ERROR),
    '### Create a category [POST]\n\n',
    request('a valid category', true, '{"name": "dredd-rabbit", "description": "Rabbits"}') + response(201, CATEGORY),
    request('without a name', true, '{"description": "no name"}') + response(400, ERROR),
    request('without a key', false, '{"name": "dredd-cat"}') + response(401, ERROR),
    '## Pet [/pets/{petId}]\n\n+ Parameters\n    + petId: 1 (string)\n\n### Get a pet [GET]\n\n',
    request('without a key', false) + response(401, ERROR),
    '## Store orders [/store/orders]\n\n### List store orders [GET]\n\n',
    request('without a key', false) + response(401, ERROR),
  ].join('')
}

interface DreddSample {
  code: number | null
  passing: number
  wallMs: number
  cpuMs?: number
  peakRssMiB?: number
}

async function dreddRun(dreddScript: string, description: string, baseUrl: string, scratch: string, i: number): Promise<DreddSample> {
  const usageFile = join(scratch, `dredd-usage-${i}.json`)
  const run = await runNode([...usageProbeArgs(scratch), dreddScript, description, baseUrl, '--color=false'], { env: cleanEnv({ BENCH_USAGE_FILE: usageFile }), killAfterMs: 120_000 })
  const usage = readUsage(usageFile)
  const passing = Number(/(\d+) passing/.exec(run.stdout + run.stderr)?.[1] ?? 0)
  if (run.code !== 0 || passing !== 7) process.stderr.write(`bench: dredd exited ${run.code} with ${passing} passing\n${(run.stdout + run.stderr).slice(-2000)}\n`)
  return { code: run.code, passing, wallMs: run.exitedAt - run.spawnedAt, cpuMs: usage?.cpuMs, peakRssMiB: usage?.peakRssMiB }
}

/** Where `npm run bench` installs Dredd when no --dredd is given (git-ignored, kept between runs). */
export const DREDD_CACHE = join(ROOT, 'node_modules', '.cache', 'bench-dredd')
export const DREDD_VERSION = '14.1.0'

/**
 * Dredd's script: the one given, or the one installed in DREDD_CACHE (installing it there with npm on
 * first use). Undefined, with why on stderr, when it cannot be had (no registry): the bench then
 * measures without it.
 */
export function dreddScript(given: string | undefined, log: (line: string) => void): string | undefined {
  const bin = given ?? join(DREDD_CACHE, 'node_modules', '.bin', 'dredd')
  if (!given && !existsSync(bin)) {
    log(`installing Dredd ${DREDD_VERSION} into ${DREDD_CACHE} (once; --dredd PATH takes another)`)
    const npm = spawnSync('npm', ['install', '--prefix', DREDD_CACHE, '--no-audit', '--no-fund', '--loglevel=error', `dredd@${DREDD_VERSION}`], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' })
    if (npm.status !== 0) {
      log(`Dredd could not be installed (npm exited ${npm.status}): ${npm.stderr.trim().split('\n').pop() ?? ''}; measuring without it`)
      return undefined
    }
  }
  if (!existsSync(bin)) {
    log(`no Dredd at ${bin}; measuring without it`)
    return undefined
  }
  return realpathSync(bin) // node_modules/.bin/dredd is a link to a Node script
}

/** `reps` alternating pairs (conform with --base-url, then Dredd) against one reference server answering `delayMs` late. */
export async function sideBySide(dreddScript: string, reps: number, scratch: string, log: (line: string) => void, delayMs = 0) {
  const timed = await timedServer(delayMs)
  const description = join(scratch, `dredd-7-checks-${delayMs}.apib`)
  writeFileSync(description, blueprint(timed.server.baseUrl, timed.server.apiKey))
  const conform: ConformSample[] = []
  const dredd: DreddSample[] = []
  try {
    for (let i = 0; i < reps; i++) {
      conform.push(await conformRun(delayMs > 0 ? 'slow' : 'local', scratch, 0, timed))
      dredd.push(await dreddRun(dreddScript, description, timed.server.baseUrl, scratch, i))
      log(`side by side${delayMs > 0 ? `, ${delayMs} ms late` : ''} ${i + 1}/${reps}: conform ${Math.round(conform[i].wallMs)} ms (CPU ${Math.round(conform[i].cpuMs ?? NaN)}), dredd ${Math.round(dredd[i].wallMs)} ms (CPU ${Math.round(dredd[i].cpuMs ?? NaN)})`)
    }
  } finally {
    await timed.server.close()
  }
  const of = (pick: (s: DreddSample) => number | undefined) => dredd.map((s) => pick(s) ?? NaN)
  return {
    pairs: reps,
    delayMs,
    conform: summarise(conform),
    dredd: {
      checks: 7,
      exitCodes: dredd.map((s) => s.code),
      passing: dredd.map((s) => s.passing),
      wallMs: round(median(of((s) => s.wallMs))),
      wallMsRuns: dredd.map((s) => round(s.wallMs)),
      cpuMs: round(median(of((s) => s.cpuMs))),
      peakRssMiB: round(median(of((s) => s.peakRssMiB))),
    },
  }
}
export type SideBySide = Awaited<ReturnType<typeof sideBySide>>
