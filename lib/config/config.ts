/**
 * The run's configuration: command-line flags over the environment over .env files (read with
 * dotenv, never written into process.env). Anything wrong here is a ConfigError: one line naming
 * the problem and the fix, exit code 2.
 */
import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { parse as parseDotenv } from 'dotenv'
import { findRule } from '../spec/rule-catalogue.ts'

export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}

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
  allowInsecureHttp: boolean
  allowAnyBasePath: boolean
  listRules: boolean
  help: boolean
  profile?: string
}

export const DEFAULTS = {
  reportDir: 'reports',
  timeoutMs: 10_000,
  deadlineMs: 120_000,
  maxResponseBytes: 64 * 1024 * 1024,
}

const FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'report-dir': { type: 'string' },
  timeout: { type: 'string' },
  deadline: { type: 'string' },
  'max-response-bytes': { type: 'string' },
  env: { type: 'string' },
  'read-only': { type: 'boolean' },
  'max-writes': { type: 'string' },
  rule: { type: 'string', multiple: true },
  'list-rules': { type: 'boolean' },
  'allow-insecure-http': { type: 'boolean' },
  'allow-any-base-path': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

export const USAGE = `Usage: npm run conform -- [options]

Runs every check of the Pet Store categories interface against a deployment and exits
0 (every must-rule passed), 1 (a rule failed) or 2 (the run could not be made as asked).
Without --base-url it starts the embedded reference server and checks that.

Options (environment variable in brackets; flags win over the environment, which wins over .env files):
  --base-url URL           base address, ending in /v1 [CONFORM_BASE_URL]
  --api-key KEY            API key; prefer the environment variable [CONFORM_API_KEY]
  --env NAME               also read .env.NAME (e.g. staging, production)
  --report-dir DIR         where reports go (default reports) [CONFORM_REPORT_DIR]
  --timeout MS             deadline per request (default 10000) [CONFORM_TIMEOUT_MS]
  --deadline MS            deadline for the whole run (default 120000) [CONFORM_DEADLINE_MS]
  --max-response-bytes N   largest response body read (default 67108864) [CONFORM_MAX_RESPONSE_BYTES]
  --read-only              send no request that could create anything (no POST) [CONFORM_READ_ONLY=true]
  --max-writes N           send at most N POST requests [CONFORM_MAX_WRITES]
  --rule ID                run only this rule's checks (repeatable)
  --list-rules             print the rule catalogue and exit
  --allow-insecure-http    allow a plain http:// base URL on a host that is not loopback
  --allow-any-base-path    run although the base URL does not end in /v1 (rule base-url-ends-v1 then fails)
  -h, --help               this text`

function readEnvFile(path: string, required: boolean): Record<string, string> {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'error'
    if (!required && code === 'ENOENT') return {}
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'it is a directory' : code
    throw new ConfigError(`cannot read ${path} (${why}): create it with lines such as CONFORM_BASE_URL=https://…/v1, or drop --env`)
  }
  return parseDotenv(text)
}

/** A whole number from a flag or an environment variable; `name` is whichever of them gave it. */
function positiveInteger(value: string | undefined, name: string, fallback: number, min = 1, unit = ''): number {
  if (value === undefined || value === '') return fallback
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new ConfigError(`${name} takes a whole number${unit} of at least ${min}, got "${value}"; e.g. ${name.startsWith('--') ? `${name} ${Math.max(min, fallback)}` : `${name}=${Math.max(min, fallback)}`}`)
  }
  return Number(value.trim())
}

/** parseArgs' complaint as one line; never echoes a stray argument, which may be the key itself. */
function argumentProblem(error: NodeJS.ErrnoException): string {
  const first = error.message.split('\n')[0]
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return 'unexpected argument without an option before it (every setting is a --flag); see --help'
  }
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /ambiguous/.test(error.message)) {
    const flag = /'(--?[\w-]+)'/.exec(first)?.[1] ?? 'the option'
    return `${flag} needs a value; one that starts with a dash goes after an equals sign: ${flag}=-…`
  }
  return `${first.replace(/\.$/, '')}; see --help`
}

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

function isTrue(value: string | undefined): boolean {
  return value !== undefined && /^(1|true|yes)$/i.test(value.trim())
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '')
  if (host === 'localhost' || host.endsWith('.localhost')) return true
  if (isIP(host) === 4) return host.startsWith('127.')
  return host === '::1'
}

