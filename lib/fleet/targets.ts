/**
 * The deployments of a fleet run, and the configuration of each: `--base-url` given more than once
 * (the deployments of one account: they share the one key of CONFORM_API_KEY or --api-key), or
 * `--targets FILE`, YAML or JSON:
 *
 *   deployments:
 *     - label: eu-production                      # optional: host, port and path by default
 *       baseUrl: https://eu.petstore.example/v1
 *       apiKeyEnv: PETSTORE_EU_KEY                # the environment variable holding its key
 *       baseline: baselines/eu-production.json   # optional: its known failures (else --baseline)
 *       readOnly: true                            # optional: no POST to it (else the fleet's --read-only)
 *       maxWrites: 5                              # optional: at most 5 POSTs to it (or --max-writes, if lower)
 *       clientCert: certs/eu-client.pem           # optional: its client certificate for mutual TLS (else
 *       clientKey: certs/eu-client.key            #   --client-cert), its key, a CA (caCert) and the variable
 *       clientKeyPassphraseEnv: EU_KEY_PASSPHRASE #   holding an encrypted key's passphrase
 *
 * A key is read only from the variable its entry names, and goes only into that deployment's
 * configuration. Everything wrong with an entry (its variable unset, a label used twice, a base
 * URL that is not one, or one the single-run rules refuse) is one ConfigError that names the entry,
 * raised before any request.
 */
import { ENV_FILE_MAX_BYTES, readUserText, UserFileTooLarge, whyUnreadable } from '../config/user-file.ts'
import { dirname, join, resolve } from 'node:path'
import { parse as parseDotenv } from 'dotenv'
import { parse as parseYaml } from 'yaml'
import { checkApiKey, EMPTY_SECRET_WORDS } from '../config/api-key.ts'
import { closestName } from '../config/closest-name.ts'
import { PASSPHRASE_VARIABLE, readClientTls, tlsWithoutHttps } from '../config/client-tls.ts'
import { BaselineError, readBaseline, type Baseline } from '../config/baseline-file.ts'
import { checkBaseUrl, ConfigError, loadConfig, type Config } from '../config/config.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import { applyEntryWrites, entryWrites, type EntryWrites } from './entry-writes.ts'
import type { FleetRequest } from './fleet-request.ts'
import { defaultLabel, keyShownBy, labelProblem, shownLabel } from './labels.ts'

export { defaultLabel, labelProblem }

/** One deployment as the user declared it. */
export interface FleetTarget extends EntryWrites {
  /** How a message names the entry: `--base-url #2`, `targets.yaml deployment 3 (eu)`. */
  entry: string
  /** The base URL as given. */
  baseUrl: string
  label?: string
  /** The environment variable holding its key; undefined: the shared key (--base-url repeated). */
  apiKeyEnv?: string
  /** Its own baseline file (absolute: resolved from the targets file's folder), in place of --baseline. */
  baseline?: string
  /** Its own TLS files (absolute), in place of --ca-cert, --client-cert and --client-key, and the variable of its key's passphrase. */
  tls?: { caCert?: string; clientCert?: string; clientKey?: string; passphraseEnv?: string }
}

/** A deployment ready to run: its label, its base URL as given, and its own configuration (key, report folder). */
export interface FleetDeploymentConfig {
  label: string
  /** How a message names its entry (FleetTarget.entry). */
  entry: string
  givenBaseUrl: string
  config: Config
}

/**
 * Why the other entries were not judged either, said after the entries without their key: a user saw
 * five deployments with keys go unjudged, and no word of why. Nothing when no other entry has one
 * (a file of one deployment): "to judge the others" of none sent its reader looking for them.
 */
const noneJudged = (missing: number, entries: number): string =>
  missing >= entries ? '' : `. No deployment was judged: a fleet runs once every entry has its key, so that its verdict covers them all (to judge the others without ${missing === 1 ? 'it, leave that entry' : 'them, leave those entries'} out of the file)`

