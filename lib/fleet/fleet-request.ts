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
  /** Every --targets given, when more than one was: a fleet reads one file, and the last alone read would leave the others' deployments out of a verdict that looks whole. */
  targetsFiles?: string[]
  /** The arguments without --base-url and --targets: the options every deployment shares. */
  shared: string[]
}

/**
 * The fleet the arguments ask for, or undefined for a run of one deployment (one --base-url or
 * none), for --help, --version and --list-rules, and for arguments that do not parse (the single
 * run's reading of them says what is wrong).
 */
export function fleetRequest(argv: readonly string[]): FleetRequest | undefined {
  const table = CONFORM_OPTIONS.map((o) => (o.flag === 'base-url' || o.flag === 'targets' ? { ...o, kind: 'list' as const } : o))
  let flags: ReturnType<typeof parseFlags>
  try {
    flags = parseFlags(table, argv)
  } catch {
    return undefined
  }
  if (flags.help || flags.version || flags['list-rules']) return undefined
  const baseUrls = (flags['base-url'] as string[] | undefined) ?? []
  const targetsFiles = (flags.targets as string[] | undefined) ?? []
  const targetsFile = targetsFiles.at(-1)
  if (targetsFile === undefined && baseUrls.length < 2) return undefined
  // the arguments parsed: every --base-url and --targets token is the flag, the next one its value
  const shared: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (arg === '--base-url' || arg === '--targets') i++
    else if (!arg.startsWith('--base-url=') && !arg.startsWith('--targets=')) shared.push(arg)
  }
  return { baseUrls, ...(targetsFile !== undefined ? { targetsFile } : {}), ...(targetsFiles.length > 1 ? { targetsFiles } : {}), shared }
}

