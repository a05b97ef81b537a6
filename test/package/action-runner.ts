/**
 * Runs a composite action (action.yml) the way GitHub's runner does, for the self-tests: the
 * steps in order until one fails, each `run:` written to a script file and started as
 * `bash --noprofile --norc -eo pipefail {0}`, `${{ }}` substituted in `env:` and the outputs,
 * GitHub's environment variables, a fresh GITHUB_OUTPUT / GITHUB_STEP_SUMMARY / GITHUB_ENV file per
 * step read back afterwards, and the action's outputs evaluated at the end, also after a failure
 * (actions/runner, src/Runner.Worker/Handlers/CompositeActionHandler.cs).
 *
 * It understands only what this repository's action uses; anything else (an `if:`, a `uses:` step,
 * an expression other than a context lookup) throws, so the emulation cannot pass by ignoring it.
 */
import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'

interface ActionInput {
  description?: string
  required?: boolean
  default?: string
}

interface ActionStep {
  name?: string
  id?: string
  shell?: string
  run?: string
  env?: Record<string, string>
  'working-directory'?: string
  [other: string]: unknown
}

export interface ActionManifest {
  inputs: Record<string, ActionInput>
  outputs: Record<string, { value: string }>
  runs: { using: string; steps: ActionStep[] }
}

export interface StepRun {
  name: string
  code: number | null
  stdout: string
  stderr: string
  /** The step's own env: (inputs and contexts substituted). */
  env: Record<string, string>
  /** The script as the runner wrote it to its file. */
  script: string
}

export interface ActionRun {
  /** success, or failure when a step exited non-zero. */
  result: 'success' | 'failure'
  outputs: Record<string, string>
  steps: StepRun[]
  /** Everything the steps appended to GITHUB_STEP_SUMMARY, in order. */
  stepSummary: string
}

export interface RunActionOptions {
  /** Folder holding action.yml and the rest of the action's repository (github.action_path). */
  actionPath: string
  /** The job's workspace (GITHUB_WORKSPACE), where `run:` steps start. */
  workspace: string
  /** Folder for the runner's own files (RUNNER_TEMP). */
  runnerTemp: string
  inputs: Record<string, string>
  /** The job's environment before GitHub's variables are added (PATH, HOME …). */
  env: NodeJS.ProcessEnv
  killAfterMs?: number
}

export function readActionManifest(actionPath: string): ActionManifest {
  return parseYaml(readFileSync(join(actionPath, 'action.yml'), 'utf8')) as ActionManifest
}

/** ${{ a.b.c }} looked up in the contexts; anything that is not a plain lookup throws. */
export function substitute(template: string, contexts: Record<string, unknown>): string {
  return template.replace(/\$\{\{\s*(.*?)\s*\}\}/g, (_, expression: string) => {
    if (!/^[a-z_][\w-]*(\.[a-z_][\w-]*)+$/i.test(expression)) throw new Error(`the emulated runner cannot evaluate \${{ ${expression} }}`)
    const [head, ...path] = expression.split('.')
    let value: unknown = contexts[head]
    if (value === undefined) throw new Error(`unknown context in \${{ ${expression} }}`)
    for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key]
    return value === undefined || value === null ? '' : String(value)
  })
}

/** name=value lines and name<<DELIMITER blocks, as the runner reads GITHUB_OUTPUT and GITHUB_ENV. */
export function parseFileCommands(text: string): Record<string, string> {
  const values: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '')
    if (line === '') continue
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line)
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1)
      if (end < 0) throw new Error(`unterminated ${heredoc[1]}<<${heredoc[2]} in a file command`)
      values[heredoc[1]] = lines.slice(i + 1, end).join('\n')
      i = end
      continue
    }
    const equals = line.indexOf('=')
    if (equals <= 0) throw new Error(`invalid file command line: ${JSON.stringify(line)}`)
    values[line.slice(0, equals)] = line.slice(equals + 1)
  }
  return values
}

const SUPPORTED_STEP_KEYS = new Set(['name', 'id', 'shell', 'run', 'env', 'working-directory'])