/** Every field an entry of a targets file may have. */
const ENTRY_FIELDS = ['label', 'baseUrl', 'apiKeyEnv', 'baseline', 'readOnly', 'maxWrites', 'caCert', 'clientCert', 'clientKey', 'clientKeyPassphraseEnv'] as const
/** Options every deployment of a fleet shares, which an entry cannot have (rateLimit: 5 beside staging's pace); readOnly and maxWrites an entry may have. */
const FLEET_OPTIONS = ['rate-limit', 'concurrency', 'timeout', 'deadline', 'list-lag', 'rule', 'header', 'confirm', 'repeat', 'seed'] as const
/** readOnly, read_only, --read-only, maxWrites, rules: one spelling. */
const optionKey = (name: string) => name.toLowerCase().replace(/^-+/, '').replace(/[-_]/g, '').replace(/s$/, '')

/** The fields of an entry that name a TLS file (lib/config/client-tls.ts). */
const TLS_FILE_FIELDS = ['caCert', 'clientCert', 'clientKey'] as const


/**
 * The variable an apiKeyEnv names, as a message may show it: a name in the convention of
 * environment variables (upper case, digits, underscores) is; anything else may be the key itself,
 * pasted where its variable's name goes, and is not.
 */
const shownVariable = (name: string): string => (/^[A-Z][A-Z0-9_]{0,63}$/.test(name) ? name : '(its name not shown: it is not in the upper case of a variable name, and may be the key itself; apiKeyEnv takes a name like PETSTORE_EU_KEY)')

/** The .env file of `cwd` that sets `name` (.env.<profile> first, as a single run reads them), or undefined. */
function envFileSetting(name: string, cwd: string, profile: string | undefined): string | undefined {
  for (const file of [...(profile !== undefined ? [`.env.${profile}`] : []), '.env']) {
    try {
      if (parseDotenv(readUserText(join(cwd, file), ENV_FILE_MAX_BYTES))[name]) return file
    } catch {
      // no such file, or one that cannot be read: it sets nothing
    }
  }
  return undefined
}

/**
 * The most deployments one fleet (or merge) judges. A CI matrix has at most 256 jobs; each
 * deployment runs at once, with up to --concurrency connections of its own, and its page rows; a
 * list of tens of thousands (a file grown by mistake, a fleet.json another job wrote) would take
 * the process's memory, file descriptors and the deadline before the first verdict, so it is
 * refused at once, with one line.
 */
export const MAX_DEPLOYMENTS = 1000

/** What to say of a list of more than MAX_DEPLOYMENTS deployments. */
export const tooManyDeployments = (what: string, count: number) => `${what} ${count} deployments; a fleet holds at most ${MAX_DEPLOYMENTS}: split it into fleets (several --targets files, or merges) of fewer`

/** Far more than a thousand deployments take; /dev/zero or a growing log is refused at it. */
const TARGETS_MAX_BYTES = 4 * 1024 * 1024
/**
 * What to say of a label YAML did not read as text: `label: 2024.10` is the number 2024.1, and
 * "must be text" alone reads as nonsense to whoever typed it.
 */
function labelNotText(value: unknown): string {
  if (value === null) return 'label is empty: give one, or leave the field out for the default (host, port and path)'
  if (typeof value === 'number' || typeof value === 'boolean') return `label must be text, and YAML reads this one as the ${typeof value} ${String(value)}: quote it, as in label: "eu-2024.10"`
  return 'label must be text, not a list or a mapping'
}

/** What an empty key variable most often is, and what to do. */
const EMPTY_SECRET = `${EMPTY_SECRET_WORDS}: give each its deployment's key`

