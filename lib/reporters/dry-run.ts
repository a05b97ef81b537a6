/**
 * The plan a dry run shows (`--dry-run`, lib/cli/dry-run.ts): the requests a run with the given
 * options sent to the embedded reference server, written as the deployment would get them (its
 * base URL, the key as $CONFORM_API_KEY, secret --header values redacted, bodies whole), the POSTs
 * among them, the ones the options kept back, the checks those options leave unverified, and what
 * of it depends on the deployment's answers. Read from the run's journal, as every count of a real
 * run is: no second planner. The terminal gets one line a request; dry-run.md and dry-run.json
 * every request whole.
 */
import type { JournalEntry } from '../http/journal.ts'
import type { RunResult } from '../result/run-result.ts'
import type { SkipCause } from '../checks/skip-causes.ts'
import { causeWords, plural } from './wording.ts'
import { MAX_WIDTH, terminalText } from './terminal-summary.ts'
import { visibleValue } from './visible-text.ts'

/** Skips the user's options ask for: the checks a dry run names as left unverified by them. */
const LIMIT_CAUSES: ReadonlySet<SkipCause> = new Set(['read-only', 'write-budget'])

export interface PlannedRequest {
  /** In the order the run sent them (concurrent requests may go in another order). */
  n: number
  method: string
  url: string
  /** The declared POST probe (docs/inputs.md), when the request is one. */
  probe?: string
  headers: Record<string, string>
  body?: string
  bodyBase64?: string
  /** The reference server's status: what a conforming deployment answers. */
  referenceStatus?: number
}

export interface DryRunPlan {
  dryRun: true
  /** Where nothing was sent. */
  baseUrl: string
  /** The seed the values were drawn with: the same --seed sends the same values. */
  seed?: number
  options: RunResult['options']
  /** The run's first line about writes (describeWritePlan): the bounds whatever the answers. */
  writes: string
  requests: PlannedRequest[]
  /** POSTs the options kept back (journalled as refused), with why. */
  keptBack: { method: string; url: string; probe?: string; reason?: string; detail?: string }[]
  /** Checks of each rule that the options (--read-only, --max-writes) leave unverified. */
  unverified: { rule: string; level: string; checks: number; why: string }[]
  /** What differs when the deployment answers otherwise than the reference server. */
  dependsOnAnswers: string[]
  /** The run against the reference server ended before every check did (its --deadline): the list is short of the plan. */
  cutShort: boolean
}

/**
 * The plan from the run made against the reference server at `embeddedBaseUrl`, shown at `baseUrl`.
 * `redact`: the command line's; the journal's URLs come redacted (a key in the base path), and so
 * must both base URLs, or the requests showed the loopback address.
 */
export function dryRunPlan(result: RunResult, baseUrl: string, embeddedBaseUrl: string, writes: string, redact: (text: string) => string = (text) => text): DryRunPlan {
  const [from, to] = [redact(embeddedBaseUrl), redact(baseUrl).replace(/\/+$/, '')]
  const shown = (given: string) => {
    const url = redact(given)
    return url.startsWith(from) ? to + url.slice(from.length) : url
  }
  const journal: JournalEntry[] = result.journal ?? []
  const requests: PlannedRequest[] = []
  for (const entry of journal) {
    if (entry.outcome === 'refused') continue
    requests.push({
      n: requests.length + 1,
      method: entry.method,
      url: shown(entry.url),
      ...(entry.probe !== undefined ? { probe: entry.probe } : {}),
      headers: entry.headers ?? {},
      ...(entry.body !== undefined ? { body: entry.body } : {}),
      ...(entry.bodyBase64 !== undefined ? { bodyBase64: entry.bodyBase64 } : {}),
      ...(entry.status !== undefined ? { referenceStatus: entry.status } : {}),
    })
  }
  const keptBack = journal
    .filter((e) => e.outcome === 'refused')
    .map((e) => ({ method: e.method, url: shown(e.url), ...(e.probe !== undefined ? { probe: e.probe } : {}), ...(e.reason !== undefined ? { reason: e.reason } : {}), ...(e.detail !== undefined ? { detail: e.detail } : {}) }))
  const unverified = result.rules.flatMap((rule) => {
    const limited = rule.checks.filter((c) => c.status === 'skip' && c.cause !== undefined && LIMIT_CAUSES.has(c.cause))
    if (limited.length === 0) return []
    const causes = [...new Set(limited.map((c) => c.cause as SkipCause))]
    const judged = rule.checks.length - limited.length
    const why = causes.map((c) => causeWords(c, result)).join('; ') + (judged > 0 ? ` (${plural(judged, 'other check')} of the rule run)` : ' (the rule is not verified)')
    return [{ rule: rule.id, level: rule.level, checks: limited.length, why }]
  })
  return { dryRun: true, baseUrl: redact(baseUrl), ...(result.options.seed !== undefined ? { seed: result.options.seed } : {}), options: result.options, writes, requests, keptBack, unverified, dependsOnAnswers: dependsOnAnswers(result.options, requests.filter((r) => r.method === 'POST').length, digitsName(requests)), cutShort: result.problems.some((p) => p.kind === 'deadline' || p.kind === 'interrupted') }
}

