/**
 * Where vitest is in a test file's life when defineConformance() is called: collecting the file
 * (a describe or a test may be declared) or running it (in a hook, what is declared is never run),
 * and which describe it is collecting. vitest says neither in a public API: vitest 4 and 5 tell it
 * through TestRunner's statics; vitest 3, which has no TestRunner, through `vitest/suite` (which
 * vitest 5 lacks) and its worker state, the task it collects or runs. define-conformance.ts hands
 * in what the installed vitest has (this file imports nothing of vitest); a vitest that tells
 * neither gets false and undefined, and defineConformance() declares as asked.
 */

/** What vitest 4 and 5 tell of the suite being collected (TestRunner's statics). */
interface Collector {
  suite?: object
  file?: { collectDuration?: number }
}

/** The `vitest` module's namespace, as far as it is read here. */
export interface VitestModule {
  TestRunner?: { getCurrentSuite?: () => Collector; getCurrentTest?: () => unknown }
}

/** vitest 3's `vitest/suite`: its collector of the describe (or the file's top level) being collected. */
export interface Vitest3Suite {
  getCurrentSuite?: () => object
}

/** vitest 3's worker state's task: the file while it is collected (no collectDuration yet), then the suite or test it runs. */
export interface Vitest3Task {
  type?: string
  filepath?: string
  collectDuration?: number
  file?: { collectDuration?: number }
}

/** vitest 3's worker state's current task (its `__vitest_worker__` global), undefined outside vitest 3 and 4. */
export const vitest3Task = (): Vitest3Task | undefined => (globalThis as { __vitest_worker__?: { current?: Vitest3Task } }).__vitest_worker__?.current

/**
 * Whether vitest is done collecting the current file's tests (it is running them: a hook, a test).
 * vitest 4, 5: no test is current and the current suite's file has its collection time. vitest 3:
 * the task its worker runs is a suite (a hook's) of a file that has its collection time; inside a
 * test, false, and vitest's own refusal is given (with its words).
 */
export function collectionOver(vitest: VitestModule, task: () => Vitest3Task | undefined = vitest3Task): boolean {
  const runner = vitest.TestRunner
  try {
    if (runner === undefined) {
      const current = task()
      if (current === undefined || current.type === 'test') return false
      return (current.filepath !== undefined ? current : current.file)?.collectDuration !== undefined
    }
    if (typeof runner.getCurrentSuite !== 'function' || typeof runner.getCurrentTest !== 'function' || runner.getCurrentTest() !== undefined) return false
    return runner.getCurrentSuite().file?.collectDuration !== undefined
  } catch {
    return false
  }
}

/**
 * The describe defineConformance() is called in: its suite, or, at a file's top level, the file
 * (vitest's default suite is one for every file of a worker). vitest 3: a describe's collector
 * (one of its own properties is its suite; the default suite's was deleted), else the file its
 * worker collects.
 */
export function currentSuite(vitest: VitestModule, suite3: () => Vitest3Suite | undefined, task: () => Vitest3Task | undefined = vitest3Task): object | undefined {
  try {
    if (vitest.TestRunner === undefined) {
      const collector = suite3()?.getCurrentSuite?.()
      if (collector !== undefined && Object.hasOwn(collector, 'suite')) return collector
      const current = task()
      return current?.filepath !== undefined ? current : undefined
    }
    const collector = vitest.TestRunner.getCurrentSuite?.()
    return collector?.suite ?? collector?.file
  } catch {
    return undefined
  }
}

/**
 * The root of the vitest project running the test file (vitest 3, 4 and 5 keep it in the worker
 * state's config): where vitest was started, unless the project has a root of its own (`--root`,
 * a `projects` entry such as `packages/*`, a `vitest.workspace` one); undefined outside vitest.
 */
export function projectRoot(state: () => unknown = () => (globalThis as { __vitest_worker__?: unknown }).__vitest_worker__): string | undefined {
  try {
    const root = (state() as { config?: { root?: unknown } } | undefined)?.config?.root
    return typeof root === 'string' && root !== '' ? root : undefined
  } catch {
    return undefined
  }
}