/** The entries of a targets file; throws ConfigError naming the file and the entry at fault. */
export function readTargetsFile(path: string, cwd: string, keys?: KeysOfTheFile): FleetTarget[] {
  const file = resolve(cwd, path)
  let text: string
  try {
    text = readUserText(file, TARGETS_MAX_BYTES)
  } catch (error) {
    const why = whyUnreadable(error) + (error instanceof UserFileTooLarge ? ': a list of deployments is a few KiB' : '')
    throw new ConfigError(`cannot read the targets file ${path} (${why})`)
  }
  let data: unknown
  try {
    // YAML 1.2 reads JSON as well: one parser for both. `<<: *shared` merge keys, which YAML 1.2
    // dropped but GitLab CI and Compose files use, are read as YAML 1.1 read them
    data = parseYaml(text, { merge: true })
  } catch (error) {
    // a YAML error that a JSON file makes too (a key given twice) is no sign that the file is neither
    // its first line only, without the colon that leads to the excerpt of the file below it ("at line 4, column 16:" read as cut off)
    throw new ConfigError(`the targets file ${path} cannot be read as YAML (or JSON, which is YAML): ${visibleLine(((error as Error).message.split('\n')[0] as string).replace(/:$/, ''))}`)
  }
  const list = (data as { deployments?: unknown } | null)?.deployments
  if (typeof data !== 'object' || data === null || Array.isArray(data) || !Array.isArray(list) || list.length === 0) {
    // a list at the top (a JSON user's first try) or an empty one is said as such
    const shape = Array.isArray(data) ? 'holds a list at its top: put it under "deployments:" ({"deployments": [...]} in JSON)' : Array.isArray(list) ? 'lists no deployment: "deployments:" holds none' : 'must hold "deployments:", a list of entries with label, baseUrl and apiKeyEnv'
    throw new ConfigError(`the targets file ${path} ${shape} (docs/ci.md)`)
  }
  if (list.length > MAX_DEPLOYMENTS) throw new ConfigError(`the targets file ${path} ${tooManyDeployments('lists', list.length)}`)
  // every key the file's entries name, hidden before any entry is checked: a key pasted into the
  // wrong field (maxWrites: "sk-live-…", a label) was printed in the line that refused the entry
  if (keys) {
    for (const item of list) {
      const variable = (item as { apiKeyEnv?: unknown } | null)?.apiKeyEnv
      const key = typeof variable === 'string' ? keys.env[variable] : undefined
      if (key !== undefined && key.trim() !== '') keys.secrets.push(key)
    }
  }
  // a top-level `x-…` or `.…` key holds what anchors refer to (`x-shared: &shared`), as in Compose and GitLab CI files
  const extra = Object.keys(data).filter((key) => key !== 'deployments' && !/^(x-|\.)/.test(key))
  if (extra.length > 0) throw new ConfigError(`the targets file ${path} has a field it does not know, "${visibleLine(extra[0] as string).slice(0, 40)}"; it holds only "deployments" (and x-… or .… keys for YAML anchors)`)
  // `apiKey: …` is a key written into the file, where apiKeyEnv names the variable that holds it
  const fieldHint = (field: string) => {
    // an option of the whole fleet written into an entry (production read-only beside staging): say how to get it
    const option = FLEET_OPTIONS.find((name) => optionKey(name) === optionKey(field))
    if (option !== undefined) return ` (--${option} is an option of the whole fleet, on the command line: run the deployments that need another --${option} as a fleet of their own, into another --report-dir, and join the two folders with merge)`
    const meant = closestName(field, ENTRY_FIELDS)
    if (meant === 'apiKeyEnv') return ' (did you mean apiKeyEnv? It names the environment variable that holds the key: a key is never written in the file)'
    // a team's own note (owner, ticket) was refused with the list alone: say where one goes
    return meant === undefined ? ' (a note of your own, an owner or a ticket, goes under a key starting with x-, as x-owner, or in a # comment)' : ` (did you mean ${meant}?)`
  }
  return list.map((item, i) => {
    const given = item as Record<string, unknown> | null
    // as given: the line that says it marks what is invisible in it, once (a label marked here was marked again: ⟨U+27E8⟩RLO⟩)
    const named = typeof given?.label === 'string' ? ` (${[...shownLabel(given.label)].slice(0, 64).join('')})` : ''
    const entry = `${path} deployment ${i + 1}${named}`
    if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new ConfigError(`${entry}: is not an entry with label, baseUrl and apiKeyEnv`)
    // x-… keys are the team's, as Compose's extension fields are: kept out of what the entry sets
    const unknown = Object.keys(given).find((key) => !(ENTRY_FIELDS as readonly string[]).includes(key) && !key.startsWith('x-'))
    if (unknown !== undefined) throw new ConfigError(`${entry}: unknown field "${visibleLine(unknown).slice(0, 40)}"${fieldHint(unknown)}; an entry has ${ENTRY_FIELDS.join(', ')}`)
    if (typeof given.baseUrl !== 'string' || given.baseUrl === '') throw new ConfigError(`${entry}: baseUrl is missing; give its address ending in /v1`)
    if (given.label !== undefined && typeof given.label !== 'string') throw new ConfigError(`${entry}: ${labelNotText(given.label)}`)
    if (typeof given.apiKeyEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(given.apiKeyEnv)) {
      throw new ConfigError(`${entry}: apiKeyEnv must name the environment variable that holds its key, such as PETSTORE_EU_KEY`)
    }
    if (given.baseline !== undefined && (typeof given.baseline !== 'string' || given.baseline.trim() === '')) {
      throw new ConfigError(`${entry}: baseline must name its baseline file (a path from the targets file's folder), such as baselines/eu-production.json`)
    }
    // from the targets file's folder, as Compose and GitLab CI read the paths of their files: the
    // file and its baselines live together in the service's repository, wherever the job runs
    const baseline = typeof given.baseline === 'string' ? { baseline: resolve(dirname(file), given.baseline) } : {}
    return { entry, baseUrl: given.baseUrl, apiKeyEnv: given.apiKeyEnv, ...(given.label !== undefined ? { label: given.label } : {}), ...baseline, ...entryWrites(given, entry), ...entryTlsFiles(given, entry, dirname(file)) }
  })
}

