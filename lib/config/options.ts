/**
 * Command-line options declared once, as data (click's `envvar=`, clap's `env`): one table per
 * command drives parsing, `--help` and the README's options table. A value comes from the flag,
 * else from the option's environment variable (or a .env file the caller reads), else its default.
 */
import { parseArgs } from 'node:util'
import { closestName } from './closest-name.ts'

export interface OptionSpec {
  /** Long flag without dashes, e.g. `base-url`. */
  flag: string
  short?: string
  /** string: one value; list: repeatable; integer: a whole number (min, unit); boolean: a switch. */
  kind: 'string' | 'list' | 'integer' | 'boolean'
  /** Placeholder of the value in help text, e.g. `URL`. */
  value?: string
  /** Environment variable that gives the value when the flag is absent. */
  env?: string
  /** For integers. */
  min?: number
  max?: number
  unit?: string
  default?: string | number | boolean
  /** What help says when the default is not a plain value (e.g. "embedded server"). */
  defaultText?: string
  help: string
}

export type OptionValue = string | string[] | number | boolean | undefined

/** A complaint about one option or value: one line, exit 2. */
export class OptionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'OptionError'
  }
}

/** Words of a flag that would excuse a rule (--skip, --allowlist), and words that name what it excuses (--exclude-rule, --known-failures). */
const EXCUSING = /^(skip(ped|s)?|exclude[sd]?|exclusions?|ignore[sd]?|allow(ed|s)?|xfails?|known|disabled?|except|exceptions?|waive[sd]?|waivers?)$/
const EXCUSED = /^(rules?|checks?|tests?|fail(s|ed|ing|ures?)?|list|file|ids?|known)$/

/**
 * A flag made of those words only: --skip-tls-verify, --allow-http, --skip-writes or --disable-color
 * skips something else, and was told of --baseline (userplay8's hint matched any flag holding "skip" or "allow").
 */
function excusesRules(flag: string): boolean {
  const words = flag.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase().replace(/^(allow|skip|ignore|deny|block)(list)$/, '$1-$2').split(/[-_]+/).filter((w) => w !== '')
  return words.some((w) => EXCUSING.test(w)) && words.every((w) => EXCUSING.test(w) || EXCUSED.test(w))
}

/** parseArgs' complaint as one line; never echoes a stray argument, which may be a key. An unknown flag gets the known one nearest to it. */
function argumentProblem(error: NodeJS.ErrnoException, table: readonly OptionSpec[], argv: readonly string[]): string {
  const first = error.message.split('\n')[0]
  const unknown = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /'--([^'=]+)'/.exec(first)?.[1] : undefined
  const meant = unknown === undefined ? undefined : closestName(unknown, table.map((o) => o.flag))
  if (meant !== undefined) return `${first.replace(/\.$/, '')} (did you mean --${meant}?); see --help`
  // a team gating on all but its known deviations looks for --skip or an allowlist: the baseline is the way
  if (unknown !== undefined && table.some((o) => o.flag === 'baseline') && excusesRules(unknown)) {
    return `${first.replace(/\.$/, '')}; known failures are excused by --baseline FILE, which --update-baseline writes (docs/adoption.md), and --rule ID runs only the rules named; see --help`
  }
  if (error.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return 'unexpected argument without an option before it (every setting is a --flag); see --help'
  }
  // `--read-only=true` (or =false): Node's "does not take an argument" said neither how a switch is given nor how to turn it off
  const switchGiven = error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /does not take an argument/.test(first) ? table.find((o) => o.kind === 'boolean' && new RegExp(`(?:'|, )--${o.flag}'`).test(first)) : undefined
  if (switchGiven) return `--${switchGiven.flag} is a switch and takes no value: --${switchGiven.flag} alone turns it on, leaving it out turns it off${switchGiven.env ? ` (${switchGiven.env} takes true or false)` : ''}; see --help`
  // a flag left without its value, last or before another (`--rule $RULE --read-only`, the variable not set): Node said "Option '--rule <value>' argument missing"
  const row = error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' ? table.find((o) => new RegExp(`'--${o.flag}( <value>)?'`).test(first)) : undefined
  // the occurrence without its value: a repeatable flag given before with one (--rule A --rule $RULE --read-only) is not it
  const at = row === undefined ? -1 : argv.findIndex((arg, i) => arg === `--${row.flag}` && argv[i + 1]?.startsWith('-'))
  const next = at < 0 ? undefined : argv[at + 1]?.replace(/=.*$/s, '')
  if (row && /argument missing/.test(first)) return `--${row.flag} needs a value: --${row.flag} ${row.value ?? 'VALUE'}; see --help`
  if (row && next !== undefined && table.some((o) => `--${o.flag}` === next)) return `--${row.flag} needs a value before ${next}: --${row.flag} ${row.value ?? 'VALUE'}; see --help`
  if (error.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && /ambiguous/.test(error.message)) {
    const flag = /'(--?[\w-]+)'/.exec(first)?.[1] ?? 'the option'
    return `${flag} needs a value; one that starts with a dash goes after an equals sign: ${flag}=-…`
  }
  return `${first.replace(/\.$/, '')}; see --help`
}

