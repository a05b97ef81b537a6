/**
 * A worker thread of a fleet run (lib/fleet/fleet-workers.ts): judges its share of the deployments
 * side by side, each exactly as the fleet's own thread would (lib/fleet/judge-deployment.ts), with
 * the compiled runner and the suites' manifest loaded by URL (functions cannot cross threads).
 * It holds the keys of its own deployments only. It says when each deployment starts and when its
 * reports are written; an interrupt from the fleet ends its runs as at their deadline.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { SuiteManifest } from '../runner/conform-run.ts'
import { createRedactor } from '../http/redact.ts'
import { judgeDeployment } from './judge-deployment.ts'
import type { FleetDeploymentConfig } from './targets.ts'

/** What the fleet hands a worker (structured-cloned). */
export interface FleetWorkerInput {
  /** The module whose `manifest` is the suites' manifest (suites/manifest.ts, compiled). */
  suiteUrl: string
  deployments: FleetDeploymentConfig[]
  env: NodeJS.ProcessEnv
  runEnv: NodeJS.ProcessEnv
  deadlineAt: number
  startedAt: number
  userCwd: string
  /** What this worker's reports must never show: its deployments' keys and the secret headers. */
  secrets: string[]
  /** The signal's name when the fleet was interrupted before the worker started. */
  interrupted?: string
}

/** Worker → fleet: a deployment (its index in the share) has started, or has its reports written. */
export type FleetWorkerMessage = { started: number } | { judged: number }
/** Fleet → worker: the user interrupted the run. */
export interface FleetWorkerInterrupt {
  interrupt: string
}

const input = workerData as FleetWorkerInput
const port = parentPort!
const interrupt = new AbortController()
port.on('message', (message: FleetWorkerInterrupt) => {
  if (!interrupt.signal.aborted) interrupt.abort(message.interrupt)
})
if (input.interrupted !== undefined) interrupt.abort(input.interrupted)
const tell = (message: FleetWorkerMessage) => port.postMessage(message)

const [runner, suite] = await Promise.all([
  import('../runner/conform-run.ts'),
  import(input.suiteUrl).then((m: { manifest: SuiteManifest }) => m.manifest),
])
const ctx = {
  runner,
  suite,
  env: input.env,
  runEnv: input.runEnv,
  deadlineAt: input.deadlineAt,
  startedAt: new Date(input.startedAt),
  userCwd: input.userCwd,
  redact: createRedactor(...input.secrets),
  interrupt: interrupt.signal,
}
await Promise.all(
  input.deployments.map(async (d, i) => {
    tell({ started: i })
    await judgeDeployment(d, ctx)
    tell({ judged: i })
  }),
)
