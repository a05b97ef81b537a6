/**
 * report.html: one self-contained page for a person (inline CSS, no script, no external asset;
 * a Content-Security-Policy forbids loading anything). Verdict and summary first, then each
 * failure with expected/actual, the exchanges and a curl command, the rule matrix, the rules not
 * verified and the ledger of records created.
 *
 * Everything a server sent is hostile text: it is escaped, and its invisible, control and bidi
 * characters are shown as markers (html-text.ts). The failures section is html-failures.ts, the
 * style sheet report.css.
 */
import { entryCheck } from '../result/baseline.ts'
import { tlsWords } from '../config/client-tls.ts'
import { baselineLine } from '../result/baseline.ts'
import { problemEntryLines } from '../result/known-problems.ts'
import { observedLines } from '../result/observed-behaviour.ts'
import { readFileSync } from 'node:fs'
import { KEY_PLACEHOLDER } from '../http/redact.ts'
import type { JournalEntry } from '../http/journal.ts'
import { failuresSection } from './html-failures.ts'
import { faultGroups } from '../result/fault-groups.ts'
import { samplingLine } from '../result/sampling-line.ts'
import { badge, escapeHtml as h } from './html-text.ts'
import { recordPrefixWords, WHERE_THE_PREFIX_IS } from './record-prefix-words.ts'
import { postsInDoubt } from '../result/record-prefixes.ts'
import { runCounts } from './run-counts.ts'
import { serverWaits, type RunResult, type Status } from '../result/run-result.ts'
import { failedChecks, faultAnsweredLabel, faultAnsweredWords, unprefixedNewWords, foundWords, headline, ledgerStatus, notVerifiedByReason, pacing, partlyVerified, plural, postAnswer, postsSent, recordedRun, ruleSkipText, seconds, writeMode } from './wording.ts'

let css: string | undefined

/**
 * report.css, inlined into every report so that the page stays one file. Read when the first
 * report is written; it must sit beside this module (package files and any bundle copy it).
 */
export function styleSheet(): string {
  css ??= readFileSync(new URL('./report.css', import.meta.url), 'utf8')
  // nothing in a style sheet of ours closes the element it is inlined into
  if (/<\/style/i.test(css)) throw new Error('report.css must not contain </style')
  return css
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC')
}

/** Failures that share a cause, one finding each, before the failures of each rule (lib/result/fault-groups.ts). */
function faultsSection(result: RunResult): string {
  const faults = faultGroups(result)
  if (faults.length === 0 && !samplingLine(result)) return ''
  const items = faults.map((f) => `<li>${h(f.line)}: ${f.rules.map((id) => `<code>${h(id)}</code>`).join(', ')}</li>`)
  const sampling = samplingLine(result)
  if (sampling) items.push(`<li>${h(sampling)}</li>`)
  return `<section id="faults"><h2>Faults (one cause, several failures)</h2><ul>${items.join('')}</ul></section>`
}

function problemsSection(result: RunResult): string {
  if (result.problems.length === 0) return ''
  return `<section id="problems">
<h2>Problems during the run</h2>
<p class="hint">These happened outside any single check; each one fails the run.</p>
<ul>${result.problems.map((p) => `<li><pre class="wire">${h(p.message)}</pre></li>`).join('')}</ul>
</section>`
}

function ruleMatrix(result: RunResult): string {
  const rows = result.rules
    .map((rule) => {
      const n = (s: Status) => rule.checks.filter((c) => c.status === s).length
      const counts = [`${n('pass') + n('warn')} passed`, n('fail') ? `<strong>${n('fail')} failed</strong>` : '', n('skip') ? `${n('skip')} skipped` : '']
        .filter(Boolean)
        .join(', ')
      const link = rule.status === 'fail' ? `<a href="#fail-${h(rule.id)}"><code>${h(rule.id)}</code></a>` : `<code>${h(rule.id)}</code>`
      const notes =
        rule.status === 'warn'
          ? `<ul class="notes">${[...new Set(rule.checks.flatMap((c) => c.notes))].map((note) => `<li>${h(note)}</li>`).join('')}</ul>`
          : ''
      const skipped = rule.status === 'skip' ? `<div class="muted">Not verified: ${h(ruleSkipText(rule))}</div>` : ''
      return `<tr class="${rule.status}"><td>${badge(rule.status)}</td><td>${link}<div>${h(rule.title)}</div>${notes}${skipped}</td><td>§${h(rule.section)}</td><td>${rule.level}</td><td>${counts}</td></tr>`
    })
    .join('\n')
  return `<section id="rules">
<h2>Rules</h2>
<p class="hint">Every rule of the interface document the suite checks, where the document says it (§ section), and what this run found. A must-rule that fails fails the run; advisory rules only add notes.</p>
<table class="matrix">
<thead><tr><th>Status</th><th>Rule</th><th>Section</th><th>Level</th><th>Checks</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</section>`
}