/** An entry's TLS files (from the targets file's folder, as its baseline) and its passphrase's variable, checked for their types. */
function entryTlsFiles(given: Record<string, unknown>, entry: string, folder: string): Pick<FleetTarget, 'tls'> {
  const tls: NonNullable<FleetTarget['tls']> = {}
  for (const field of TLS_FILE_FIELDS) {
    const value = given[field]
    if (value === undefined) continue
    if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`${entry}: ${field} must name a PEM file (a path from the targets file's folder)`)
    tls[field] = resolve(folder, value)
  }
  const passphraseEnv = given.clientKeyPassphraseEnv
  if (passphraseEnv !== undefined) {
    if (typeof passphraseEnv !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(passphraseEnv)) throw new ConfigError(`${entry}: clientKeyPassphraseEnv must name the environment variable that holds the key's passphrase`)
    tls.passphraseEnv = passphraseEnv
  }
  return Object.keys(tls).length > 0 ? { tls } : {}
}

/** An entry's baseline file, read and checked as --baseline is; its problem names the entry. */
function entryBaseline(target: FleetTarget): Baseline {
  try {
    return readBaseline(target.baseline as string, false)
  } catch (error) {
    if (error instanceof BaselineError) throw new ConfigError(`${target.entry}: ${error.message}`)
    throw error
  }
}

/** An entry's own TLS settings read and checked into its configuration; a problem names the entry. */
function entryTls(target: FleetTarget, config: Config, env: NodeJS.ProcessEnv, secrets: string[]): void {
  const { passphraseEnv, ...files } = target.tls ?? {}
  const passphrase = passphraseEnv !== undefined ? env[passphraseEnv] : undefined
  if (passphraseEnv !== undefined && !passphrase) throw new ConfigError(`${target.entry}: the variable ${passphraseEnv} its clientKeyPassphraseEnv names is not set`)
  if (passphrase) secrets.push(passphrase)
  try {
    const tls = readClientTls(files, '/', passphrase)
    if (tls) config.tls = tls
  } catch (error) {
    if (error instanceof ConfigError) throw new ConfigError(`${target.entry}: ${error.message.replace(/--ca-cert|--client-cert|--client-key/g, (flag) => TLS_FIELD_OF[flag] as string).replace(PASSPHRASE_VARIABLE, 'the variable its clientKeyPassphraseEnv names')}`)
    throw error
  }
}

/** How an entry calls the files the command line's flags name. */
const TLS_FIELD_OF: Record<string, string> = { '--ca-cert': 'caCert', '--client-cert': 'clientCert', '--client-key': 'clientKey' }

