/**
 * The matrix workflow of docs/ci.md (one job per deployment, a last job that merges) is read with a
 * YAML parser and run here, as GitHub's runner would run its shell steps: each matrix entry's
 * conform step against a reference server on loopback (its base URL and secret swapped for the
 * local ones), its reports handed over as upload-artifact and download-artifact (merge-multiple)
 * would, then the gate's merge step. One server has a broken rule: the gate exits 1 and names it.
 * `npm ci` is a no-op here and `npm run conform --` is bin/conform.mjs, the command npm runs.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { parse as parseYaml } from 'yaml'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { cleanEnv, runNode, type NodeRun } from '../helpers/child-process.ts'
import { CONFORM_BIN, ROOT } from '../helpers/run-conform.ts'
import { fleetServer, type FleetServer } from './fleet-servers.ts'
import { filesUnder, keyLeaks } from '../helpers/key-leaks.ts'

interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  env?: Record<string, string>
  with?: Record<string, string | boolean>
}
interface Job {
  needs?: string
  if?: string
  strategy?: { 'fail-fast'?: boolean; matrix: { include: Record<string, string>[] } }
  steps: Step[]
}
interface Workflow {
  jobs: { conformance: Job; gate: Job }
}

/** The YAML block of docs/ci.md that is the fleet's workflow file. */
function workflowOfDocs(): Workflow {
  const docs = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8')
  const block = [...docs.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((text) => text.startsWith('# .github/workflows/fleet-gate.yml'))
  if (!block) throw new Error('docs/ci.md has no ```yaml block starting with # .github/workflows/fleet-gate.yml')
  return parseYaml(block) as Workflow
}

/** `${{ matrix.x }}`, `${{ secrets[matrix.x] }}`, `${{ secrets.X }}`: the expressions the workflow's env uses. */
function evaluate(text: string, matrix: Record<string, string>, secrets: Record<string, string>): string {
  return text.replace(/\$\{\{\s*(.+?)\s*\}\}/g, (_, expression: string) => {
    const secretOfMatrix = /^secrets\[matrix\.([\w-]+)\]$/.exec(expression)
    if (secretOfMatrix) return secrets[matrix[secretOfMatrix[1] as string] as string] ?? ''
    const fromMatrix = /^matrix\.([\w-]+)$/.exec(expression)
    if (fromMatrix) return matrix[fromMatrix[1] as string] ?? ''
    const secret = /^secrets\.(\w+)$/.exec(expression)
    if (secret) return secrets[secret[1] as string] ?? ''
    throw new Error(`an expression this test cannot evaluate: ${expression}`)
  })
}

/** A `run:` step in bash, as the runner runs it (bash -e), with npm as this checkout has it; asynchronous, for the servers live in this process. */
function runStep(script: string, cwd: string, env: Record<string, string>): Promise<NodeRun> {
  const npm = `npm() { if [ "$1" = ci ]; then return 0; elif [ "$1 $2 $3" = "run conform --" ]; then shift 3; node "$CONFORM_BIN" "$@"; else echo "npm $* is not emulated" >&2; return 99; fi; }`
  return runNode(['-e', '-c', `${npm}\n${script}`], { command: 'bash', cwd, env: cleanEnv({ ...env, CONFORM_BIN }), killAfterMs: 90_000 })
}

const broken = MUTATIONS.find((m) => m.name === 'error-status-always-400')!
const scratch = mkdtempSync(join(tmpdir(), 'conform-ci-workflow-'))
const servers: FleetServer[] = []
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true })
  await Promise.all(servers.map((s) => s.server.close()))
})