/** The flags of `argv` as parseArgs reads them (strict: an unknown flag is an OptionError). */
export function parseFlags(table: readonly OptionSpec[], argv: readonly string[], { emptyPaths = 'refuse' }: { emptyPaths?: 'refuse' | 'keep' } = {}): Record<string, string | string[] | boolean | undefined> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {}
  for (const o of table) {
    options[o.flag] = { type: o.kind === 'boolean' ? 'boolean' : 'string', ...(o.kind === 'list' ? { multiple: true } : {}), ...(o.short ? { short: o.short } : {}) }
  }
  let values: Record<string, string | string[] | boolean | undefined>
  try {
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as Record<string, string | string[] | boolean | undefined>
  } catch (error) {
    const url = (error as NodeJS.ErrnoException).code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' ? strayUrl(table, argv) : undefined
    if (url !== undefined) throw new OptionError(`${url} is given without --base-url before it: --base-url ${url} (under npm: npm run conform -- --base-url ${url})`)
    throw new OptionError(argumentProblem(error as NodeJS.ErrnoException, table, argv))
  }
  // a CI variable that is not set (--report-dir "$REPORTS"): read as a path, "" was the folder the command ran in,
  // whose summary.md or results.json the reports replaced (a variable left empty is none, as it always was)
  // (kept by a command that reads no path: --help beside --report-dir "$UNSET" prints its text)
  for (const o of emptyPaths === 'refuse' ? table : []) {
    const given = values[o.flag]
    if ((o.value === 'FILE' || o.value === 'DIR') && (given === '' || (Array.isArray(given) && given.includes('')))) {
      throw new OptionError(`--${o.flag} "" names no ${o.value === 'DIR' ? 'folder' : 'file'} (a variable that is not set, as in --${o.flag} "$VARIABLE"?); see --help`)
    }
  }
  return values
}

/**
 * The URL among the arguments that no flag takes, when the table has --base-url: the address
 * written alone (`npm run conform -- http://127.0.0.1:8080/v1`), which was told only that settings
 * are --flags that go after npm's --, as it was. Shown without user:password, query or fragment
 * (a token may ride in either; a base URL has neither).
 */