/** --baseline: the known failures it excused, apart from new ones, and its stale entries. */
function baselineSection(result: RunResult): string {
  const b = result.baseline
  if (!b) return ''
  const row = (e: { rule: string; code: string; check?: string }, why: string) => `<tr><td><code>${h(e.rule)}</code></td><td><code>${h(e.code)}</code></td><td>${h(entryCheck(e))}</td><td>${h(why)}</td></tr>`
  // what asks for a change of the file first: a stale entry below 104 known failures went unread
  const rows = [
    ...b.expired.map((e) => row(e, `expired ${e.expires ?? ''}: excused nothing`)),
    ...b.fixed.map((e) => row(e, 'fixed: no longer failing')),
    ...(b.noSuchCheck ?? []).map((e) => row(e, 'no such check in this version of the suite: renamed or removed?')),
    ...b.known.map((k) => row(k, `known: ${k.reason}`)),
  ]
  const problems = problemEntryLines(b).map((line) => `<li>${h(line)}</li>`).join('')
  return `<section id="baseline"><h2>Known failures (baseline)</h2><p>${h(baselineLine(b))}</p>${problems ? `<ul>${problems}</ul>` : ''}${rows.length ? `<table><thead><tr><th>rule</th><th>code</th><th>check</th><th>status</th></tr></thead><tbody>${rows.join('')}</tbody></table>` : ''}</section>`
}

/** What the deployment did where the document leaves it free: notes, never verdicts. */
function observedSection(result: RunResult): string {
  if (!result.observed) return ''
  const items = observedLines(result.observed).map((line) => `<li>${h(line)}</li>`)
  return `<section id="observed"><h2>Observed where the document is silent</h2><p class="hint">Notes, not verdicts: what this deployment does where the document leaves it free.</p><ul>${items.join('')}</ul></section>`
}

function notVerifiedSection(result: RunResult): string {
  const groups = notVerifiedByReason(result)
  const partial = partlyVerified(result)
  if (groups.length === 0 && partial.length === 0) {
    return `<section id="not-verified"><h2>Not verified</h2><p>Every rule was verified by at least one check${result.summary.checks.skip ? '' : ', and every check ran'}.</p></section>`
  }
  const whole = groups
    .map(
      (g) =>
        `<li><strong>${h(g.reason)}</strong>: ${g.rules.map((r) => `<code>${h(r.id)}</code> <span class="muted">(${h(r.title)})</span>`).join(', ')}</li>`,
    )
    .join('\n')
  const part = partial
    .map((p) => `<li><code>${h(p.rule.id)}</code>: ${plural(p.skipped, 'check')} skipped (${p.reasons.map(h).join('; ')})</li>`)
    .join('\n')
  return `<section id="not-verified">
<h2>Not verified</h2>
${groups.length ? `<p>This run says nothing about these rules: none of their checks ran.</p><ul>${whole}</ul>` : '<p>Every rule was verified by at least one check.</p>'}
${partial.length ? `<p>Verified by fewer checks than a full run:</p><ul>${part}</ul>` : ''}
</section>`
}

