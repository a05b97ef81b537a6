/**
 * The deployments of a fleet run shared among worker threads, one per core (issue 29: ten
 * deployments within 3 × one run's wall time). A run costs ~0.2 s of the runner's own CPU, so ten
 * on one thread take ten times that, whatever the network; on two cores two workers halve it. Each
 * worker (lib/fleet/fleet-worker.ts) judges its share side by side, as the fleet's own thread
 * would, and writes each deployment's reports, which the fleet then reads back as it does its own.
 *
 * Workers load the compiled runner (dist/) and the suites' manifest by URL: from the TypeScript
 * sources (tsx), without the manifest's URL, or with one core, the fleet judges on its own thread.
 * A worker gets the keys of its own deployments only, and an environment without any key. A worker
 * that fails before a deployment of its share started leaves that deployment to the fleet's thread;
 * one that fails during it leaves reports saying the deployment could not be judged.
 */
import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { writeNotJudged } from './judge-deployment.ts'
import type { FleetWorkerInput, FleetWorkerInterrupt, FleetWorkerMessage } from './fleet-worker.ts'
import type { FleetDeploymentConfig } from './targets.ts'

/** The compiled worker beside this module; undefined when this module is the TypeScript source. */
function workerScript(): URL | undefined {
  return import.meta.url.endsWith('.js') ? new URL('./fleet-worker.js', import.meta.url) : undefined
}

/**
 * The deployments split among the threads that judge them, round robin: one thread per core (this
 * one and workers), or this thread alone when workers cannot load the run (no compiled worker, no
 * suites' URL) or there is one core. The first share is this thread's.
 */
export function threadShares(deployments: readonly FleetDeploymentConfig[], suiteUrl: string | undefined): FleetDeploymentConfig[][] {
  const threads = suiteUrl !== undefined && workerScript() !== undefined ? Math.max(1, Math.min(availableParallelism(), deployments.length)) : 1
  return Array.from({ length: threads }, (_, t) => deployments.filter((_, i) => i % threads === t))
}

/** `env` without any variable that holds a key (a deployment's, or the command's). */
function withoutKeys(env: NodeJS.ProcessEnv, keys: readonly (string | undefined)[]): NodeJS.ProcessEnv {
  const known = keys.map((k) => k?.trim()).filter((k): k is string => !!k)
  return Object.fromEntries(Object.entries(env).filter(([, value]) => value === undefined || !known.some((k) => value.includes(k))))
}

export interface WorkerPoolContext {
  suiteUrl: string
  env: NodeJS.ProcessEnv
  runEnv: NodeJS.ProcessEnv
  deadlineAt: number
  startedAt: Date
  userCwd: string
  /** Every key of the command (every deployment's, CONFORM_API_KEY, --api-key): none goes to a worker's environment. */
  keys: readonly (string | undefined)[]
  /** The secret values of --header: every worker's redaction has them. */
  headerSecrets: readonly string[]
  redact: (text: string) => string
  interrupt?: AbortSignal
}

/**
 * Judges each share in a worker thread of its own; resolves once every worker has written its
 * reports or ended, with the deployments no worker started (the caller judges them itself).
 */
export async function judgeInWorkers(shares: readonly FleetDeploymentConfig[][], ctx: WorkerPoolContext): Promise<FleetDeploymentConfig[]> {
  const script = workerScript()
  if (!script) return shares.flat()
  const env = withoutKeys(ctx.env, ctx.keys)
  const runEnv = withoutKeys(ctx.runEnv, ctx.keys)
  const leftOver: FleetDeploymentConfig[] = []
  await Promise.all(
    shares.map(
      (share) =>
        new Promise<void>((done) => {
          const input: FleetWorkerInput = {
            suiteUrl: ctx.suiteUrl,
            deployments: share,
            env,
            runEnv,
            deadlineAt: ctx.deadlineAt,
            startedAt: ctx.startedAt.getTime(),
            userCwd: ctx.userCwd,
            secrets: [...share.map((d) => d.config.apiKey as string), ...ctx.headerSecrets],
            ...(ctx.interrupt?.aborted ? { interrupted: String(ctx.interrupt.reason) } : {}),
          }
          let worker: Worker
          try {
            // the worker's own process.env has no key either
            worker = new Worker(script, { workerData: input, env })
          } catch {
            leftOver.push(...share)
            return done()
          }
          const started = new Set<number>()
          const judged = new Set<number>()
          const onInterrupt = () => worker.postMessage({ interrupt: String(ctx.interrupt?.reason) } satisfies FleetWorkerInterrupt)
          ctx.interrupt?.addEventListener('abort', onInterrupt, { once: true })
          let finished = false
          const finish = (error?: unknown) => {
            if (finished) return
            finished = true
            ctx.interrupt?.removeEventListener('abort', onInterrupt)
            share.forEach((d, i) => {
              if (judged.has(i)) return
              if (!started.has(i)) return void leftOver.push(d)
              const why = error instanceof Error ? error.message : 'its worker thread ended before its run did'
              writeNotJudged(d, `the run could not be made: ${why}`, ctx)
            })
            // its runs are over and their reports written: a socket a server left open keeps nothing alive
            void worker.terminate()
            done()
          }
          worker.on('message', (message: FleetWorkerMessage) => {
            if ('started' in message) started.add(message.started)
            else judged.add(message.judged)
            if (judged.size === share.length) finish()
          })
          worker.on('error', finish)
          worker.on('exit', () => finish())
        }),
    ),
  )
  return leftOver
}