/** The name of digits create-numeric-name sent (its run id's five characters as a number), or undefined. */
function digitsName(requests: readonly { probe?: string; body?: string }[]): string | undefined {
  const body = requests.find((r) => r.probe === 'create-numeric-name')?.body
  try {
    const name = body === undefined ? undefined : (JSON.parse(body) as { name?: unknown }).name
    return typeof name === 'string' ? name : undefined
  } catch {
    return undefined
  }
}

/** What a run sends beyond, or instead of, a conforming server's plan, and when. */
function dependsOnAnswers(options: RunResult['options'], posts: number, digits?: string): string[] {
  // the name of digits is the run id's five characters read as a number: with the same --seed it differed from the real run's, and no line said so
  const digitsToo = digits === undefined ? '' : ` (the name of digits, ${JSON.stringify(digits)} here, is those five characters read as a number: it differs too)`
  const said: string[] = [
    `Names carry the run's own prefix, cf- and the last five characters of its run id, which differs in every run${digitsToo}; the id one create sends is the one the deployment gave an earlier create.`,
    options.seed !== undefined ? `The generated values were drawn with seed ${options.seed}: the real run sends the same ones with --seed ${options.seed}, other ones of the same kinds without it.` : 'The generated values differ in every run.',
    'A request answered 429 or 503 is waited out and sent again (a POST only after the list was read for it; under --max-writes a POST the list does not show is not sent again).',
    'A request whose connection closed before any answer goes again (a POST only when the list shows it was not stored, never under --max-writes).',
    'While a created record is missing from the list, the list is read again (--list-lag), and once more --list-lag after the last create was answered when one create took far longer than the others (1 s, and 4 times their median); a key refused mid-run is asked again with one GET or two.',
  ]
  if (options.readOnly) return [...said.slice(0, 2), 'Whatever the deployment answers, no POST is sent (--read-only).', ...said.slice(2, 3).map((s) => s.replace(/ \(a POST.*\)\./, '.'))]
  said.push(
    (options.confirm ?? 0) > 0
      ? `A check that fails is probed again before the verdict (--confirm ${options.confirm}): its requests go again, a POST's with a fresh name${options.maxWritesGiven ? `, within --max-writes ${options.maxWrites} (the POSTs above leave ${Math.max(0, options.maxWrites - posts)} places)` : ''}. Against the reference server nothing failed, so none of these is listed.`
      : 'A check that fails is not probed again (--confirm 0).',
    'A create refused for a long value is followed by POSTs of the same class of strings in plain and in short values (only to a service that refuses long values, within the budget).',
    'A create the deployment answers otherwise than 201 changes what follows it: a create that sends an earlier record\'s id is not sent while that one was refused, and one answered 201 wrongly (to a body it must refuse) is looked for in the list.',
  )
  return said
}

