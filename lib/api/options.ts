/**
 * The options of the programmatic API and of `defineConformance()`: the command line's
 * (lib/config/conform-options.ts), named in camelCase, read by the same resolver and checked by
 * the same code (lib/config/config.ts loadConfig), so that defaults, environment variables, .env
 * files and every complaint about a bad value are the command line's, word for word. An options
 * object is turned into the arguments the command line would have been given.
 */
import { createRedactor } from '../http/redact.ts'
import { ConfigError, loadConfig, type Config } from '../config/config.ts'
import { tlsWithoutHttps } from '../config/client-tls.ts'
import { CONFORM_OPTIONS } from '../config/conform-options.ts'
import { OptionError, quotedUnlessKey } from '../config/options.ts'
import { ConformanceConfigError } from './errors.ts'
import type { KnownRuleId, OptionDocs } from './option-docs.ts'
import { closestName } from '../config/closest-name.ts'

type OptionRow = (typeof CONFORM_OPTIONS)[number]
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S
type ValueOf<Kind> = Kind extends 'boolean' ? boolean : Kind extends 'integer' ? number : Kind extends 'list' ? string | readonly string[] : string

/**
 * Flags that print instead of running (help, version, the catalogue, a dry run's requests), the base URL, which may come
 * later (a function or a promise), and --targets: a fleet is the command line's (lib/fleet/), and
 * passed through, the run ignored it and checked the embedded reference server, a pass whatever
 * the deployments do.
 */
const NOT_OPTIONS = ['help', 'version', 'list-rules', 'dry-run', 'base-url', 'targets'] as const
/** What a caller who asked for a fleet is told instead. */
const FLEET_REFUSED = 'targets is the command line\'s (a fleet of deployments, one verdict: npx petstore-conform --targets FILE); here, call runConformance() once per deployment, each with its baseUrl and apiKey'
type CommandLineOnly = (typeof NOT_OPTIONS)[number]

/**
 * The address of the service: a URL, or a function or promise giving it once the service has
 * started (on port 0, say). A function or promise may give undefined (`() => process.env.SERVICE_URL`
 * types as string | undefined): the run then stops with a ConformanceConfigError when it starts.
 */
export type BaseUrl = string | URL | Promise<string | URL | undefined> | (() => string | URL | undefined | Promise<string | URL | undefined>)

/** Each flag of the command line in camelCase, typed by its kind in the table of options. */
type OptionTypes = {
  // `| undefined`: an option given as undefined is one not given (`apiKey: process.env.CONFORM_API_KEY` under exactOptionalPropertyTypes)
  [Row in OptionRow as Row['flag'] extends CommandLineOnly ? never : CamelCase<Row['flag']>]: ValueOf<Row['kind']> | undefined
}

/** A rule's id: an editor offers the catalogue's, and any string compiles (an unknown one is refused when the file is collected, naming it). */
export type RuleId = KnownRuleId | (string & {})

/** The names in option-docs.ts (written from the same table) are these, or this fails to compile: run npm run docs. */
const namesMatch: [Exclude<keyof OptionDocs, keyof OptionTypes>, Exclude<keyof OptionTypes, keyof OptionDocs>] extends [never, never] ? true : false = true
void namesMatch

/**
 * The options of a run: each flag of the command line in camelCase (`--max-writes` is
 * `maxWrites`, `--rule` is `rule`, a string or a list), with its default, its environment
 * variable and its checks (README, "Options"). Without `baseUrl` the embedded reference server
 * is checked, as the command line does. Mapped over OptionDocs so that an editor shows each
 * option's help where it is written.
 */
export type ConformanceOptions = {
  // reportDir: false writes no report file, as leaving it out does (a folder named "false" was written)
  [Key in keyof OptionDocs]?: Key extends 'rule' ? RuleId | readonly RuleId[] | undefined : Key extends 'reportDir' ? string | false | undefined : Key extends keyof OptionTypes ? OptionTypes[Key] : never
} & {
  /**
   * The service's address, ending in /v1: a string or URL, a promise of one, or a function that
   * gives one (or a promise), called when the run starts, after the beforeAll hooks declared
   * before defineConformance(): `() => service.baseUrl`. http:// is for loopback only. Left out,
   * CONFORM_BASE_URL, else the embedded reference server; written but undefined or empty, refused.
   */
  baseUrl?: BaseUrl
  /** The environment the CONFORM_* variables are read from; default process.env. */
  environment?: Readonly<Record<string, string | undefined>> | undefined
  /** Where .env files are read and relative paths (reportDir, baseline) start; default process.cwd(), and in defineConformance() the vitest project's root (a monorepo's package under projects or --root). */
  cwd?: string | undefined
  /** Aborting it stops the run as a deadline would: checks not finished are not verified. */
  signal?: AbortSignal | undefined
}

