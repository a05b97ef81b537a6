/**
 * A deployment's label: the name of its report folder in a fleet (and, in a merge, the folder's
 * name), so a folder name on every system; and the one a base URL gets without a label.
 */
import { createRedactor, NEAR_MISS_MIN_KEY_LENGTH, REDACTED, redactorSteps } from '../http/redact.ts'
import { JOURNAL_FILE, REPORT_FILES } from '../runner/report-files.ts'
import { FLEET_FILES } from './fleet-files.ts'

/** A label is a folder name on every system: letters, digits, `.`, `_` and `-`, not starting with `.` or `-` (nor ending with `.`, nor a Windows device name: labelProblem). */
const LABEL = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/

/** Names Windows keeps for devices, with any extension (NUL.txt too). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i

/** The folder name a base URL gets without a label: host, port and path, made safe (`127.0.0.1-8080-v1`). */
export function defaultLabel(baseUrl: string): string {
  const url = new URL(baseUrl)
  const parts = [url.hostname.replace(/^\[|\]$/g, '').replace(/:/g, '_'), url.port, ...url.pathname.split('/')]
  const label = parts
    .map((part) => part.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|[.-]+$/g, ''))
    .filter(Boolean)
    .join('-')
    .slice(0, 64)
  return LABEL.test(label) ? label : 'deployment'
}

/** A label that is a URL (a base URL pasted as one), parsed; undefined for any other. */
const labelUrl = (label: string): URL | undefined => (/^[a-z][a-z0-9+.-]*:\/\//i.test(label) && URL.canParse(label) ? new URL(label) : undefined)

/** A label as a message shows it: a URL's query, user info and fragment (a token, a password) left out. */
export function shownLabel(label: string): string {
  const url = labelUrl(label)
  return url && (url.search !== '' || url.username !== '' || url.password !== '' || url.hash !== '') ? `${url.protocol}//${url.host}${url.pathname}${url.search ? '?…' : ''}` : label
}

/** Why a label cannot name a folder of the fleet, or undefined when it can. */
export function labelProblem(label: string): string | undefined {
  // the label as given (its first 80 characters): whatever shows the message marks what is invisible in it, once (visible-text.ts)
  if (!LABEL.test(label)) {
    // a URL given as a label: its query and user info (a token, a password) are neither shown nor made into a folder name that every report repeats
    const url = labelUrl(label)
    const shown = shownLabel(label)
    // the label made one, as the user would (eu production: eu-production; prod-ü: prod-u), to copy: the rule alone left them to work it out
    const safe = url ? defaultLabel(label) : label.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[.-]+|[.-]+$/g, '').slice(0, 64)
    const like = safe !== '' && LABEL.test(safe) && labelProblemOfSafe(safe) === undefined ? `: "${safe}", say` : ''
    return `label "${[...shown].slice(0, 80).join('')}" is not a folder name: use ASCII letters (A-Z, a-z), digits, ".", "_" and "-" (at most 64), starting with a letter, digit or "_"${like}`
  }
  return labelProblemOfSafe(label)
}

/** Why a label of a folder name's characters cannot name a folder of the fleet, or undefined. */
function labelProblemOfSafe(label: string): string | undefined {
  // Windows drops a name's final dot (eu. and eu would share a folder) and keeps device names (CON, NUL.txt) for devices
  if (label.endsWith('.')) return `label "${label}" ends in ".", which Windows drops from a folder name; end it with a letter, digit, "_" or "-"`
  if (WINDOWS_DEVICE.test(label)) return `label "${label}" is the name of a device on Windows, where no folder can have it; choose another`
  // the journal too: a fleet's top folder is cleared of a single run's files, a folder of that name with them
  const reserved: readonly string[] = [...FLEET_FILES, ...REPORT_FILES, JOURNAL_FILE]
  if (reserved.includes(label.toLowerCase())) return `label "${label}" is the name of a report file of the fleet; choose another`
  return undefined
}

/**
 * Whether `label` shows `key`: whole in any form the reports hide it in (its case folded, base64,
 * hex, percent-encoded, a near-miss of it: the forms of lib/http/redact.ts), or half of it and more in
 * runs the reports hide (a base URL whose path held the key with a character escaped made the label
 * `…-sk_live_4eC39HqLyjWD-61rjtT1zdp7dc-v1`). The reports show such a label as [REDACTED], but its
 * folder keeps the name as it is, which merge, a CI artifact's listing and every shell show
 * (securehunt13: the key upper-cased, or in base64url, in the path of a --base-url). A key shorter
 * than NEAR_MISS_MIN_KEY_LENGTH is looked for as it is: its forms could be ordinary words; the runs
 * of a key of words (no digit, one case) are not: an address of the same words is noted instead.
 */
function labelShowsKey(label: string, key: string): boolean {
  if (key.length < NEAR_MISS_MIN_KEY_LENGTH || label.includes(key)) return key.length >= NEAR_MISS_MIN_KEY_LENGTH
  if (redactorSteps(key).forms(label) !== label) return true
  // a key of words (petstore-local-api-key: no digit, one case) named after its service shares them with its address, which says so (KEY_IN_BASE_URL)
  if (!/[0-9]/.test(key) && !(/[a-z]/.test(key) && /[A-Z]/.test(key))) return false
  const hidden = createRedactor(key)(label)
  return hidden !== label && label.length - hidden.split(REDACTED).join('').length >= key.length / 2
}

/**
 * The first of `keys` that `label` shows (labelShowsKey), or -1. One redactor of every key, the one
 * the fleet's reports are redacted with, tells first whether the label shows any: each key's forms and
 * redactor made for each label took a fleet of ten 1 s of CPU before its first request, a quarter of
 * its whole run (review55); a label that shows one is rare, and exits 2.
 */
export function keyShownBy(label: string, keys: readonly string[]): number {
  if (createRedactor(...keys)(label) === label) return -1
  return keys.findIndex((key) => labelShowsKey(label, key))
}