describe('the matrix workflow of docs/ci.md', { timeout: 120_000 }, () => {
  const workflow = workflowOfDocs()
  const { conformance, gate } = workflow.jobs

  test('one job per deployment, none cancelled by another; a gate job after them all, whatever their exit codes', () => {
    expect(conformance.strategy?.['fail-fast']).toBe(false)
    expect(conformance.strategy?.matrix.include.length).toBeGreaterThanOrEqual(2)
    for (const entry of conformance.strategy?.matrix.include ?? []) expect(Object.keys(entry).sort()).toEqual(['base-url', 'key', 'label'])
    expect(gate.needs).toBe('conformance')
    expect(gate.if).toBe('${{ !cancelled() }}')
    const upload = conformance.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(upload?.if).toBe('${{ !cancelled() }}')
    // "Re-run failed jobs" is the same workflow run: upload-artifact v4 refuses a name the first
    // attempt used (409) unless told to replace it, and the gate then merges the first attempt's reports
    for (const step of [...conformance.steps, ...gate.steps]) if (step.uses?.startsWith('actions/upload-artifact@')) expect(step.with?.overwrite, step.name).toBe(true)
    const download = gate.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))
    expect(download?.with).toMatchObject({ pattern: 'conformance-*', 'merge-multiple': true })
    // matrix values and secrets reach the shell as variables only: no expression inside a script
    for (const step of [...conformance.steps, ...gate.steps]) if (step.run) expect(step.run).not.toContain('${{')
    // the merge step expects as many deployments as the matrix lists
    const merge = gate.steps.find((s) => s.run?.includes(' merge '))
    expect(merge?.run).toContain(`--expect ${conformance.strategy?.matrix.include.length}`)
  })

  describe('run on loopback, one deployment with a broken rule', () => {
    let merged: NodeRun
    let gateWorkspace: string
    const keys: string[] = []

    beforeAll(async () => {
      const matrix = conformance.strategy?.matrix.include ?? []
      const started = await Promise.all(matrix.map((_, i) => fleetServer(i === matrix.length - 1 ? broken : undefined)))
      servers.push(...started)
      const secrets = Object.fromEntries(matrix.map((entry, i) => [entry.key as string, (started[i] as FleetServer).key]))
      keys.push(...Object.values(secrets))
      const artifacts = join(scratch, 'artifacts')
      // each matrix job, in a workspace of its own, in parallel as the runners would
      await Promise.all(
        matrix.map(async (entry, i) => {
          const local = { ...entry, 'base-url': (started[i] as FleetServer).server.baseUrl }
          const workspace = join(scratch, `job-${i}`)
          mkdirSync(workspace, { recursive: true })
          for (const step of conformance.steps) {
            if (step.if !== undefined && step.if !== '${{ !cancelled() }}') continue
            if (step.run) {
              const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, evaluate(value, local, secrets)]))
              const { code, stderr } = await runStep(step.run, workspace, env)
              // exit 1 is a verdict, not a broken step: the upload after it runs (if: !cancelled())
              expect([0, 1], stderr).toContain(code)
            } else if (step.uses?.startsWith('actions/upload-artifact@')) {
              const name = evaluate(String(step.with?.name), local, secrets)
              cpSync(join(workspace, String(step.with?.path)), join(artifacts, name), { recursive: true })
            }
          }
        }),
      )
      gateWorkspace = join(scratch, 'gate')
      mkdirSync(gateWorkspace, { recursive: true })
      for (const step of gate.steps) {
        if (step.uses?.startsWith('actions/download-artifact@')) {
          // merge-multiple: every artifact matching the pattern, unpacked into one folder
          const pattern = new RegExp(`^${String(step.with?.pattern).replace(/\*/g, '.*')}$`)
          for (const name of readdirSync(artifacts).filter((n) => pattern.test(n))) {
            cpSync(join(artifacts, name), join(gateWorkspace, String(step.with?.path)), { recursive: true })
          }
        } else if (step.run?.includes(' merge ')) {
          merged = await runStep(step.run, gateWorkspace, {})
        }
      }
    }, 120_000)

    test('the gate exits 1; fleet.json names the deployment with the broken rule, the others pass', () => {
      expect(merged.code, merged.stderr + merged.stdout).toBe(1)
      const fleet = JSON.parse(readFileSync(join(gateWorkspace, 'fleet', 'fleet.json'), 'utf8')) as FleetResult
      expect(fleet.deployments).toHaveLength(3)
      expect(fleet.deployments.map((d) => [d.label, d.exitCode, d.failedRules]).sort()).toEqual([
        ['eu-production', 0, []],
        ['staging', 1, [broken.breaks]],
        ['us-production', 0, []],
      ])
      expect(fleet.deployments.find((d) => d.label === 'staging')?.report).toBe('staging/report.html')
      expect(merged.stdout).toMatch(/^Fleet: FAIL \(exit 1\): 2 of 3 passed; 1 failed \(staging\)$/m)
    })

    test('no key in anything the gate holds or printed', () => {
      expect(keyLeaks({ stdout: merged.stdout, stderr: merged.stderr, ...filesUnder(gateWorkspace) }, keys)).toEqual([])
    })
  })
})