/** Keys of ConformanceOptions that are no flag of the command line. */
const OWN_KEYS = new Set(['baseUrl', 'environment', 'cwd', 'signal'])

const camelCase = (flag: string) => flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase())
const BY_KEY = new Map<string, OptionRow>(CONFORM_OPTIONS.filter((o) => !(NOT_OPTIONS as readonly string[]).includes(o.flag)).map((o) => [camelCase(o.flag), o]))

/** Every flag of the command line by name, those the options object has not too. */
const ROW_BY_FLAG = new Map<string, OptionRow>(CONFORM_OPTIONS.map((o) => [o.flag, o]))

/**
 * A message of the command line in the words of the options object, where the caller reads it:
 * `--max-writes takes a whole number …; e.g. --max-writes 0` says `maxWrites … e.g. maxWrites: 0`,
 * `or --allow-insecure-http` says `or allowInsecureHttp: true`. Flags the options object has not
 * (--list-rules) are the command line's, and named so.
 */
export function inOptionWords(message: string): string {
  return message.replace(/--([a-z][a-z-]*[a-z])(?:[ =](\d+)(?![\d.:]))?/g, (whole, flag: string, number: string | undefined) => {
    const row = ROW_BY_FLAG.get(flag)
    if (!row) return whole
    if ((NOT_OPTIONS as readonly string[]).includes(flag) && flag !== 'base-url') return `the command line's ${whole}`
    const key = camelCase(flag)
    if (number !== undefined) return `${key}: ${number}`
    return row.kind === 'boolean' ? `${key}: true` : key
  })
}

/** The option an unknown key was written for, in another case, as the flag or mistyped (`apikey`, `read-only`, `maxWrite`): a JS test file has no type to catch it. */
function meant(key: string): string {
  const known = closestName(key, [...BY_KEY.keys(), ...OWN_KEYS])
  return known === undefined ? '' : ` (did you mean "${known}"?)`
}