export async function runCompositeAction(options: RunActionOptions): Promise<ActionRun> {
  const manifest = readActionManifest(options.actionPath)
  if (manifest.runs.using !== 'composite') throw new Error(`not a composite action: ${manifest.runs.using}`)
  const inputs: Record<string, string> = {}
  for (const name of Object.keys(options.inputs)) {
    if (!(name in manifest.inputs)) throw new Error(`action.yml has no input "${name}"`)
  }
  for (const [name, spec] of Object.entries(manifest.inputs)) {
    const given = options.inputs[name]
    if (given === undefined && spec.required) throw new Error(`required input "${name}" not given`)
    inputs[name] = given ?? spec.default ?? ''
  }
  const steps: Record<string, { outputs: Record<string, string> }> = {}
  const github = { action_path: options.actionPath, workspace: options.workspace }
  const jobEnv: Record<string, string> = {
    ...(options.env as Record<string, string>),
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_ACTION_PATH: options.actionPath,
    GITHUB_ACTION: '__petstore-conform',
    GITHUB_REPOSITORY: 'example/petstore',
    GITHUB_REPOSITORY_OWNER: 'example',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    GITHUB_WORKFLOW: 'staging gate',
    GITHUB_JOB: 'conformance',
    GITHUB_RUN_ID: '1',
    GITHUB_RUN_NUMBER: '1',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_EVENT_NAME: 'push',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_SHA: '0'.repeat(40),
    GITHUB_ACTOR: 'octocat',
    RUNNER_OS: 'Linux',
    RUNNER_ARCH: 'X64',
    RUNNER_TEMP: options.runnerTemp,
  }
  const run: ActionRun = { result: 'success', outputs: {}, steps: [], stepSummary: '' }
  const fileCommands = join(options.runnerTemp, '_runner_file_commands')
  mkdirSync(fileCommands, { recursive: true })

  for (const [index, step] of manifest.runs.steps.entries()) {
    const unsupported = Object.keys(step).filter((key) => !SUPPORTED_STEP_KEYS.has(key))
    if (unsupported.length > 0 || step.run === undefined) throw new Error(`the emulated runner cannot run step ${index} (${unsupported.join(', ') || 'no run:'})`)
    if (step.shell !== 'bash') throw new Error(`step ${index}: only shell: bash is emulated`)
    const contexts = { inputs, github, steps, runner: { temp: options.runnerTemp, os: 'Linux' } }
    const stepEnv: Record<string, string> = {}
    for (const [name, value] of Object.entries(step.env ?? {})) stepEnv[name] = substitute(String(value), contexts)
    const files = Object.fromEntries(
      ['GITHUB_OUTPUT', 'GITHUB_STEP_SUMMARY', 'GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'].map((name) => {
        const path = join(fileCommands, `${name.toLowerCase()}_${randomUUID()}`)
        writeFileSync(path, '')
        return [name, path]
      }),
    )
    // the runner puts `run:` text into a file as it stands: a `${{ }}` in it would be substituted
    // into the shell code first, which is why action.yml passes every input through env
    const script = substitute(step.run, contexts)
    const scriptPath = join(options.runnerTemp, `${randomUUID()}.sh`)
    writeFileSync(scriptPath, script)
    const env = { ...jobEnv, ...stepEnv, ...files }
    const cwd = step['working-directory'] ? substitute(step['working-directory'], contexts) : options.workspace
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptPath], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk) => (stdout += chunk))
    child.stderr.on('data', (chunk) => (stderr += chunk))
    const killer = setTimeout(() => child.kill('SIGKILL'), options.killAfterMs ?? 200_000)
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
    clearTimeout(killer)
    run.steps.push({ name: step.name ?? `step ${index}`, code, stdout, stderr, env: stepEnv, script })

    // file commands are processed whatever the step's result
    if (step.id) steps[step.id] = { outputs: parseFileCommands(readFileSync(files.GITHUB_OUTPUT, 'utf8')) }
    run.stepSummary += readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')
    Object.assign(jobEnv, parseFileCommands(readFileSync(files.GITHUB_ENV, 'utf8')))
    const paths = readFileSync(files.GITHUB_PATH, 'utf8').split('\n').filter(Boolean)
    if (paths.length > 0) jobEnv.PATH = [...paths.reverse(), jobEnv.PATH].join(':')
    if (code !== 0) {
      run.result = 'failure'
      break
    }
  }
  for (const [name, output] of Object.entries(manifest.outputs ?? {})) {
    run.outputs[name] = substitute(output.value, { inputs, github, steps })
  }
  return run
}
