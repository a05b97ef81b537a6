/**
 * The curl commands of the reports send the key as $CONFORM_API_KEY (lib/http/curl.ts). A run whose
 * key came from another variable (a fleet's targets entry: its apiKeyEnv) says which: in a shell
 * where CONFORM_API_KEY holds another deployment's key, the command would send that key to this one.
 */
import type { RunResult } from '../result/run-result.ts'

/** The variable the run's key came from, when it is neither CONFORM_API_KEY nor a flag; else undefined. */
export function otherKeyVariable(result: Pick<RunResult, 'options'>): string | undefined {
  const from = result.options.keyFrom
  return from !== undefined && from !== 'CONFORM_API_KEY' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(from) ? from : undefined
}

/**
 * The keys of the variables runs name (otherKeyVariable: a fleet's apiKeyEnv), as `env` holds them:
 * merge and compare redact with them beside CONFORM_API_KEY's, as a results.json an older version
 * wrote may hold a deployment's key a server echoed, under its own variable. `runs` as read from
 * files another job wrote: anything without a variable's name is passed over.
 */
export function keysRunsName(runs: readonly unknown[], env: NodeJS.ProcessEnv): string[] {
  const names = runs.map((run) => (run as { options?: { keyFrom?: unknown } } | null)?.options?.keyFrom).filter((from): from is string => typeof from === 'string')
  return names.flatMap((keyFrom) => {
    const variable = otherKeyVariable({ options: { keyFrom } as RunResult['options'] })
    return variable !== undefined && env[variable] ? [env[variable]] : []
  })
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
