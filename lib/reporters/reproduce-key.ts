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
