/**
 * The run's configuration: command-line flags over the environment over .env files (read with
 * dotenv, never written into process.env). Anything wrong here is a ConfigError: one line naming
 * the problem and the fix, exit code 2.
 */
import { ENV_FILE_MAX_BYTES, readUserText, UserFileTooLarge, whyUnreadable } from './user-file.ts'
import { resolve } from 'node:path'
import { parse as parseDotenv } from 'dotenv'
import { findRule, ruleCatalogue } from '../spec/rule-catalogue.ts'
import { closestName, severalRulesHint } from './closest-name.ts'
import { isLoopbackHost, loopbackTypo, mayBeAKey, meantUrl, unixSocketProblem, withoutScheme } from './url-hints.ts'
import { CONFORM_OPTIONS, type ConformFlag } from './conform-options.ts'
import { checkApiKey, emptyFlagKeyProblem, emptyKeyProblem } from './api-key.ts'
import { parseExtraHeaders, type ExtraHeader } from './extra-headers.ts'
import { PASSPHRASE_VARIABLE, readClientTls, tlsWithoutHttps, type ClientTls } from './client-tls.ts'
import { ConfigError } from './config-error.ts'
import { writeSettings, type WritesFrom } from './write-settings.ts'
import { misspelledKeySetting, misspelledWriteSetting } from './misspelled-settings.ts'
import { BaselineError, baselineWriteProblem, readBaseline, type Baseline } from './baseline-file.ts'
import { OptionError, optionsHelp, parseFlags, quotedUnlessKey, resolveOptions, type OptionValue } from './options.ts'

export { ConfigError }

export interface Config {
  /** Undefined: start the embedded reference server. */
  baseUrl?: string
  apiKey?: string
  reportDir: string
  timeoutMs: number
  /** Deadline for the whole run. */
  deadlineMs: number
  maxResponseBytes: number
  readOnly: boolean
  /** Undefined: every POST the suite declares. */
  maxWrites?: number
  rules: string[]
  /** Seed of the generated inputs; undefined: a new one per run (reports print it). */
  seed?: number
  /** At most this many requests a second (--rate-limit); undefined: as fast as the server answers. */
  rateLimit?: number
  /** At most this many requests in flight at once (--concurrency). */
  concurrency: number
  /** --confirm: a failed check is probed again up to this many times; undefined: the default. */
  confirm?: number
  /** --repeat: rounds of the reads and the create-then-list round trip; undefined: 1. */
  repeat?: number
  /** --list-lag: how long a created record may take to appear in the list; 0: the first list after the creates is judged. */
  listLagMs: number
  allowInsecureHttp: boolean
  allowAnyBasePath: boolean
  listRules: boolean
  dryRun: boolean // --dry-run: send nothing to the base URL; show the requests the run would send (lib/cli/dry-run.ts)
  help: boolean
  /** Print the tool's version and exit. */
  version: boolean
  profile?: string
  /** --header: sent on every request. */
  headers: ExtraHeader[]
  /** --ca-cert, --client-cert, --client-key, read and checked before the run (lib/config/client-tls.ts). */
  tls?: ClientTls
  /** --baseline, read and checked before the run. */
  baseline?: { path: string; data: Baseline }
  /** --update-baseline: write the run's failures into the baseline file. */
  updateBaseline: boolean
  /** Said once on stderr before the run: how the key was mended (trimmed), never the key. */
  keyNote?: string
  /** Said once on stderr before the run: a write budget asked for that read-only makes unused, and where read-only came from. */
  writesNote?: string
  /** Where read-only or the write budget came from when not from its flag, for the first line about writes. */
  writesFrom?: WritesFrom
  /** Where the key came from (--api-key, CONFORM_API_KEY, a targets entry's apiKeyEnv): named when the server refuses it, never the key. */
  keySource?: string
  /** Where the user ran the command (npm's INIT_CWD): --report-dir, .env files and printed paths are relative to it. */
  workingDir: string
}

const defaultOf = (flag: ConformFlag) => (CONFORM_OPTIONS.find((o) => o.flag === flag) as { default?: unknown }).default