/** Reads flags, environment and .env files into a Config; throws ConfigError. */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  let values: ReturnType<typeof parseArgs<{ options: typeof FLAGS; strict: true; allowPositionals: false }>>['values']
  try {
    values = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }).values
  } catch (error) {
    throw new ConfigError(argumentProblem(error as NodeJS.ErrnoException))
  }
  const profile = values.env
  if (profile !== undefined && !/^[\w.-]+$/.test(profile)) throw new ConfigError(`--env takes a name such as staging, got "${profile}"`)
  // first found wins: environment, then .env.<profile>, then .env
  const files = { ...readEnvFile(resolve(cwd, '.env'), false), ...(profile ? readEnvFile(resolve(cwd, `.env.${profile}`), true) : {}) }
  const setting = (name: string): string | undefined => {
    const value = env[name] ?? files[name]
    return value === '' ? undefined : value
  }
  /** The flag, or else the variable: which one a message should name. */
  const source = (flag: keyof typeof values, variable: string) => (values[flag] !== undefined ? `--${flag}` : variable)

  const config: Config = {
    baseUrl: values['base-url'] ?? setting('CONFORM_BASE_URL'),
    apiKey: values['api-key'] ?? setting('CONFORM_API_KEY'),
    reportDir: values['report-dir'] ?? setting('CONFORM_REPORT_DIR') ?? DEFAULTS.reportDir,
    timeoutMs: positiveInteger(values.timeout ?? setting('CONFORM_TIMEOUT_MS'), source('timeout', 'CONFORM_TIMEOUT_MS'), DEFAULTS.timeoutMs, 10, ' of milliseconds'),
    deadlineMs: positiveInteger(values.deadline ?? setting('CONFORM_DEADLINE_MS'), source('deadline', 'CONFORM_DEADLINE_MS'), DEFAULTS.deadlineMs, 100, ' of milliseconds'),
    maxResponseBytes: positiveInteger(
      values['max-response-bytes'] ?? setting('CONFORM_MAX_RESPONSE_BYTES'),
      source('max-response-bytes', 'CONFORM_MAX_RESPONSE_BYTES'),
      DEFAULTS.maxResponseBytes,
      1,
      ' of bytes',
    ),
    readOnly: values['read-only'] ?? isTrue(setting('CONFORM_READ_ONLY')),
    maxWrites: (() => {
      const raw = values['max-writes'] ?? setting('CONFORM_MAX_WRITES')
      return raw === undefined ? undefined : positiveInteger(raw, source('max-writes', 'CONFORM_MAX_WRITES'), 0, 0)
    })(),
    rules: values.rule ?? [],
    allowInsecureHttp: values['allow-insecure-http'] ?? false,
    allowAnyBasePath: values['allow-any-base-path'] ?? false,
    listRules: values['list-rules'] ?? false,
    help: values.help ?? false,
    profile,
  }
  for (const id of config.rules) {
    if (!findRule(id)) throw new ConfigError(`unknown rule "${id}"; --list-rules prints the catalogue`)
  }
  if (config.baseUrl !== undefined) checkBaseUrl(config, source('base-url', 'CONFORM_BASE_URL'))
  return config
}

function checkBaseUrl(config: Config, name: string): void {
  const raw = config.baseUrl as string
  const example = 'https://petstore.example/v1'
  let url: URL | undefined
  try {
    url = new URL(raw)
  } catch {
    url = undefined
  }
  // "localhost:8080/v1" parses, with "localhost:" as its scheme: a scheme is missing either way
  if (!url || !/^[a-z][a-z0-9+.-]*:\/\//i.test(raw.trim())) {
    throw new ConfigError(`${name} "${raw}" is not a URL with a scheme; give one like ${example}`)
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ConfigError(`${name} must start with https:// (or http:// on loopback), got ${url.protocol}//`)
  }
  // never echoed: a URL with user:password in it carries a secret
  if (url.username || url.password) throw new ConfigError(`${name} must not carry credentials; the key goes in CONFORM_API_KEY`)
  if (url.search || url.hash) throw new ConfigError(`${name} must not carry a query or fragment; give the address ending in /v1`)
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && !config.allowInsecureHttp) {
    throw new ConfigError(
      `refusing to send the API key in clear text to ${url.host}: use https://, or --allow-insecure-http if you really mean it`,
    )
  }
  if (!url.pathname.replace(/\/+$/, '').endsWith('/v1') && !config.allowAnyBasePath) {
    throw new ConfigError(
      `the base URL path "${url.pathname}" does not end in /v1, where the interface puts the version (§9.2); give the address ending in /v1${url.pathname === '/' ? ` (${url.origin}/v1)` : ''}, or --allow-any-base-path to run anyway`,
    )
  }
  if (!config.apiKey) {
    throw new ConfigError('no API key: set CONFORM_API_KEY (or --api-key) to the key issued for the account')
  }
  config.baseUrl = url.href.replace(/\/+$/, '')
}
