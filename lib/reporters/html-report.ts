/**
 * report.html: one self-contained page for a person (inline CSS, no script, no external asset;
 * a Content-Security-Policy forbids loading anything). Verdict and summary first, then each
 * failure with expected/actual, the exchanges and a curl command, the rule matrix, the rules not
 * verified and the ledger of records created.
 *
 * Everything a server sent is hostile text: it is escaped, its control and bidi characters are
 * shown as visible codes, and credential-bearing headers are masked here too, whatever the
 * runner's redaction already did.
 */
import { toCurl } from '../http/curl.ts'
import { KEY_PLACEHOLDER, KEY_STAND_INS } from '../http/redact.ts'
import type { Exchange } from '../http/exchange.ts'
import type { CheckResult, RunResult, Status } from './run-result.ts'
import {
  failedChecks,
  headline,
  notVerifiedByReason,
  partlyVerified,
  plural,
  reasonText,
  seconds,
  writeMode,
} from './wording.ts'

/** Escapes text for HTML content and quoted attributes; control and bidi characters become visible codes. */
export function escapeHtml(text: string): string {
  return visibleControls(String(text))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

/**
 * C0/C1 controls (but tab and line feed), DEL, lone surrogates, noncharacters and the bidi
 * controls that can make text read differently from what it is, written as ⟨U+XXXX⟩.
 */
function visibleControls(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .replace(
      /[\x00-\x08\x0B-\x1F\x7F-\x9F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
    )
}

const h = escapeHtml

/** Headers whose values are credentials; shown only when they carry no more than the key placeholder. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key'])

/**
 * A credential header's value as the report shows it: the placeholder form the suite sends
 * (`Bearer $CONFORM_API_KEY`), the run's own deliberately wrong keys, and empty tokens are
 * evidence; anything else could be a secret and is masked.
 */
export function shownHeaderValue(name: string, value: string, runId: string): string {
  if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) return value
  const rest = KEY_STAND_INS.reduce((text, s) => text.replaceAll(s.placeholder, ''), value)
    .replaceAll(`conform-${runId}-not-a-key`, '')
    .replace(/^\s*(Bearer|Basic)\b/i, '')
    .trim()
  return rest === '' ? value : `[hidden by the report: ${value.length} characters]`
}

const STATUS_CLASS: Record<Status, string> = { pass: 'pass', fail: 'fail', skip: 'skip', warn: 'warn' }
const STATUS_LABEL: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', skip: 'NOT VERIFIED', warn: 'ADVISORY' }

function badge(status: Status): string {
  return `<span class="badge ${STATUS_CLASS[status]}">${STATUS_LABEL[status]}</span>`
}

function when(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC').replace(/Z$/, ' UTC')
}

function headersText(headers: Record<string, string>, runId: string): string {
  return Object.entries(headers)
    .map(([name, value]) => `${name}: ${shownHeaderValue(name, value, runId)}`)
    .join('\n')
}

function exchangeBlock(exchange: Exchange, curl: string, runId: string, open: boolean): string {
  const { request, response, error } = exchange
  const answered = response ? `${response.status}` : `no response (${error?.code ?? 'error'})`
  const requestText = [`${request.method} ${request.url}`, headersText(request.headers, runId)].filter(Boolean).join('\n')
  const requestBody = request.body === undefined ? '(no body)' : request.body === '' ? '(empty body)' : request.body
  let responseHtml: string
  if (response) {
    const cut = response.bodyTruncated ? `<p class="hint">Body cut: the first part of ${response.bodyBytes} bytes is shown.</p>` : ''
    responseHtml = `<pre class="wire">${h(`HTTP ${response.status}\n${headersText(response.headers, runId)}`)}</pre>
<pre class="wire body">${h(response.body === '' ? '(empty body)' : response.body)}</pre>${cut}`
  } else {
    responseHtml = `<pre class="wire">${h(`${error?.code ?? 'NETWORK_ERROR'}: ${error?.message ?? 'no response'}`)}</pre>`
  }
  return `<details class="exchange"${open ? ' open' : ''}>
<summary>${h(`${request.method} ${request.url}`)} → ${h(answered)} <span class="muted">(${exchange.durationMs} ms)</span></summary>
<div class="pair">
<div><h5>Request</h5><pre class="wire">${h(requestText)}</pre><pre class="wire body">${h(requestBody)}</pre></div>
<div><h5>Response</h5>${responseHtml}</div>
</div>
<h5>Reproduce <span class="muted">(set CONFORM_API_KEY in your shell first)</span></h5>
<pre class="curl">${h(curl)}</pre>
</details>`
}

function failureBlock(check: CheckResult, runId: string, open: boolean): string {
  const failure = check.failure ?? { message: 'failed', expected: '-', actual: '-' }
  const exchanges = check.exchanges
    .map((exchange, i) => exchangeBlock(exchange, check.reproduce[i] ?? toCurl(exchange.request), runId, open && i === check.exchanges.length - 1))
    .join('\n')
  return `<div class="failure">
<h4>${h(check.name)}</h4>
<p class="message">${h(failure.message)}</p>
<table class="expected-actual">
<tr><th scope="row">Expected</th><td>${h(failure.expected)}</td></tr>
<tr><th scope="row">Actual</th><td>${h(failure.actual)}</td></tr>
</table>
${exchanges || '<p class="hint">No HTTP exchange behind this failure.</p>'}
</div>`
}

function failuresSection(result: RunResult): string {
  const failing = result.rules.filter((r) => r.status === 'fail')
  if (failing.length === 0) return ''
  const total = failing.reduce((sum, r) => sum + failedChecks(r).length, 0)
  const rules = failing
    .map((rule) => {
      const checks = failedChecks(rule)
      return `<article class="rule-failures" id="fail-${h(rule.id)}">
<h3>${badge('fail')} <code>${h(rule.id)}</code> ${h(rule.title)}</h3>
<p class="source">§${h(rule.section)} · ${rule.level === 'must' ? 'must' : 'advisory'} · ${checks.length} of ${rule.checks.length} checks failed</p>
<p class="source">The interface document says:</p>
${rule.source.map((s) => `<blockquote>${h(s)}</blockquote>`).join('\n')}
${checks.map((check, i) => failureBlock(check, result.runId, i === 0)).join('\n')}
</article>`
    })
    .join('\n')
  return `<section id="failures">
<h2>Failures: ${plural(total, 'check')} in ${plural(failing.length, 'rule')}</h2>
<p class="hint">Each failure shows what the interface document requires (expected), what the server did (actual), the request and response, and a curl command that sends the same request again.</p>
${rules}
</section>`
}

function problemsSection(result: RunResult): string {
  if (result.problems.length === 0) return ''
  return `<section id="problems">
<h2>Problems during the run</h2>
<p class="hint">These happened outside any single check; each one fails the run.</p>
<ul>${result.problems.map((p) => `<li><pre class="wire">${h(p)}</pre></li>`).join('')}</ul>
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
      const skipped = rule.status === 'skip' ? `<div class="muted">Not verified: ${h(reasonText(rule.checks.find((c) => c.skipReason)?.skipReason))}</div>` : ''
      return `<tr class="${STATUS_CLASS[rule.status]}"><td>${badge(rule.status)}</td><td>${link}<div>${h(rule.title)}</div>${notes}${skipped}</td><td>§${h(rule.section)}</td><td>${rule.level}</td><td>${counts}</td></tr>`
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
  const intro = result.options.readOnly
    ? '<p>None: this run was read-only and sent no POST.</p>'
    : result.ledger.length === 0
      ? '<p>None: no POST of this run was accepted.</p>'
      : `<p>The interface has no delete, so these records stay on the server. Every name the suite sends starts with <code>conform-${h(result.runId)}-</code>. A record created by a request the server should have refused is listed too.</p>`
  if (result.ledger.length === 0) return `<section id="ledger"><h2>Records created: 0</h2>${intro}</section>`
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
      const body = exchanges.get(entry.exchangeId)?.request.body
      const wrong = wronglyAccepted.get(entry.exchangeId)
      const note = wrong ? `<div class="wrong">should have been refused: fails <code>${h(wrong)}</code></div>` : ''
      return `<tr${wrong ? ' class="fail"' : ''}><td>${i + 1}</td><td><code>${h(entry.id)}</code></td><td>${h(entry.name)}${note}</td><td>${entry.status}</td><td><code class="sent">${h(body ?? '')}</code></td></tr>`
    })
    .join('\n')
  return `<section id="ledger">
<h2>Records created: ${result.ledger.length}</h2>
${intro}
<table class="ledger"><thead><tr><th>#</th><th>id</th><th>name</th><th>status</th><th>body sent</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</section>`
}

function summarySection(result: RunResult): string {
  const r = result.summary.rules
  const c = result.summary.checks
  const card = (n: number, label: string, cls: string) => `<div class="card ${cls}"><div class="n">${n}</div><div>${label}</div></div>`
  const selected = result.options.rules.length > 0 ? result.options.rules.join(', ') : 'all'
  return `<section id="summary">
<div class="cards">
${card(r.pass, 'rules passed', 'pass')}
${card(r.fail, 'rules failed', r.fail ? 'fail' : '')}
${card(r.skip, 'rules not verified', r.skip ? 'skip' : '')}
${card(r.warn, 'rules with advisory notes', r.warn ? 'warn' : '')}
${card(result.summary.requests, 'requests made', '')}
${card(result.summary.recordsCreated, 'records created', '')}
</div>
<dl class="facts">
<dt>Base URL</dt><dd><code>${h(result.baseUrl)}</code>${result.embeddedServer ? ' (embedded reference server)' : ''}</dd>
<dt>When</dt><dd>${h(when(result.startedAt))}</dd>
<dt>Duration</dt><dd>${h(seconds(result.durationMs))}</dd>
<dt>Checks</dt><dd>${c.pass + c.warn} passed, ${c.fail} failed, ${c.skip} skipped, of ${c.total}</dd>
<dt>Writes</dt><dd>${h(writeMode(result))}</dd>
<dt>Rules selected</dt><dd>${h(selected)}</dd>
<dt>Run id</dt><dd><code>${h(result.runId)}</code></dd>
<dt>Tool</dt><dd>${h(`${result.tool.name} ${result.tool.version}`)}</dd>
</dl>
</section>`
}

const CSS = `
:root { --pass: #1a7f37; --fail: #cf222e; --skip: #6e7781; --warn: #9a6700; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; margin: 0; }
main { padding: 0 24px 48px; max-width: 1200px; }
code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
h1 { font-size: 26px; margin: 0; }
h2 { border-bottom: 1px solid var(--line); padding-bottom: 4px; margin-top: 36px; }
h3 { margin: 24px 0 4px; }
h4 { margin: 16px 0 4px; }
h5 { margin: 12px 0 4px; font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #57606a; }
.verdict { padding: 20px 24px; color: #fff; }
.verdict.pass { background: var(--pass); }
.verdict.fail { background: var(--fail); }
.verdict p { margin: 4px 0 0; overflow-wrap: anywhere; }
nav { margin: 12px 0; }
nav a { margin-right: 16px; }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 20px 0; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 8px 16px; min-width: 130px; background: var(--soft); }
.card .n { font-size: 28px; font-weight: 600; }
.card.pass .n { color: var(--pass); } .card.fail .n { color: var(--fail); } .card.skip .n { color: var(--skip); } .card.warn .n { color: var(--warn); }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; }
.facts dt { font-weight: 600; } .facts dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; font-size: 12px; font-weight: 700; padding: 1px 8px; border-radius: 10px; color: #fff; white-space: nowrap; vertical-align: middle; }
.badge.pass { background: var(--pass); } .badge.fail { background: var(--fail); } .badge.skip { background: var(--skip); } .badge.warn { background: var(--warn); }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid var(--line); padding: 6px 8px; text-align: left; vertical-align: top; overflow-wrap: break-word; }
thead th { background: var(--soft); }
tr.fail td { background: #ffebe9; }
tr.skip td { color: #57606a; }
.muted { color: #57606a; font-weight: normal; }
.hint { color: #57606a; }
.source { margin: 0; color: #57606a; }
blockquote { margin: 6px 0; padding: 2px 12px; border-left: 3px solid var(--line); color: #57606a; font-style: italic; }
.failure { border: 1px solid var(--line); border-left: 4px solid var(--fail); border-radius: 6px; padding: 4px 16px 12px; margin: 12px 0; }
.message { font-weight: 600; margin: 4px 0 8px; overflow-wrap: anywhere; }
.expected-actual { width: auto; min-width: 50%; }
.expected-actual th { width: 90px; background: var(--soft); white-space: nowrap; overflow-wrap: normal; }
.expected-actual tr:last-child td { color: var(--fail); font-weight: 600; }
details.exchange { margin: 10px 0; }
details.exchange > summary { cursor: pointer; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; overflow-wrap: anywhere; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
@media (max-width: 800px) { .pair { grid-template-columns: 1fr; } }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 8px; margin: 4px 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24em; overflow: auto; }
pre.curl { background: #1f2328; color: #f6f8fa; }
code.sent { overflow-wrap: anywhere; }
ul.notes { margin: 4px 0; color: var(--warn); }
.wrong { color: var(--fail); font-weight: 600; }
@media print { details { display: block; } .verdict { -webkit-print-color-adjust: exact; print-color-adjust: exact; } pre { max-height: none; } }
`

export function htmlReport(result: RunResult): string {
  const verdict = result.verdict === 'pass' ? 'pass' : 'fail'
  const title = `${result.verdict === 'pass' ? 'PASS' : 'FAIL'} · Pet Store categories conformance · ${result.baseUrl}`
  const nav = [
    result.summary.rules.fail ? '<a href="#failures">Failures</a>' : '',
    '<a href="#rules">Rules</a>',
    '<a href="#not-verified">Not verified</a>',
    '<a href="#ledger">Records created</a>',
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
<style>${CSS}</style>
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
${failuresSection(result)}
${ruleMatrix(result)}
${notVerifiedSection(result)}
${ledgerSection(result)}
<footer class="hint"><p>Written by ${h(result.tool.name)} ${h(result.tool.version)}. The same results are in results.json (for scripts) and junit.xml (for CI). The API key never appears in reports: requests show it as <code>${h(KEY_PLACEHOLDER)}</code>.</p></footer>
</main>
</body>
</html>
`
}