/** Defaults the scripts (bench) read too; declared in conform-options.ts. */
export const DEFAULTS = {
  reportDir: defaultOf('report-dir') as string,
  timeoutMs: defaultOf('timeout') as number,
  deadlineMs: defaultOf('deadline') as number,
  maxResponseBytes: defaultOf('max-response-bytes') as number,
  concurrency: defaultOf('concurrency') as number,
  confirm: defaultOf('confirm') as number,
  repeat: defaultOf('repeat') as number,
  listLagMs: defaultOf('list-lag') as number,
}

export const USAGE = `Usage: petstore-conform [options]      (in a clone of the repository: npm run conform -- [options])

Runs every check of the Pet Store categories interface against a deployment and exits
0 (every must-rule passed), 1 (a rule failed), 2 (no verdict: the run could not be made as
asked, or --deadline came first), 130/143 (stopped by SIGINT/SIGTERM, reports written).
The key is trimmed of surrounding whitespace (a secret file's newline); one a bearer token cannot hold is refused before any request.
Reports (--report-dir, default reports/): report.html, junit.xml, results.json, summary.md, journal.ndjson (every request sent).
README.md says more: in CI, against production (--read-only, --max-writes, --dry-run), in the service's own vitest.
Without --base-url (and with no key given) it starts the embedded reference server and checks that.
Several deployments at once: --base-url repeated, or --targets FILE; a fleet page joins their verdicts.
petstore-conform compare A B compares two runs' reports; petstore-conform merge DIR... --report-dir OUT joins report folders into a fleet page (compare --help, merge --help).

Options (environment variable in brackets; flags win over the environment, which wins over .env files):
${optionsHelp(CONFORM_OPTIONS)}`

function readEnvFile(path: string, required: boolean): Record<string, string> {
  let text: string
  try {
    text = readUserText(path, ENV_FILE_MAX_BYTES)
  } catch (error) {
    if (error instanceof UserFileTooLarge) throw new ConfigError(`cannot read ${path} (${error.message}: a .env file is a few lines)`)
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw new ConfigError(`cannot read ${path} (${whyUnreadable(error)}): create it with lines such as CONFORM_BASE_URL=https://…/v1, or drop --env`)
  }
  return parseDotenv(text)
}

/**
 * Flags npm took for itself: `npm run conform --read-only` (no `--`) hands the script nothing and
 * sets npm_config_read_only instead, and a flag's value becomes a stray argument. Then the run
 * must not start, since it would not be the run asked for (a read-only run that writes). Returns
 * the message naming them, with the command as it should have been typed; undefined when npm
 * swallowed nothing. The value of a swallowed --api-key is never shown.
 */
export function swallowedByNpm(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  if (env.npm_lifecycle_event === undefined) return undefined
  const swallowed: string[] = []
  const positionals = argv.filter((arg, i) => !arg.startsWith('-') && !(i > 0 && isValueFlag(argv[i - 1])))
  let next = 0
  const rebuilt: string[] = []
  /** Values taken from the stray arguments, by their place in `rebuilt`. */
  const guessed = new Map<number, string | undefined>()
  let hidesKey = false
  for (const option of CONFORM_OPTIONS) {
    const flag = option.flag
    const value = env[`npm_config_${flag.replace(/-/g, '_')}`]
    if (value === undefined || flag === 'help') continue
    // each use of a flag is one line; npm joins repeats of it with blank lines
    for (const one of value.split('\n\n')) {
      swallowed.push(`--${flag}`)
      if (option.kind === 'boolean') {
        rebuilt.push(`--${flag}`)
        continue
      }
      // `--flag=value` keeps its value; `--flag value` leaves value among the arguments, in an order
      // this cannot know (npm keeps no record of it), so which stray argument was the key is unknown
      const fromArguments = one === 'true'
      const given = fromArguments ? positionals[next++] : one
      if (flag === 'api-key') hidesKey ||= fromArguments
      rebuilt.push(`--${flag}`, flag === 'api-key' ? '"$CONFORM_API_KEY"' : shellWord(given ?? '…'))
      if (fromArguments && flag !== 'api-key') guessed.set(rebuilt.length - 1, given)
    }
  }
  if (swallowed.length === 0) return undefined
  // with the key among the stray arguments, none of them is shown, wherever it was put: any could be it
  if (hidesKey) for (const at of guessed.keys()) rebuilt[at] = '…'
  const consumed = new Set(positionals.slice(0, next))
  const rest = argv.filter((arg) => !consumed.has(arg))
  const shown = rest.map((arg) => (hidesKey && positionals.includes(arg) ? '…' : shellWord(arg)))
  const command = ['npm', 'run', env.npm_lifecycle_event, '--', ...rebuilt, ...shown].join(' ')
  return `npm took ${[...new Set(swallowed)].join(', ')} for itself (it goes after --), so nothing was sent; run: ${command}`
}