function strayUrl(table: readonly OptionSpec[], argv: readonly string[]): string | undefined {
  if (!table.some((o) => o.flag === 'base-url')) return undefined
  const takesValue = (arg: string) => /^--[^=]+$/.test(arg) && table.some((o) => `--${o.flag}` === arg && o.kind !== 'boolean')
  const url = argv.find((arg, i) => /^https?:\/\/\S+$/i.test(arg) && !takesValue(argv[i - 1] ?? ''))
  return url?.replace(/^(https?:\/\/)[^/]*@/i, '$1***@').replace(/[?#].*$/s, '')
}

const TRUE_WORDS = /^(1|true|yes|on)$/i
const FALSE_WORDS = /^(0|false|no|off|)$/i

/**
 * A switch from the environment or a .env file. A word that is neither a yes nor a no is refused,
 * not read as no: CONFORM_READ_ONLY=enabled taken for false would send the writes of a full run
 * to a service whose user asked for none.
 */
function switchValue(raw: string, source: string): boolean {
  const value = raw.trim()
  if (TRUE_WORDS.test(value)) return true
  if (FALSE_WORDS.test(value)) return false
  throw new OptionError(`${source} takes true or false (also 1, yes, on / 0, no, off), got ${quotedUnlessKey(raw)}; e.g. ${source}=true`)
}

/**
 * A value as a refusal quotes it, unless it could be a key: 12 characters or more of visible ASCII
 * with letters and digits (`5s`, `enabled`, `10000ms` are shown). A key given where a number or a
 * switch goes (an action's `max-writes: ${{ secrets.… }}`, two variables swapped) was quoted whole,
 * on the terminal and in every report of the run not made, hidden from none as no key variable held it.
 * So is an unknown rule near no rule id (`--rule` given the key: a rule id mistyped is quoted with the nearest).
 */
export function quotedUnlessKey(raw: string): string {
  const value = raw.trim()
  return value.length >= 12 && /^[\x21-\x7e]+$/.test(value) && /[0-9]/.test(value) && /[A-Za-z]/.test(value) ? `a value of ${value.length} characters (not shown: it could be a key)` : `"${raw}"`
}

/**
 * Every option's value: the flag, else `setting(env)` (the environment, .env files), else the
 * default. Integers are checked here, and a bad one is named as the user wrote it (flag or variable).
 */
export function resolveOptions(
  table: readonly OptionSpec[],
  flags: Record<string, string | string[] | boolean | undefined>,
  setting: (variable: string) => string | undefined = () => undefined,
): Record<string, OptionValue> {
  const values: Record<string, OptionValue> = {}
  for (const o of table) {
    const fromFlag = flags[o.flag]
    const fromEnv = fromFlag === undefined && o.env ? setting(o.env) : undefined
    const raw = fromFlag ?? fromEnv
    const source = fromFlag !== undefined ? `--${o.flag}` : (o.env ?? `--${o.flag}`)
    if (raw === undefined) values[o.flag] = o.kind === 'list' ? [] : o.default
    else if (o.kind === 'boolean') values[o.flag] = typeof raw === 'boolean' ? raw : switchValue(String(raw), source)
    else if (o.kind === 'integer') values[o.flag] = wholeNumber(String(raw), source, o)
    else if (o.kind === 'list') values[o.flag] = Array.isArray(raw) ? raw : [String(raw)]
    else values[o.flag] = String(raw)
  }
  return values
}

function wholeNumber(raw: string, source: string, o: OptionSpec): number {
  const min = o.min ?? 0
  const max = o.max ?? Number.MAX_SAFE_INTEGER
  const value = raw.trim()
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    const example = Math.max(min, typeof o.default === 'number' ? o.default : min)
    const range = o.max === undefined ? `of at least ${min}` : `from ${min} to ${max}`
    throw new OptionError(
      `${source} takes a whole number${o.unit ? ` of ${o.unit}` : ''} ${range}, got ${quotedUnlessKey(raw)}; e.g. ${source.startsWith('--') ? `${source} ${example}` : `${source}=${example}`}`,
    )
  }
  return Number(value)
}

const defaultOf = (o: OptionSpec) => o.defaultText ?? (o.default === undefined || o.default === false ? undefined : String(o.default))

/** The options part of --help: one line each, with the default and the environment variable. */
export function optionsHelp(table: readonly OptionSpec[]): string {
  const left = (o: OptionSpec) => `${o.short ? `-${o.short}, ` : ''}--${o.flag}${o.value ? ` ${o.value}` : ''}`
  const width = Math.max(...table.map((o) => left(o).length)) + 2
  return table
    .map((o) => {
      const notes = [defaultOf(o) ? `default ${defaultOf(o)}` : '', o.env ? (o.kind === 'boolean' ? `${o.env}=true` : o.env) : ''].filter(Boolean)
      return `  ${left(o).padEnd(width)} ${o.help}${notes.length ? ` [${notes.join('; ')}]` : ''}`
    })
    .join('\n')
}

/** The README's options table (Markdown), from the same declarations. */
export function optionsMarkdown(table: readonly OptionSpec[]): string {
  const rows = table.map((o) => {
    const flag = `\`--${o.flag}${o.value ? ` ${o.value}` : ''}\``
    const env = o.env ? `\`${o.kind === 'boolean' ? `${o.env}=true` : o.env}\`` : '—'
    return `| ${flag} | ${env} | ${defaultOf(o) ?? '—'} | ${o.help} |`
  })
  return ['| flag | environment | default | meaning |', '|---|---|---|---|', ...rows].join('\n') + '\n'
}

/** Where a command line writes its help and its complaints. */
export interface CommandIo {
  out(text: string): void
  err(text: string): void
}

/**
 * A small command's whole reading of its arguments: the values, or the exit code when there is
 * nothing more to do (0 after --help, 2 after a complaint, one line prefixed with the command's name).
 * The table needs a `help` switch.
 */
export function readCommandLine<Flag extends string>(
  command: { name: string; usage: string; options: readonly (OptionSpec & { flag: Flag })[] },
  argv: readonly string[],
  io: CommandIo,
  env: NodeJS.ProcessEnv = {},
): Record<Flag, OptionValue> | number {
  let values: Record<Flag, OptionValue>
  try {
    values = resolveOptions(command.options, parseFlags(command.options, argv), (name) => env[name]) as Record<Flag, OptionValue>
  } catch (error) {
    if (!(error instanceof OptionError)) throw error
    io.err(`${command.name}: ${error.message}\n`)
    return 2
  }
  if ((values as Record<string, OptionValue>).help) {
    io.out(command.usage + '\n')
    return 0
  }
  return values
}
