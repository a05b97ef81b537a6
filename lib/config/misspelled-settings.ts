/**
 * A switch of writes misspelled is no switch: `CONFORM_READONLY=true` (or `conform_read_only`) in
 * the environment or a .env file was never read, and an acceptance run meant to be read-only sent
 * the 90 POSTs of a full run to the deployment. A variable whose name is near CONFORM_READ_ONLY or
 * CONFORM_MAX_WRITES (as --readonly is near --read-only), while that setting is set nowhere, stops
 * the run before any request, naming both. So does one near CONFORM_API_KEY (`CONFORM_APIKEY` in
 * .env) when a base URL is given and no key anywhere: the run said "no API key: set
 * CONFORM_API_KEY", to a newcomer who had. Other settings misspelled only lose what they set.
 */
import { closestName } from './closest-name.ts'
import { PASSPHRASE_VARIABLE } from './client-tls.ts'
import { CONFORM_OPTIONS } from './conform-options.ts'

const WRITE_SETTINGS = ['CONFORM_READ_ONLY', 'CONFORM_MAX_WRITES']
/** Every variable the command line reads. */
const KNOWN: readonly string[] = [...CONFORM_OPTIONS.flatMap((o) => ('env' in o && o.env ? [o.env] : [])), PASSPHRASE_VARIABLE]

type Sources = readonly (readonly [where: string, values: NodeJS.ProcessEnv])[]

/** Why the run must not start, or undefined. `sources`: where each set of variables was read (`in the environment`, `in .env.production`), first found first. */
export function misspelledWriteSetting(sources: Sources): string | undefined {
  return misspelled(sources, WRITE_SETTINGS, 'the run would write as if it were not there')
}

/** Why a run given a base URL and no key must not start with "no API key", or undefined: a variable near CONFORM_API_KEY is set. */
export function misspelledKeySetting(sources: Sources): string | undefined {
  return misspelled(sources, ['CONFORM_API_KEY'], 'the run has no key')
}

function misspelled(sources: Sources, settings: readonly string[], otherwise: string): string | undefined {
  const isSet = (name: string) => sources.some(([, values]) => values[name] !== undefined)
  for (const [where, values] of sources) {
    for (const name of Object.keys(values)) {
      if (!/^conform/i.test(name) || KNOWN.includes(name)) continue
      const meant = closestName(name, settings)
      if (meant !== undefined && !isSet(meant)) {
        return `${name} ${where} is no setting: did you mean ${meant}? As it is written it is not read, and ${otherwise}; nothing was sent`
      }
    }
  }
  return undefined
}