/** One line a request for the terminal: method, the URL from its path on, the probe, the credential, the body's start. */
export function dryRunTerminal(plan: DryRunPlan, files: readonly string[]): string {
  const origin = URL.canParse(plan.baseUrl) ? new URL(plan.baseUrl).origin : ''
  const posts = plan.requests.filter((r) => r.method === 'POST').length
  const lines = [
    `Dry run: nothing was sent to ${terminalText(plan.baseUrl)}. The run these options ask for was made against the embedded reference server (on loopback), and here is what it sent, as the deployment would get it.`,
    terminalText(plan.writes, 4 * MAX_WIDTH),
    `Requests: ${plan.requests.length} (${posts} POST${posts === 1 ? '' : 's'}, ${plan.requests.length - posts} GET${plan.requests.length - posts === 1 ? '' : 's'}), in the order they went; the key shows as $CONFORM_API_KEY.`,
    ...plan.requests.map((r) => {
      const auth = Object.entries(r.headers).find(([name]) => name.toLowerCase() === 'authorization')?.[1]
      const parts = [`${String(r.n).padStart(4)} ${r.method.padEnd(4)} ${r.url.startsWith(origin) ? r.url.slice(origin.length) : r.url}`, r.probe ? `[${r.probe}]` : '', auth === undefined ? '(no Authorization)' : `Authorization: ${auth}`, r.body !== undefined ? visibleValue(r.body) : r.bodyBase64 !== undefined ? '(body of bytes: see dry-run.json)' : '']
      return terminalText(parts.filter((p) => p !== '').join('  '))
    }),
  ]
  if (plan.keptBack.length > 0) {
    const byReason = new Map<string, number>()
    for (const k of plan.keptBack) byReason.set(k.reason ?? 'other', (byReason.get(k.reason ?? 'other') ?? 0) + 1)
    lines.push(`Kept back, not sent: ${plural(plan.keptBack.length, 'request')}: ${[...byReason].map(([reason, n]) => `${n} ${KEPT_WORDS[reason] ?? reason}`).join(', ')}.`)
  }
  if (plan.unverified.length > 0) {
    lines.push(`Not verified under these options: ${plural(plan.unverified.reduce((n, u) => n + u.checks, 0), 'check')} of ${plural(plan.unverified.length, 'rule')}:`)
    for (const u of plan.unverified) lines.push(terminalText(`  ${u.rule} (${u.level}): ${plural(u.checks, 'check')}, ${u.why}`))
  } else if (plan.options.rules.length > 0) lines.push(`Only the selected rules are checked (--rule ${plan.options.rules.join(', --rule ')}); none of their checks is left unverified by the write options.`)
  lines.push('What depends on the deployment\'s answers (this list is what a conforming deployment gets):', ...plan.dependsOnAnswers.map((s) => terminalText(`  - ${s}`, 4 * MAX_WIDTH)))
  if (plan.cutShort) lines.push('The run against the reference server ended before its checks did (--deadline): the list is short of what a run sends.')
  lines.push(`Every request whole (headers, bodies): ${files.join(', ')}. Nothing was checked: this is no verdict on the deployment.`)
  return lines.join('\n') + '\n'
}

// the setting is named by the Writes line above (a flag, or CONFORM_READ_ONLY in a profile): not here
const KEPT_WORDS: Record<string, string> = { 'read-only': 'as the run is read-only', 'write-budget': 'over the write budget', 'not-needed': 'that no selected rule (--rule) judges' }

/** dry-run.md: the facts, then every request whole, as an HTTP message. */
export function dryRunMarkdown(plan: DryRunPlan): string {
  const out = [`# Dry run: the requests a run would send to ${visibleValue(plan.baseUrl)}`, '', 'Nothing was sent to the base URL: the run these options ask for was made against the embedded reference server (a conforming server on loopback), and each request it sent is written here as the deployment would get it. The key shows as `$CONFORM_API_KEY`. Nothing was checked: this is no verdict on the deployment.', '', `- ${plan.writes}`, `- Requests: ${plan.requests.length}, of which POSTs: ${plan.requests.filter((r) => r.method === 'POST').length}; kept back by the options: ${plan.keptBack.length}`, ...(plan.seed !== undefined ? [`- Seed: ${plan.seed}`] : [])]
  if (plan.cutShort) out.push('- The run against the reference server ended before its checks did (--deadline): the list is short of what a run sends.')
  out.push('', '## What depends on the deployment\'s answers', '', ...plan.dependsOnAnswers.map((s) => `- ${s}`))
  out.push('', '## Not verified under these options', '')
  if (plan.unverified.length === 0) out.push('None: every check of the selected rules can run.')
  for (const u of plan.unverified) out.push(`- \`${u.rule}\` (${u.level}): ${plural(u.checks, 'check')}, ${u.why}`)
  if (plan.keptBack.length > 0) out.push('', '## Kept back, not sent', '', ...plan.keptBack.map((k) => `- ${k.method} ${visibleValue(k.url)}${k.probe ? ` (${k.probe})` : ''}: ${k.detail ?? k.reason ?? ''}`))
  out.push('', '## Requests', '')
  for (const r of plan.requests) {
    const message = [`${r.method} ${r.url}`, ...Object.entries(r.headers).map(([name, value]) => `${name}: ${value}`), ...(r.body !== undefined ? ['', r.body] : r.bodyBase64 !== undefined ? ['', `(bytes, base64) ${r.bodyBase64}`] : [])].map(visibleValue).join('\n')
    const fence = '`'.repeat(Math.max(3, ...[...message.matchAll(/`+/g)].map((m) => m[0].length + 1)))
    out.push(`### ${r.n}. ${r.method}${r.probe ? ` (${r.probe})` : ''}${r.referenceStatus !== undefined ? `, the reference server answered ${r.referenceStatus}` : ''}`, '', fence + 'http', message, fence, '')
  }
  return out.join('\n')
}