function ledgerSection(result: RunResult): string {
  // a POST that got no answer may have created a record: the ledger knows only the answered ones
  const unanswered = result.summary.unansweredWrites ?? 0
  const faulted = result.summary.faultAnsweredWrites ?? 0
  const mayHave =
    (unanswered > 0 ? ` ${h(plural(unanswered, 'POST'))} got no answer, and each may have created a record the server never told of: the journal (results.json) lists them, with what each sent${h(foundWords(result.summary.unansweredFound, unanswered))}.` : '') +
    (faulted > 0 ? ` ${h(plural(faulted, 'POST'))} got a server fault (a 5xx but 503, or a 503 or 429 under --max-writes), which does not say nothing was stored: each may have created a record too, and the journal lists them${h(foundWords(result.summary.faultAnsweredFound, faulted))}.` : '')
  const gained = unprefixedNewWords(result)
  const intro = result.options.readOnly
    ? '<p>None: this run was read-only and sent no POST.</p>'
    : result.ledger.length === 0
      ? `<p>${faulted > 0 ? 'None that the server answered as created.' : unanswered > 0 ? 'None that the server answered.' : 'None: no POST of this run was accepted.'}${mayHave}</p>${gained ? `<p>${h(gained)}.</p>` : ''}`
      : `<p>The interface has no delete, so these records stay on the server. The ${h(WHERE_THE_PREFIX_IS)} the suite sent ${h(recordPrefixWords(result))}. A record created by a request the server should have refused is listed too, and so is one a list the run read showed under its prefix though no answer announced it (its status says how it came to be).${mayHave}</p>${gained ? `<p>${h(gained)}.</p>` : ''}`
  if (result.ledger.length === 0) return `<section id="ledger"><h2>Records created: 0</h2>${intro}${inDoubtTable(result)}</section>`
  const exchanges = new Map(result.rules.flatMap((r) => r.checks.flatMap((c) => c.exchanges)).map((e) => [e.id, e]))
  // records created by a request that a failed check expected to be refused with a 4xx
  const wronglyAccepted = new Map<string, string>()
  for (const rule of result.rules) {
    for (const check of failedChecks(rule)) {
      if (!/^status 4\d\d\b/.test(check.failure?.expected ?? '')) continue
      for (const e of check.exchanges) if (!wronglyAccepted.has(e.id)) wronglyAccepted.set(e.id, rule.id)
    }
  }
  const rows = result.ledger
    .map((entry, i) => {
      const body = entry.body ?? exchanges.get(entry.exchangeId)?.request.body
      const wrong = wronglyAccepted.get(entry.exchangeId)
      const note = wrong ? `<div class="wrong">should have been refused: fails <code>${h(wrong)}</code></div>` : ''
      return `<tr${wrong ? ' class="fail"' : ''}><td>${i + 1}</td><td><code>${h(entry.id)}</code></td><td>${h(entry.name)}${note}</td><td>${h(ledgerStatus(entry))}</td><td><code class="sent">${h(body ?? '')}</code></td></tr>`
    })
    .join('\n')
  return `<section id="ledger">
<h2>Records created: ${result.ledger.length}</h2>
${intro}
<table class="ledger"><thead><tr><th>#</th><th>id</th><th>name</th><th>status</th><th>body sent</th></tr></thead>
<tbody>
${rows}
</tbody></table>${inDoubtTable(result)}
</section>`
}

/**
 * The POSTs that may have created a record no list showed (no answer, or a server fault): one row
 * each, with what is needed to look for it on the server: when it went, its traceparent (the
 * service's log line) and the body sent. The counts above name them; results.json's journal alone
 * listed them.
 */
function inDoubtTable(result: RunResult): string {
  const inDoubt = postsInDoubt(result)
  if (inDoubt.length === 0) return ''
  const rows = inDoubt.map((e) => `<tr><td>${h(e.onWireAt ?? e.at)}</td><td><code>${h(e.probe ?? '')}</code></td><td>${h(postAnswer(e))}</td><td><code>${h(e.headers?.traceparent ?? '')}</code></td><td><code class="sent">${h(e.body ?? '')}</code></td></tr>`)
  return `
<h3>POSTs that may have created a record: ${inDoubt.length}</h3>
<p>No list the run read showed their records, and their answers do not say that nothing was stored: look for each on the server, by its body or its traceparent.</p>
<table class="ledger"><thead><tr><th>sent</th><th>probe</th><th>answer</th><th>traceparent</th><th>body sent</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`
}

