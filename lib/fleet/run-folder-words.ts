/**
 * What to say of a report folder that exists and holds no results.json, from the files it does
 * hold: light (no runner), so that compare says it as merge does.
 */
import { existsSync, readdirSync } from 'node:fs'
import { basename, join } from 'node:path'
import { readReportText } from '../config/user-file.ts'
import { JOURNAL_FILE } from '../runner/report-files.ts'
import { WHERE_THE_PREFIX_IS } from '../reporters/record-prefix-words.ts'

/**
 * A folder with a journal and no results.json: a run stopped before its reports (a CI job killed
 * or timed out), whose journal still says what it sent. What to say of it, or undefined when the
 * folder holds no journal.
 */
function journalOfStoppedRun(dir: string): string | undefined {
  let text: string
  try {
    text = readReportText(join(dir, JOURNAL_FILE))
  } catch {
    return undefined
  }
  const sent = new Set<string>()
  const posts = new Set<string>()
  const refused = new Set<string>()
  const answered = new Set<string>()
  // on a connection: its on-wire line (undici handed it to a connection to write its head), or an answer
  const written = new Set<string>()
  const created = new Map<string, string>()
  const createdNames: string[] = []
  let runId: string | undefined
  for (const line of text.split('\n')) {
    try {
      const entry = JSON.parse(line) as { id?: unknown; method?: unknown; phase?: unknown; status?: unknown; created?: { id?: unknown; name?: unknown }; headers?: Record<string, unknown> }
      if (typeof entry.id !== 'string') continue
      // a request refused before it went (--read-only, the write budget, --rule) has one line, "refused":
      // under --max-writes 6 the journal lists the plan's other 66 POSTs so, and none of them was sent
      if (entry.phase === 'refused') {
        refused.add(entry.id)
        continue
      }
      // a dispatched line alone (killed before its on-wire line was written, the request maybe on the server) counts as sent
      sent.add(entry.id)
      if (entry.method === 'POST') posts.add(entry.id)
      if (entry.phase === 'on-wire') written.add(entry.id)
      if (entry.phase === 'ended' && typeof entry.status === 'number') answered.add(entry.id), written.add(entry.id)
      if (entry.phase === 'ended' && entry.status === 201 && entry.created !== undefined) {
        created.set(entry.id, `id ${String(entry.created.id)} ${JSON.stringify(entry.created.name ?? null)}`)
        createdNames.push(String(entry.created.name ?? ''))
      }
      runId ??= /\(run (\d{8}-\d{4}-([a-z0-9]{5}))\)/.exec(String(entry.headers?.['user-agent'] ?? ''))?.[2]
    } catch {
      // the last line of a process killed while writing it
    }
  }
  const notSent = [...refused].filter((id) => !sent.has(id)).length
  // a POST with no answer in the journal (none came, or the run was killed first): its write may have been made
  const unknown = [...posts].filter((id) => !answered.has(id)).length
  // of those, the ones no line says went out: a SIGKILL found most of them waiting for one of the --concurrency connections
  // (a run killed at 4 connections: 86 POSTs begun, 37 on the wire, 49 dispatched alone, all counted "sent" with no word of it)
  const unseen = [...posts].filter((id) => !written.has(id)).length
  const postsWritten = [...posts].filter((id) => written.has(id)).length
  const names = [...created.values()]
  const shownNames = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more (each in its ended line)` : '')
  // "0", "", "__proto__" and the name of digits carry the prefix in their descriptions, as the reports say
  const where = createdNames.every((n) => n.startsWith(`cf-${runId}-`)) ? 'names' : WHERE_THE_PREFIX_IS
  const prefix = runId !== undefined ? ` (${where} start with cf-${runId}-)` : ''
  const records = names.length > 0 ? `, ${names.length} of them answered 201, creating ${shownNames}${prefix}` : ''
  const unseenWords = unseen > 0 ? `, ${unseen} of which no line says went out (a request waiting for one of the connections has none; one written as the run was killed may have gone)` : ''
  const unanswered = unknown > 0 ? `; ${unknown} with no answer in it${unseenWords}: writes that may have been made, each line holding its body` : ''
  return `no such file, beside a ${JOURNAL_FILE} of ${sent.size} requests begun, ${written.size} of them written to a connection (${posts.size} POSTs: ${postsWritten} written${records}${unanswered})${notSent > 0 ? ` and ${notSent} refused before sending` : ''}: the run was stopped before it wrote its reports (a job killed or timed out); its journal says what it sent`
}

/**
 * A folder with a run's other reports and no results.json (a CI upload whose path or pattern left
 * it out): what to say of it, or undefined when the folder holds none of them.
 */
function reportsWithoutResults(dir: string): string | undefined {
  const held = ['report.html', 'summary.md', 'junit.xml'].filter((name) => existsSync(join(dir, name)))
  if (held.length === 0) return undefined
  return `no such file, beside ${held.join(', ')}: the folder holds a run's reports without the results.json a verdict is read from (an upload that left it out? upload the whole report folder)`
}

/**
 * A fleet's folder without its fleet.json (a fleet run killed before its page, which it now
 * removes before its first request): folders of deployments, each with a results.json or a
 * journal. What to say of it, or undefined when it holds none.
 */
function fleetWithoutPage(dir: string): string | undefined {
  let names: string[]
  try {
    names = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && ['results.json', JOURNAL_FILE].some((file) => existsSync(join(dir, e.name, file)))).map((e) => e.name)
  } catch {
    return undefined
  }
  if (names.length === 0) return undefined
  const shown = names.slice(0, 5).join(', ') + (names.length > 5 ? ` and ${names.length - 5} more` : '')
  return `no such file, nor a fleet.json, beside folders of deployments (${shown}): a fleet run stopped before it wrote its page (a job killed or timed out)? Merge the folders of its deployments instead (${basename(dir)}/*/); a deployment whose run did not finish has only its journal`
}

/**
 * Why a report folder that exists has no results.json, when its other files tell (a journal of a
 * run stopped before its reports, reports an upload took without it, the deployments' folders of a
 * fleet stopped before its page); undefined when they do not.
 */
export function whyNoResults(dir: string): string | undefined {
  // results.json is the first report a run writes: its other reports beside the journal mean the run
  // finished them, and the upload (or a hand) left results.json out; it read "stopped before it wrote its reports"
  return reportsWithoutResults(dir) ?? journalOfStoppedRun(dir) ?? fleetWithoutPage(dir)
}

/**
 * The base URL a run stopped before its reports sent to, from its journal (the list it read first,
 * `<base URL>/categories`, as redacted there), or undefined: merge's row of a job killed mid-run
 * named no address ("(not recorded)"), where its journal held every request's.
 */
export function journalBaseUrl(dir: string): string | undefined {
  let text: string
  try {
    text = readReportText(join(dir, JOURNAL_FILE))
  } catch {
    return undefined
  }
  for (const line of text.split('\n')) {
    try {
      const { method, url } = JSON.parse(line) as { method?: unknown; url?: unknown }
      if (method === 'GET' && typeof url === 'string' && /^https?:\/\/[^?#]*\/categories$/i.test(url)) return url.slice(0, -'/categories'.length)
    } catch {
      // the last line of a process killed while writing it
    }
  }
  return undefined
}
