/**
 * Where read-only and the write budget came from, when not from their flags: the first line about
 * writes names the setting that bounds them (`CONFORM_MAX_WRITES=6 in .env.production`), so that a
 * budget or a read-only run nobody typed on the command line is seen for what it is before any
 * request (a variable left exported, a profile's file); and the note on a budget read-only leaves unused.
 */
import type { OptionValue } from './options.ts'

/** Names of where each came from, for describeWritePlan (lib/suite-kit/write-plan.ts); a flag's is left out. */
export interface WritesFrom {
  readOnly?: string
  maxWrites?: string
}

/** The setting that made a run read-only, as the reports name it: `--read-only`, or `read-only (CONFORM_READ_ONLY in .env.production)`. */
export const readOnlySetting = (from?: WritesFrom): string => (from?.readOnly !== undefined ? `read-only (${from.readOnly})` : '--read-only')

/** The setting that bounds the writes: `--max-writes 6`, or `CONFORM_MAX_WRITES=6 in .env.production`. */
export const budgetSetting = (maxWrites: number | undefined, from?: WritesFrom): string => from?.maxWrites ?? `--max-writes ${maxWrites}`

export function writeSettings(
  values: Record<string, OptionValue>,
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  profile: string | undefined,
  profileFile: Record<string, string>,
): { writesNote?: string; writesFrom?: WritesFrom } {
  const where = (name: string) => (env[name] !== undefined && env[name] !== '' ? 'in the environment' : `in ${profileFile[name] !== undefined ? `.env.${profile}` : '.env'}`)
  const from = (flag: string, name: string) => (flags[flag] !== undefined ? `--${flag}` : `${name} ${where(name)}`)
  const readOnly = values['read-only'] === true
  const maxWrites = values['max-writes']
  const writesFrom: WritesFrom = {
    ...(readOnly && flags['read-only'] === undefined ? { readOnly: `CONFORM_READ_ONLY ${where('CONFORM_READ_ONLY')}` } : {}),
    ...(maxWrites !== undefined && flags['max-writes'] === undefined ? { maxWrites: `CONFORM_MAX_WRITES=${maxWrites} ${where('CONFORM_MAX_WRITES')}` } : {}),
  }
  return {
    // read-only from a .env.production file beside --max-writes 2 on the command line: no POST goes,
    // safe, but the budget asked for is silently unused; the note says which setting made it so
    ...(readOnly && maxWrites !== undefined
      ? { writesNote: `${from('max-writes', 'CONFORM_MAX_WRITES')} is not used: the run is read-only (${from('read-only', 'CONFORM_READ_ONLY')}) and sends no POST; to write, turn read-only off there` }
      : {}),
    ...(Object.keys(writesFrom).length > 0 ? { writesFrom } : {}),
  }
}
