/**
 * The curl commands of the reports send the key as $CONFORM_API_KEY (lib/http/curl.ts). A run whose
 * key came from another variable (a fleet's targets entry: its apiKeyEnv) says which: in a shell
 * where CONFORM_API_KEY holds another deployment's key, the command would send that key to this one.
 */
import type { RunResult } from '../result/run-result.ts'
import { createRedactor, NEAR_MISS_MIN_KEY_LENGTH, redactorSteps } from '../http/redact.ts'

/** The variable the run's key came from, when it is neither CONFORM_API_KEY nor a flag; else undefined. */
export function otherKeyVariable(result: Pick<RunResult, 'options'>): string | undefined {
  const from = result.options.keyFrom
  return from !== undefined && from !== 'CONFORM_API_KEY' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(from) ? from : undefined
}

/**
 * What merge and compare redact with: CONFORM_API_KEY's key, and the keys of the variables runs
 * name (otherKeyVariable: a fleet's apiKeyEnv) as `env` holds them, as a results.json an older
 * version wrote may hold a deployment's key a server echoed. `runs` are files another job wrote: a
 * name there is data. A crafted one named CI (`true`), whose every word the reports hid; or any
 * secret of the job (GitLab gives every job its project's), whose runs were hidden: a file quoting
 * 7 characters of one and a guess of the 8th each time was told which guess was right, in a page
 * its author reads. So a variable is taken only named like a key (KEY, TOKEN or SECRET in an
 * upper-case name), holding NEAR_MISS_MIN_KEY_LENGTH characters or more, and only its whole forms
 * are hidden (redactorSteps' forms: every encoding of all of it), no run: a guess is told only whole.
 */
export function redactorOfRuns(runs: readonly unknown[], env: NodeJS.ProcessEnv): (text: string) => string {
  const names = runs.map((run) => (run as { options?: { keyFrom?: unknown } } | null)?.options?.keyFrom).filter((from): from is string => typeof from === 'string')
  const keys = names.flatMap((keyFrom) => {
    const variable = otherKeyVariable({ options: { keyFrom } as RunResult['options'] })
    const value = variable !== undefined && /^[A-Z][A-Z0-9_]*$/.test(variable) && /KEY|TOKEN|SECRET/.test(variable) ? env[variable] : undefined
    return value !== undefined && value.trim().length >= NEAR_MISS_MIN_KEY_LENGTH ? [value] : []
  })
  const own = createRedactor(env.CONFORM_API_KEY)
  if (keys.length === 0) return own
  const { forms } = redactorSteps(...keys)
  return (text) => own(forms(text))
}

/** How to set the key before running a reproduce command, in plain words (each format escapes it). */
export function reproduceKeyWords(result: Pick<RunResult, 'options'>): string {
  const variable = otherKeyVariable(result)
  return variable === undefined ? 'with CONFORM_API_KEY set' : `with CONFORM_API_KEY set to this deployment's key: CONFORM_API_KEY="$${variable}" (its key came from ${variable}, not CONFORM_API_KEY)`
}

/** The same in Markdown: the variable's name is an identifier (otherKeyVariable), safe in a code span. */
export function reproduceKeyMarkdown(result: Pick<RunResult, 'options'>): string {
  const variable = otherKeyVariable(result)
  return variable === undefined ? 'with `CONFORM_API_KEY` set' : `with \`CONFORM_API_KEY\` set to this deployment's key: \`CONFORM_API_KEY="$${variable}"\` (its key came from \`${variable}\`, not \`CONFORM_API_KEY\`)`
}