/** A value of the wrong type in words, never its content (a key given as a number or in a list): `a number`, `a list`, `an object`, true, null. */
function valueWords(value: unknown): string {
  if (typeof value === 'boolean' || value === null) return String(value)
  return Array.isArray(value) ? 'a list' : typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** The options as the command line's arguments, and the environment with the variables of options set to false masked. */
function asCommandLine(options: ConformanceOptions, baseUrl: string | undefined, environment: Readonly<Record<string, string | undefined>>) {
  const argv: string[] = baseUrl === undefined ? [] : [`--base-url=${baseUrl}`]
  const env: Record<string, string | undefined> = { ...environment }
  for (const [key, value] of Object.entries(options)) {
    if (OWN_KEYS.has(key) || value === undefined) continue
    const row = BY_KEY.get(key)
    if (key === 'targets') throw new ConformanceConfigError(FLEET_REFUSED)
    if (key === 'reportDir' && value === false) continue // no report files (runConformanceWith writes them only for a path)
    if (!row) throw new ConformanceConfigError(`unknown option "${key}"${meant(key)}; the options are baseUrl, the command line's flags in camelCase (${[...BY_KEY.keys()].join(', ')}) and the library's own (${[...OWN_KEYS].filter((k) => k !== 'baseUrl').join(', ')})`)
    if (row.kind === 'boolean') {
      if (typeof value !== 'boolean') throw new ConformanceConfigError(`${key} takes true or false, got ${typeof value === 'string' ? quotedUnlessKey(value) : valueWords(value)}`)
      if (value) argv.push(`--${row.flag}`)
      // false says no, whatever the environment or a .env file says ('' reads as unset in both)
      else if ('env' in row) env[row.env] = ''
      continue
    }
    // a JavaScript file has no type to catch it: reportDir: true wrote a folder named true, apiKey: false sent the key "false"
    if (row.kind === 'string' && typeof value !== 'string') throw new ConformanceConfigError(`${key} takes ${key === 'reportDir' ? "a folder's path (a string), or false for no report files" : 'a string'}; got ${valueWords(value)}`)
    for (const one of row.kind === 'list' && Array.isArray(value) ? value : [value]) argv.push(`--${row.flag}=${String(one)}`)
  }
  return { argv, env }
}

/**
 * The run's configuration from the options, through the command line's loadConfig; a value it
 * refuses throws ConformanceConfigError with the command line's message (redacted: it never holds the key).
 */
export function configFromOptions(options: ConformanceOptions, baseUrl: string | undefined, environment: Readonly<Record<string, string | undefined>>, cwd: string): Config {
  const redact = createRedactor(typeof options.apiKey === 'string' ? options.apiKey : undefined, environment.CONFORM_API_KEY)
  try {
    const { argv, env } = asCommandLine(options, baseUrl, environment)
    return loadConfig(argv, env, cwd)
  } catch (error) {
    if (error instanceof ConfigError || error instanceof OptionError) throw new ConformanceConfigError(inOptionWords(redact(error.message)))
    if (error instanceof ConformanceConfigError) throw new ConformanceConfigError(redact(error.message))
    throw error
  }
}

/**
 * Why an address from vitest's inject() is undefined: a globalSetup that starts the service and
 * provides its address (project.provide) under another name, or none registered. The function
 * form offered first would then read undefined again, and be told to mind the order of hooks.
 */
export const FROM_INJECT = "inject('name') gives undefined when no globalSetup provided that name (project.provide('name', url)): check the name and the config's globalSetup"

/**
 * A `baseUrl` written but holding nothing (`process.env.SERVICE_URL` read when the test file is
 * collected, before the beforeAll hook that starts the service has set it) is refused: read as
 * absent, it would check the embedded reference server and pass whatever the service does. Only
 * an options object without `baseUrl` at all checks the embedded server (or CONFORM_BASE_URL).
 */
export function refuseEmptyBaseUrl(options: ConformanceOptions): void {
  if (!('baseUrl' in options) || (options.baseUrl !== undefined && options.baseUrl !== null && String(options.baseUrl) !== '')) return
  throw new ConformanceConfigError(`baseUrl is ${options.baseUrl === '' ? 'empty' : String(options.baseUrl)}: pass a function, baseUrl: () => process.env.SERVICE_URL, to read the address when the run starts (after the beforeAll hooks declared before defineConformance()), or a promise of it; ${options.baseUrl === '' ? '' : `${FROM_INJECT}; `}leave baseUrl out to check the embedded reference server`)
}

/** An apiKey is for a service: with no address at all (no baseUrl, no CONFORM_BASE_URL) the run would check the embedded reference server and never use it. */
function refuseKeyWithoutAddress(options: ConformanceOptions, config: Config, environment: Readonly<Record<string, string | undefined>>): void {
  // CONFORM_BASE_URL set but empty: a CI variable that is not set, meant for a service all the same
  if (!('baseUrl' in options) && config.baseUrl === undefined && environment.CONFORM_BASE_URL === '') {
    throw new ConformanceConfigError('CONFORM_BASE_URL is set but empty (a CI variable or secret that is not set?) and no baseUrl is given: the run would check the embedded reference server, not your service; give baseUrl, or unset CONFORM_BASE_URL to check the embedded server')
  }
  if (!('baseUrl' in options) && config.baseUrl === undefined && options.apiKey !== undefined) {
    throw new ConformanceConfigError('apiKey given without baseUrl: the run would check the embedded reference server, not your service; give baseUrl (a function, baseUrl: () => process.env.SERVICE_URL, reads it when the run starts) or CONFORM_BASE_URL')
  }
}

/** The configuration of a run from its options, once the address is known: an address written but empty, or a key without any, refused. */
export function configForRun(options: ConformanceOptions, baseUrl: string | undefined, environment: Readonly<Record<string, string | undefined>>, cwd: string): Config {
  refuseEmptyBaseUrl(options)
  const config = configFromOptions(options, baseUrl, environment, cwd)
  refuseKeyWithoutAddress(options, config, environment)
  // no address: the embedded reference server, which speaks plain http
  const plain = tlsWithoutHttps(config, true)
  if (plain) throw new ConformanceConfigError(inOptionWords(plain))
  // a refused key is named as the caller gave it (the command line's --api-key is not theirs)
  if (options.apiKey !== undefined && config.keySource === '--api-key') config.keySource = 'the apiKey option'
  return config
}

/**
 * The configuration as far as it can be known before the address is: every option checked, the
 * base URL aside (when `baseUrl` is given, it wins over CONFORM_BASE_URL, which is then not read).
 * defineConformance() calls it when the test file is collected, so that a bad option fails the
 * file before any test.
 */
export function configBeforeAddress(options: ConformanceOptions, environment: Readonly<Record<string, string | undefined>>, cwd: string): Config {
  refuseEmptyBaseUrl(options)
  const config = configFromOptions(options, undefined, options.baseUrl === undefined ? environment : { ...environment, CONFORM_BASE_URL: '' }, cwd)
  refuseKeyWithoutAddress(options, config, environment)
  return config
}
