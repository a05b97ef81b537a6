/**
 * Whether a command line asks for a fleet: --base-url given more than once, or --targets FILE.
 * Light on purpose: the command line asks it of every run, and loads the fleet (lib/fleet/) only
 * when the answer is yes.
 */
import { CONFORM_OPTIONS } from '../config/conform-options.ts'
import { parseFlags } from '../config/options.ts'

/** What the command line asked of a fleet: the base URLs given, or the targets file, and the other arguments. */
export interface FleetRequest {
  baseUrls: string[]
  targetsFile?: string
  /** Why the fleet cannot be run as written, said before any request: an option given twice that a fleet reads once. */
  problem?: string
  /** The arguments without --base-url and --targets: the options every deployment shares. */
  shared: string[]
}

/**
 * The options that --base-url's repeating invites to repeat too, each read once by a fleet, and
 * where a deployment's own goes. Read as the last alone (a flag's usual meaning), `--base-url A
 * --api-key KA --base-url B --api-key KB` sent B's key to A, and `--baseline a.json --baseline
 * b.json` excused b's known failures on A; `--targets a.yaml --targets b.yaml` judged b's
 * deployments alone, a verdict silent on a's.
 */
const ONCE: Readonly<Record<string, string>> = {
  targets: 'a fleet reads one targets file; list every deployment in it, or run each file as a fleet of its own (--report-dir apart) and join them with merge',
  'api-key': 'the deployments of repeated --base-url share one key; for a key each, list them in a --targets file, each with the variable of its key (apiKeyEnv)',
  baseline: "a fleet's --baseline is one file for every deployment; a deployment's own goes in its --targets entry (baseline:)",
  // .env.NAME may set CONFORM_API_KEY: the last profile's key went to every deployment
  env: "a fleet reads one .env profile, for every deployment; a deployment's own key goes in a --targets file, with the variable of its key (apiKeyEnv)",
  'ca-cert': "a fleet's --ca-cert is every deployment's; a deployment's own goes in its --targets entry (caCert:)",
  'client-cert': "a fleet's --client-cert is presented to every deployment; a deployment's own goes in its --targets entry (clientCert:)",
  'client-key': "a fleet's --client-key is every deployment's; a deployment's own goes in its --targets entry (clientKey:)",
}

/**
 * The fleet the arguments ask for, or undefined for a run of one deployment (one --base-url or
 * none), for --help, --version and --list-rules, and for arguments that do not parse (the single
 * run's reading of them says what is wrong).
 */
export function fleetRequest(argv: readonly string[]): FleetRequest | undefined {
  const table = CONFORM_OPTIONS.map((o) => (o.flag === 'base-url' || Object.hasOwn(ONCE, o.flag) ? { ...o, kind: 'list' as const } : o))
  let flags: ReturnType<typeof parseFlags>
  try {
    flags = parseFlags(table, argv)
  } catch {
    return undefined
  }
  if (flags.help || flags.version || flags['list-rules']) return undefined
  const baseUrls = (flags['base-url'] as string[] | undefined) ?? []
  const targetsFile = (flags.targets as string[] | undefined)?.at(-1)
  if (targetsFile === undefined && baseUrls.length < 2) return undefined
  // the arguments parsed: every --base-url and --targets token is the flag, the next one its value
  const shared: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--base-url' || arg === '--targets') i++
    else if (!arg.startsWith('--base-url=') && !arg.startsWith('--targets=')) shared.push(arg)
  }
  // a key is never shown, a file's name is; --api-key beside --targets has its own line (lib/fleet/targets.ts)
  // the same value again (a package.json script's flag, and the user's) says nothing other
  const twice = Object.keys(ONCE).find((flag) => new Set((flags[flag] as string[] | undefined) ?? []).size > 1 && !(flag === 'api-key' && targetsFile !== undefined))
  const given = twice === undefined ? [] : (flags[twice] as string[])
  const problem = twice === undefined ? undefined : `--${twice} is given ${given.length} times${twice === 'api-key' ? '' : ` (${given.join(', ')})`}: ${ONCE[twice]} (docs/ci.md)`
  return { baseUrls, ...(targetsFile !== undefined ? { targetsFile } : {}), ...(problem !== undefined ? { problem } : {}), shared }
}