function isValueFlag(arg: string | undefined): boolean {
  if (!arg?.startsWith('--') || arg.includes('=')) return false
  const option = CONFORM_OPTIONS.find((o) => o.flag === arg.slice(2))
  return option !== undefined && option.kind !== 'boolean'
}

const shellWord = (word: string): string => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`)

/**
 * The --api-key value as written on the command line, even when the rest of it does not parse,
 * so that an error message about a bad argument can still be redacted.
 */
export function apiKeyInArgv(argv: readonly string[]): string | undefined {
  let key: string | undefined
  argv.forEach((arg, i) => {
    if (arg === '--api-key' && i + 1 < argv.length) key = argv[i + 1]
    else if (arg.startsWith('--api-key=')) key = arg.slice('--api-key='.length)
  })
  return key
}

/** Reads flags, environment and .env files into a Config; throws ConfigError. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  let values: Record<ConformFlag, OptionValue>
  let baseUrlSource: string
  let keySource: string
  let headerSource: string
  let writes: ReturnType<typeof writeSettings>
  let passphrase: string | undefined, keyHiddenIn: string | undefined // the .env file whose key an empty CONFORM_API_KEY hides
  try {
    const flags = parseFlags(CONFORM_OPTIONS, argv)
    const profile = flags.env as string | undefined
    if (profile !== undefined && !/^[\w.-]+$/.test(profile)) throw new ConfigError(`--env takes a name such as staging, got "${profile}"`)
    // first found wins: environment, then .env.<profile>, then .env
    const profileFile = profile ? readEnvFile(resolve(cwd, `.env.${profile}`), true) : {}
    const dotenvFile = readEnvFile(resolve(cwd, '.env'), false)
    const files = { ...dotenvFile, ...profileFile }
    const misspelled = misspelledWriteSetting([['in the environment', env], [`in .env.${profile}`, profileFile], ['in .env', dotenvFile]])
    if (misspelled) throw new ConfigError(misspelled)
    const setting = (name: string): string | undefined => {
      const value = env[name] ?? files[name]
      return value === '' ? undefined : value
    }
    values = resolveOptions(CONFORM_OPTIONS, flags, setting) as Record<ConformFlag, OptionValue>
    const keyMisspelled = values['base-url'] !== undefined && values['api-key'] === undefined ? misspelledKeySetting([['in the environment', env], [`in .env.${profile}`, profileFile], ['in .env', dotenvFile]]) : undefined
    if (keyMisspelled) throw new ConfigError(keyMisspelled)
    // which of the two gave the base URL, for messages about it
    baseUrlSource = flags['base-url'] !== undefined ? '--base-url' : 'CONFORM_BASE_URL'
    keySource = flags['api-key'] !== undefined ? '--api-key' : 'CONFORM_API_KEY'
    if (flags['api-key'] === '' && values['base-url'] !== undefined) throw new ConfigError(emptyFlagKeyProblem(env.CONFORM_API_KEY)) // before CONFORM_API_KEY, it hid the key
    headerSource = flags.header !== undefined ? '--header' : 'CONFORM_HEADERS'
    // empty is none, as for every setting: a CI secret that is not set gives the variable empty
    passphrase = setting(PASSPHRASE_VARIABLE)
    if (env.CONFORM_API_KEY === '') keyHiddenIn = profileFile.CONFORM_API_KEY ? `.env.${profile}` : dotenvFile.CONFORM_API_KEY ? '.env' : undefined
    writes = writeSettings(values, flags, env, profile, profileFile)
  } catch (error) {
    // under npm a stray argument is most often a flag's value whose flag npm took (the -- forgotten)
    if (error instanceof OptionError) throw new ConfigError(error.message.replace(/^(unexpected argument without an option before it \(every setting is a --flag)\)/, '$1; under npm they go after --: npm run conform -- --flag value)'))
    throw error
  }
  const config: Config = {
    baseUrl: values['base-url'] as string | undefined,
    apiKey: values['api-key'] as string | undefined,
    reportDir: values['report-dir'] as string,
    timeoutMs: values.timeout as number,
    deadlineMs: values.deadline as number,
    maxResponseBytes: values['max-response-bytes'] as number,
    readOnly: values['read-only'] === true,
    maxWrites: values['max-writes'] as number | undefined,
    rules: values.rule as string[],
    seed: values.seed as number | undefined,
    rateLimit: values['rate-limit'] as number | undefined,
    concurrency: values.concurrency as number,
    confirm: values.confirm as number,
    repeat: values.repeat as number,
    listLagMs: values['list-lag'] as number,
    headers: [],
    updateBaseline: values['update-baseline'] === true,
    allowInsecureHttp: values['allow-insecure-http'] === true,
    allowAnyBasePath: values['allow-any-base-path'] === true,
    listRules: values['list-rules'] === true,
    dryRun: values['dry-run'] === true,
    help: values.help === true,
    version: values.version === true,
    profile: values.env as string | undefined,
    workingDir: cwd,
    ...writes,
  }
  const headers = parseExtraHeaders(values.header as string[], headerSource)
  if ('problem' in headers) throw new ConfigError(headers.problem)
  config.headers = headers
  const file = (flag: ConformFlag) => values[flag] as string | undefined
  const tls = readClientTls({ caCert: file('ca-cert'), clientCert: file('client-cert'), clientKey: file('client-key') }, cwd, passphrase)
  if (tls) config.tls = tls
  const baselinePath = values.baseline as string | undefined
  if (config.updateBaseline && baselinePath === undefined) throw new ConfigError('--update-baseline needs --baseline FILE: the file it writes')
  if (baselinePath !== undefined) {
    const path = resolve(cwd, baselinePath)
    try {
      config.baseline = { path, data: readBaseline(path, config.updateBaseline) }
      const unwritable = config.updateBaseline ? baselineWriteProblem(path) : undefined
      if (unwritable) throw new ConfigError(unwritable)
    } catch (error) {
      if (error instanceof BaselineError) throw new ConfigError(error.message)
      throw error
    }
  }
  for (const id of config.rules) {
    const meant = findRule(id) ? id : closestName(id, ruleCatalogue().map((rule) => rule.id))
    if (meant !== id) throw new ConfigError(severalRulesHint(id, ruleCatalogue().map((rule) => rule.id)) ?? `unknown rule ${meant === undefined ? quotedUnlessKey(id) : `"${id}" (did you mean ${meant}?)`}; --list-rules prints the catalogue`)
  }
  if (config.baseUrl !== undefined) checkBaseUrl(config, baseUrlSource, env.CONFORM_API_KEY === '' ? (keyHiddenIn ?? true) : false)
  const plain = tlsWithoutHttps(config)
  if (plain) throw new ConfigError(plain)
  if (config.baseUrl !== undefined && config.apiKey !== undefined) {
    const checked = checkApiKey(config.apiKey, keySource)
    if ('problem' in checked) throw new ConfigError(checked.problem)
    config.apiKey = checked.key
    config.keySource = keySource
    if (checked.note) config.keyNote = checked.note
  }
  return config
}

/**
 * The address ending in /v1 a path not ending in it most likely meant: the origin's for "/", and
 * the part up to /v1 for a path past it (an endpoint's address, /v1/categories, copied from a
 * browser or an API console), as " (URL)"; "" when neither.
 */
function baseUrlGuess(url: URL): string {
  if (url.pathname === '/') return ` (${url.origin}/v1)`
  // /V1 too (a path is case-sensitive, and the interface's is /v1)
  const upTo = /^(.*?)\/v1(?=\/|$)/i.exec(url.pathname)
  return upTo ? ` (${url.origin}${upTo[1]}/v1)` : ''
}

/**
 * A base URL that did not parse, as a message may quote it: whatever stands before its last "@"
 * (after "//", if any) hidden, since it may be user:password, even in a text that is not a URL.
 */
export const withoutUserinfo = (raw: string): string => raw.replace(/^(.*?\/\/)?.*@/s, (_, scheme: string | undefined) => `${scheme ?? ''}***@`)

/** The base URL of `config` checked (a URL with a scheme, https unless loopback or allowed, no credentials, query or fragment, /v1 unless allowed, a key to send) and normalised; `name` is how messages call it. Throws ConfigError. */
export function checkBaseUrl(config: Config, name: string, emptyKey: boolean | string = false): void {
  const raw = config.baseUrl as string
  const example = 'https://petstore.example/v1'
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  // "localhost:8080/v1" parses, with "localhost:" as its scheme: a scheme is missing either way
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())
  const socket = unixSocketProblem(raw, name)
  if (socket !== undefined) throw new ConfigError(socket)
  if (!url || !withScheme) {
    if (mayBeAKey(raw)) throw new ConfigError(`${name} is not a URL with a scheme (its ${raw.length} characters are not shown: they could be a key, as where the CI secrets of the base URL and of the key were swapped); give one like ${example}`)
    // quoted as JSON, and format characters too: a control character in it (a CI variable pasted
    // with its line break) broke the one line of the message, or acted on the terminal or CI log
    const shown = JSON.stringify(withoutUserinfo(raw)).replace(/[\p{Cf}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    const meant = meantUrl(withoutUserinfo(raw))
    if (meant !== undefined) throw new ConfigError(`${name} ${shown} is not a valid URL: an IPv6 address goes in brackets, ${meant} (Node's server.address() gives it without them)`)
    throw new ConfigError(withScheme ? `${name} ${shown} is not a valid URL (its host or port?); give one like ${example}` : withoutScheme(`${name} ${shown}`, raw, example))
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`${name} must start with https:// (or http:// on loopback), got ${url.protocol}//`)
  }
  // never echoed: a URL with user:password in it carries a secret
  if (url.username || url.password) throw new ConfigError(`${name} must not carry credentials; the key goes in CONFORM_API_KEY`)
  if (url.search || url.hash) throw new ConfigError(`${name} must not carry a query or fragment; give the address ending in /v1`)
  // the URL parser drops line breaks and escapes spaces: "…/v1\n…/v1" (an action input of two lines) was one base URL, a path on the first host
  if (/\s/.test(raw.trim())) throw new ConfigError(`${name} holds a space or line break inside it (two addresses in one value?): give one URL; for several deployments, --base-url once for each, or a --targets file (docs/ci.md)`)
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !config.allowInsecureHttp) {
    // what a server listening on every interface reports as its address (Fastify's listen({ host: '::' }) gives http://[::]:PORT): a service started by the test, on this machine, whose loopback address is the one to give
    if (url.hostname === '[::]' || url.hostname === '0.0.0.0') {
      throw new ConfigError(`${name} ${url.host} is the unspecified address, which a server listening on every interface reports, not one to send to: give its loopback address, http://127.0.0.1:${url.port || 80}${url.pathname.replace(/\/+$/, '')} (or http://[::1]:${url.port || 80}…)`)
    }
    // a loopback host mistyped (127.0.0.l, locahost): the address meant, not a way to send the key in clear text
    throw new ConfigError(loopbackTypo(name, url) ?? `refusing to send the API key in clear text to ${url.host}: use https://, or --allow-insecure-http if you really mean it`)
  }
  if (!url.pathname.replace(/\/+$/, '').endsWith('/v1') && !config.allowAnyBasePath) {
    throw new ConfigError(
      `the base URL path "${url.pathname}" does not end in /v1, where the interface puts the version (§9.2); give the address ending in /v1${baseUrlGuess(url)}, or --allow-any-base-path to run anyway`,
    )
  }
  if (!config.apiKey && emptyKey) throw new ConfigError(emptyKeyProblem(emptyKey))
  if (!config.apiKey) throw new ConfigError(`no API key: set CONFORM_API_KEY (in the environment, or in ${resolve(config.workingDir, '.env')}, where .env files are read) or --api-key to the key issued for the account`)
  config.baseUrl = url.href.replace(/\/+$/, '')
}