/**
 * Every POST that went out, whatever it was answered: an acceptance report says exactly what was
 * written to the deployment. A request sent again (after a 429 or 503, or a lost answer) is one row
 * with its attempts counted, each attempt's answer in order: a run behind a limit of 3 POSTs a second
 * had a row for each of 1,213 attempts of 84 requests, and its page weighed 969 KB.
 */
function postsSection(result: RunResult): string {
  if (result.options.readOnly) return ''
  const posts = postsSent(result)
  // a request's attempts after its first (attempt 2, 3 …: the same probe and body) join its row; a confirmation's probe is a request of its own
  const requests: JournalEntry[][] = []
  const latest = new Map<string, JournalEntry[]>()
  for (const e of posts) {
    const key = `${e.probe ?? ''}\u0000${e.body ?? e.bodyBase64 ?? ''}`
    const open = (e.attempt ?? 1) > 1 ? latest.get(key) : undefined
    if (open) open.push(e)
    else {
      const attempts = [e]
      requests.push(attempts)
      latest.set(key, attempts)
    }
  }
  const rows = requests.map((attempts, i) => {
    const first = attempts[0] as JournalEntry
    const last = attempts[attempts.length - 1] as JournalEntry
    const sent = attempts.length === 1 ? h(first.onWireAt ?? first.at) : `${h(first.onWireAt ?? first.at)} to ${h(last.onWireAt ?? last.at)}`
    const times = attempts.length === 1 ? '' : ` (${attempts.length} attempts)`
    return `<tr><td>${i + 1}</td><td>${sent}</td><td><code>${h(first.probe ?? '')}</code>${times}</td><td>${h(attemptAnswers(attempts))}</td><td><code class="sent">${h(first.body ?? (first.bodyBase64 !== undefined ? '(bytes: the journal has them in base64)' : '(no body)'))}</code></td></tr>`
  })
  const again = posts.length - requests.length
  return `<section id="posts">
<h2>POSTs sent: ${posts.length}</h2>
<p>Every POST that went out, in order: the probe that sent it (docs/inputs.md), its answer and its body, the key never in it${again > 0 ? `; a request sent again is one row, its attempts counted and their answers in order (${plural(requests.length, 'request')}, ${plural(again, 'attempt')} again; each attempt is a line of the journal)` : ''}. Those the options kept back are in the journal (results.json, journal.ndjson) as refused.</p>
${posts.length === 0 ? '' : `<table class="ledger"><thead><tr><th>#</th><th>sent</th><th>probe</th><th>answer</th><th>body sent</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`}
</section>`
}

/** The answers of a request's attempts in order, runs of one answer counted: "429 ×27, then 201". */
function attemptAnswers(attempts: readonly JournalEntry[]): string {
  const runs: { answer: string; n: number }[] = []
  for (const e of attempts) {
    const answer = postAnswer(e)
    const previous = runs[runs.length - 1]
    if (previous?.answer === answer) previous.n++
    else runs.push({ answer, n: 1 })
  }
  return runs.map((r) => (r.n === 1 ? r.answer : `${r.answer} ×${r.n}`)).join(', then ')
}

function summarySection(result: RunResult): string {
  const counts = runCounts(result)
  const r = result.summary.rules
  const c = result.summary.checks
  const card = (n: number, label: string, cls: string) => `<div class="card ${cls}"><div class="n">${n}</div><div>${label}</div></div>`
  const selected = result.options.rules.length > 0 ? result.options.rules.join(', ') : 'all'
  return `<section id="summary">
<div class="cards">
${card(r.pass, 'rules passed', 'pass')}
${card(r.fail, 'rules failed', r.fail ? 'fail' : '')}
${card(r.skip, 'rules not verified', r.skip ? 'skip' : '')}
${card(counts.rules.advisory, 'rules with advisory notes', counts.rules.advisory ? 'warn' : '')}
${counts.rules.known ? card(counts.rules.known, 'rules with known failures (baseline)', 'warn') : ''}
${card(result.summary.requests, 'requests made', '')}
${card(result.summary.recordsCreated, 'records created', '')}
</div>
<dl class="facts">
<dt>Base URL</dt><dd><code>${h(result.baseUrl)}</code>${result.embeddedServer ? ' (embedded reference server)' : ''}</dd>
<dt>When</dt><dd>${h(when(result.startedAt))}</dd>
<dt>Duration</dt><dd>${h(seconds(result.durationMs))}</dd>
<dt>Checks</dt><dd>${counts.checks.pass} passed, ${c.fail} failed, ${counts.checks.known ? `${counts.checks.known} known failures (baseline), ` : ''}${c.skip} skipped, of ${c.total}</dd>
<dt>Writes</dt><dd>${h(writeMode(result))}</dd>
<dt>Pacing</dt><dd>${h(pacing(result))}</dd>
<dt>Waits</dt><dd>${h(serverWaits(result))}</dd>${result.summary.unansweredWrites ? `\n<dt>POSTs without an answer</dt><dd>${result.summary.unansweredWrites}: each may have created a record (results.json lists them in its journal)${h(foundWords(result.summary.unansweredFound, result.summary.unansweredWrites))}</dd>` : ''}${result.summary.faultAnsweredWrites ? `\n<dt>${h(faultAnsweredLabel(result))}</dt><dd>${result.summary.faultAnsweredWrites}: ${h(faultAnsweredWords(result))}${h(foundWords(result.summary.faultAnsweredFound, result.summary.faultAnsweredWrites))}</dd>` : ''}
<dt>Rules selected</dt><dd>${h(selected)}</dd>${result.options.tls ? `\n<dt>TLS</dt><dd>${h(tlsWords(result.options.tls).slice('TLS: '.length))}</dd>` : ''}
<dt>Run id</dt><dd><code>${h(result.runId)}</code></dd>${result.traceId ? `<dt>Trace id</dt><dd><code>${h(result.traceId)}</code> (W3C traceparent of every request; each exchange shows its span)</dd>` : ''}
${result.options.seed === undefined ? '' : `<dt>Seed</dt><dd><code>${result.options.seed}</code> (--seed ${result.options.seed} sends the same generated inputs)</dd>\n`}<dt>Tool</dt><dd>${h(`${result.tool.name} ${result.tool.version}`)}</dd>
</dl>
</section>`
}

export function htmlReport(result: RunResult): string {
  const verdict = result.verdict === 'pass' ? 'pass' : 'fail'
  const title = `${recordedRun(result) ? 'RECORDED' : result.verdict.toUpperCase()} · Pet Store categories conformance · ${result.baseUrl}`
  const nav = [
    result.summary.rules.fail ? '<a href="#failures">Failures</a>' : '',
    '<a href="#rules">Rules</a>',
    '<a href="#not-verified">Not verified</a>',
    '<a href="#ledger">Records created</a>',
    result.options.readOnly ? '' : '<a href="#posts">POSTs sent</a>',
  ]
    .filter(Boolean)
    .join('')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${h(title)}</title>
<style>
${styleSheet()}</style>
</head>
<body>
<header class="verdict ${verdict}" id="verdict" data-verdict="${verdict}">
<h1>${h(headline(result))}</h1>
<p>Pet Store categories conformance of <code>${h(result.baseUrl)}</code>, ${h(when(result.startedAt))}, exit code ${result.exitCode}</p>
</header>
<main>
<nav>${nav}</nav>
${summarySection(result)}
${problemsSection(result)}
${faultsSection(result)}
${failuresSection(result)}
${baselineSection(result)}
${ruleMatrix(result)}
${notVerifiedSection(result)}
${observedSection(result)}
${ledgerSection(result)}
${postsSection(result)}
<footer class="hint"><p>Written by ${h(result.tool.name)} ${h(result.tool.version)}. The same results are in results.json (for scripts) and junit.xml (for CI). The API key never appears in reports: requests show it as <code>${h(KEY_PLACEHOLDER)}</code>.</p></footer>
</main>
</body>
</html>
`
}
