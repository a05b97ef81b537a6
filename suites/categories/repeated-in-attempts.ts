/**
 * A name sent again (valid-create.ts `repeats`) in a confirmation attempt of its checks: the name the
 * run's first create of it stored, which the store holds still. Apart from repeated-names.ts, which
 * reads the probes: probes.ts calls these as it builds them.
 */
import type { NewCategory } from '../../lib/checks/category.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import type { Run } from '../../lib/suite-kit/run-context.ts'
import type { ValidCreate } from '../cases/valid-create.ts'

/** Where the name the run's first create of a repeated name stored is kept for confirmation attempts (RunContext.firstAnswers). */
const storedName = (key: string) => `name stored by ${key}`

/**
 * A name sent again (valid-create.ts `repeats`): in a confirmation attempt, the name the run's first
 * create of it stored, which the store holds still. The attempt makes no first create of its own (a
 * write no failure was found on, not sent), so a repeat of a name of its own prefix was a new name,
 * taken: a 409 to every repeat read "intermittent" (verdicts13).
 */
export function namedAsInTheRun(run: Run, c: ValidCreate, body: NewCategory): NewCategory {
  const stored = c.repeats !== undefined && run.context.confirming?.reprobesFailures ? run.context.firstAnswers?.get(storedName(c.repeats)) : undefined
  return typeof stored === 'string' ? { ...body, name: stored } : body
}

/** Before a name is sent again: the first create of it answered (its name kept, when stored with 201), or, in an attempt that repeats the run's, nothing. */
export async function firstOfRepeat(run: Run, first: { case: ValidCreate; probe(): Promise<HttpResult>; sent(): Promise<NewCategory> }): Promise<void> {
  if (run.context.confirming?.reprobesFailures && run.context.firstAnswers?.has(storedName(first.case.key))) return
  const [made] = await Promise.allSettled([first.probe()])
  if (!run.context.confirming && made.status === 'fulfilled' && made.value.exchange.response?.status === 201) run.context.firstAnswers?.set(storedName(first.case.key), (await first.sent()).name)
}