/**
 * Each deployment's configuration: the shared options (read as a single run reads them, without a
 * base URL), then per entry its key, its base URL checked by the single run's rules, its label and
 * its report folder `<report-dir>/<label>/`. Every key read is pushed to `secrets` as soon as it
 * is read, so that whatever is said afterwards can be redacted. Throws ConfigError.
 */
/** The environment the entries' apiKeyEnv name variables of, and where the keys they hold go to be hidden (the fleet's redactor). */
export interface KeysOfTheFile {
  env: NodeJS.ProcessEnv
  secrets: string[]
}

export function fleetConfigs(request: FleetRequest, env: NodeJS.ProcessEnv, cwd: string, secrets: string[]): { shared: Config; deployments: FleetDeploymentConfig[] } {
  if (request.targetsFile !== undefined && request.baseUrls.length > 0) throw new ConfigError('give --targets FILE or --base-url, not both: the file lists every deployment')
  if (request.problem !== undefined) throw new ConfigError(request.problem)
  // an empty CONFORM_BASE_URL hides any in the environment or a .env file: the deployments come from the flags
  // before the options are read: a targets file names each baseline, and "--update-baseline needs --baseline FILE" sent its reader to add one, to be told this next
  if (request.shared.some((arg) => /^--update-baseline(=|$)/.test(arg))) throw new ConfigError("--update-baseline writes the failures of one deployment; run it with one --base-url and that deployment's --baseline FILE (a targets entry's baseline: names it)")
  const shared = loadConfig(request.shared, { ...env, CONFORM_BASE_URL: '' }, cwd)
  const keyFlag = request.shared.some((arg) => arg === '--api-key' || arg.startsWith('--api-key='))
  if (request.targetsFile !== undefined && keyFlag) throw new ConfigError('--api-key does not go with --targets: each deployment\'s key comes from the variable its apiKeyEnv names')
  const targets: FleetTarget[] = request.targetsFile !== undefined ? readTargetsFile(request.targetsFile, cwd, { env, secrets }) : request.baseUrls.map((baseUrl, i) => ({ entry: `--base-url #${i + 1}`, baseUrl }))
  if (targets.length > MAX_DEPLOYMENTS) throw new ConfigError(`--base-url ${tooManyDeployments('gives', targets.length)}`)
  const sharedKey = keyFlag ? '--api-key' : 'CONFORM_API_KEY'
  const byLabel = new Map<string, FleetTarget>()
  // the same service with the same key is one deployment: listed twice, it would be judged twice at once, with twice its writes
  const byServiceAndKey = new Map<string, FleetTarget>()
  /** Why an entry has no key, or undefined when it has one. */
  const noKey = (target: FleetTarget): string | undefined => {
    const raw = target.apiKeyEnv !== undefined ? env[target.apiKeyEnv] : shared.apiKey
    // only whitespace is trimmed to nothing: empty too (a secret of a newline)
    if (raw !== undefined && raw.trim() !== '') return undefined
    const file = target.apiKeyEnv !== undefined && raw === undefined ? envFileSetting(target.apiKeyEnv, cwd, shared.profile) : undefined
    // a single run reads its key from .env: that the fleet does not is said where it bites
    const hint = file !== undefined ? ` in the environment (${file} sets it, but a deployment's key is read from the environment only: export it, as with set -a; . ./${file}; set +a)` : ''
    return `${target.entry}: no key: ${target.apiKeyEnv !== undefined ? `the variable ${shownVariable(target.apiKeyEnv)} its apiKeyEnv names is ${raw === undefined ? `not set${hint}` : `set, but empty${raw === '' ? '' : ' (only whitespace)'}`}` : env.CONFORM_API_KEY === '' && !keyFlag ? `CONFORM_API_KEY is set, but empty. ${EMPTY_SECRET_WORDS}: give it the key issued for the account (or --api-key)` : 'set CONFORM_API_KEY (or --api-key) to the key issued for the account'}`
  }
  // several secrets missing from a CI job: each named at once, not one per attempt
  const keyless = targets.filter((target) => target.apiKeyEnv !== undefined).flatMap((target) => noKey(target) ?? [])
  // "set, but empty" alone left a CI user sure the secret was set: it is what a secret the job does not get becomes
  const emptyHint = keyless.some((line) => line.includes('set, but empty')) ? `. ${EMPTY_SECRET}` : ''
  if (keyless.length > 1) throw new ConfigError(`${keyless.length} deployments have no key: ${keyless.join('; ')}${emptyHint}${noneJudged(keyless.length, targets.length)}`)
  const deployments = targets.map((target) => {
    const missing = noKey(target)
    if (missing !== undefined) throw new ConfigError(missing + (missing.includes('apiKeyEnv names is set, but empty') ? `. ${EMPTY_SECRET}` : '') + (target.apiKeyEnv !== undefined ? noneJudged(1, targets.length) : ''))
    const raw = (target.apiKeyEnv !== undefined ? env[target.apiKeyEnv] : shared.apiKey) as string
    const source = target.apiKeyEnv ?? sharedKey
    secrets.push(raw)
    const checked = checkApiKey(raw, source)
    if ('problem' in checked) throw new ConfigError(`${target.entry}: ${checked.problem}`)
    secrets.push(checked.key)
    const config: Config = { ...shared, baseUrl: target.baseUrl, apiKey: checked.key, keySource: source, ...(checked.note ? { keyNote: checked.note } : {}) }
    // production read-only (or a few writes) beside staging's writes, in one fleet
    applyEntryWrites(config, target)
    // staging's known deviations are not production's: an entry's own baseline, read before any request
    if (target.baseline !== undefined) config.baseline = { path: target.baseline, data: entryBaseline(target) }
    // its own TLS files, in place of the command line's; a passphrase only from the variable it names
    if (target.tls !== undefined) entryTls(target, config, env, secrets)
    try {
      checkBaseUrl(config, target.apiKeyEnv !== undefined ? 'baseUrl' : 'the base URL')
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error
      // an entry's key comes from the variable its apiKeyEnv names, not from CONFORM_API_KEY
      const message = target.apiKeyEnv !== undefined ? error.message.replace(/the key goes in CONFORM_API_KEY$/, 'the key goes in the variable its apiKeyEnv names') : error.message
      throw new ConfigError(`${target.entry}: ${message}`)
    }
    const plain = tlsWithoutHttps(config)
    if (plain) throw new ConfigError(`${target.entry}: ${plain}`)
    const label = target.label ?? defaultLabel(config.baseUrl as string)
    const problem = labelProblem(label)
    if (problem) throw new ConfigError(`${target.entry}: ${problem}`)
    const earlier = byLabel.get(label.toLowerCase())
    if (earlier) {
      const why = target.label !== undefined ? `label "${label}" is also that of ${earlier.entry}` : `its folder name "${label}" (host, port and path) is also that of ${earlier.entry}`
      throw new ConfigError(`${target.entry}: ${why}; each deployment needs its own${request.targetsFile !== undefined ? ' label' : ' base URL, or list them in a --targets file with labels'}`)
    }
    byLabel.set(label.toLowerCase(), target)
    const service = JSON.stringify([new URL(config.baseUrl as string).href.replace(/\/+$/, ''), checked.key])
    const same = byServiceAndKey.get(service)
    if (same) throw new ConfigError(`${target.entry}: the same base URL and key as ${same.entry}: one deployment listed twice would be judged twice at once, with twice its writes; list it once (tenants of one address have keys of their own)`)
    byServiceAndKey.set(service, target)
    config.reportDir = join(shared.reportDir, label)
    return { label, entry: target.entry, givenBaseUrl: target.baseUrl, config }
  })
  // a label is its report folder's name, which merge, a CI artifact and every page show as it is: a key in it (pasted as the label) goes everywhere
  const keys = deployments.map((d) => d.config.apiKey as string)
  for (const [i, d] of deployments.entries()) {
    const held = keyShownBy(d.label, keys)
    if (held >= 0) throw new ConfigError(`${targets[i]?.entry}: its label holds the key of ${held === i ? 'this deployment' : targets[held]?.entry}: a label names its report folder, which merge and CI artifacts show as it is; give another label`)
  }
  return { shared, deployments }
}
