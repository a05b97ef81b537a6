/**
 * The failures section of report.html: per failing rule, one card per cause (failure-groups.ts)
 * with the failure code, message, expected and actual (monospace, whitespace kept, invisible
 * characters marked), and every check that met it with its evidence: the request and response
 * (credential headers masked here too, whatever the runner's redaction already did) and a curl
 * command that sends the request again.
 */
import { recurrenceWords } from '../result/fault-groups.ts'
import { baselineWords } from '../result/baseline.ts'
import { toCurl } from '../http/curl.ts'
import { KEY_STAND_INS } from '../http/redact.ts'
import type { Exchange } from '../http/exchange.ts'
import { failureGroups, type FailureGroup } from './failure-groups.ts'
import { badge, escapeHtml as h, htmlLegend, htmlValue } from './html-text.ts'
import type { CheckResult, RunResult } from '../result/run-result.ts'
import { otherKeyVariable, reproduceKeyWords } from './reproduce-key.ts'
import { plural } from './wording.ts'
import { headersLeftOutText, shownHeaders } from '../result/shown-headers.ts'

/** Headers whose values are credentials; shown only when they carry no more than the key placeholder. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'x-api-key', 'api-key'])

/**
 * A credential header's value as the report shows it: the placeholder form the suite sends
 * (`Bearer $CONFORM_API_KEY`), the run's own deliberately wrong keys, and empty tokens are
 * evidence, with whatever separators the suite put around them; anything else could be a secret
 * and is masked.
 */
export function shownHeaderValue(name: string, value: string, runId: string): string {
  if (!CREDENTIAL_HEADERS.has(name.toLowerCase())) return value
  const rest = KEY_STAND_INS.reduce((text, s) => text.replaceAll(s.placeholder, ''), value)
    .replaceAll(`conform-${runId}-not-a-key`, '')
    .replace(/\b(Bearer|Basic|Digest|Token)\b/gi, '')
    .trim()
  // what is left besides them: no secret when it holds no letter or digit (the colon of
  // `Bearer:$CONFORM_API_KEY`, a comma, spaces), which the evidence of the request needs
  return /[\p{L}\p{N}]/u.test(rest) ? `[hidden by the report: ${value.length} characters]` : value
}

function headersText(all: Record<string, string>, runId: string, leftBefore = 0): string {
  // an answer of thousands of headers shows its first ones, and counts the rest (lib/result/shown-headers.ts)
  const { shown, leftOut } = shownHeaders(all)
  const lines = Object.entries(shown).map(([name, value]) => `${name}: ${shownHeaderValue(name, value, runId)}`)
  return [...lines, ...(leftOut + leftBefore > 0 ? [headersLeftOutText(leftOut + leftBefore)] : [])].join('\n')
}

function exchangeBlock(exchange: Exchange, curl: string, runId: string, open: boolean): string {
  const { request, response, error } = exchange
  const answered = response ? `${response.status}` : `no response (${error?.code ?? 'error'})`
  const requestText = [`${request.method} ${request.url}`, headersText(request.headers, runId)].filter(Boolean).join('\n')
  const requestBody = request.body === undefined ? '(no body)' : request.body === '' ? '(empty body)' : request.body
  let responseHtml: string
  if (response) {
    const cut = response.bodyTruncated ? `<p class="hint">Body cut: the first part of ${response.bodyBytes} bytes is shown.</p>` : ''
    // interim answers (1xx) the client read past before this one (lib/http/interim-answers.ts)
    const interim = (response.interim ?? []).map((status) => `HTTP ${status} (interim, read past)\n`).join('')
    responseHtml = `<pre class="wire">${h(`${interim}HTTP ${response.status}\n${headersText(response.headers, runId, response.headersLeftOut)}`)}</pre>
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

/** A check's exchanges, the last one (the one the check judged) open when `open`. */
function evidence(check: CheckResult, runId: string, open: boolean): string {
  const exchanges = check.exchanges
    .map((exchange, i) => exchangeBlock(exchange, check.reproduce[i] ?? toCurl(exchange.request), runId, open && i === check.exchanges.length - 1))
    .join('\n')
  return exchanges || '<p class="hint">No HTTP exchange behind this failure.</p>'
}

/**
 * One card per cause. A cause met by one check reads as before (check name, message, values,
 * evidence); a cause met by several names how many, shows the message and values once, and lists
 * every check, each opening onto its own evidence.
 */
function failureCard(group: FailureGroup, runId: string, anchor: string, open: boolean): string {
  const { failure, checks } = group
  const recurred = recurrenceWords(checks)
  const known = baselineWords(checks)
  const code = ` <span class="code" title="failure code">${h(failure.code)}</span>${recurred ? ` <span class="recurrence" title="probed again (--confirm)">${h(recurred)}</span>` : ''}${known ? ` <span class="recurrence" title="--baseline">baseline: ${h(known)}</span>` : ''}`
  const values = `<table class="expected-actual">
<tr><th scope="row">Expected</th><td>${htmlValue(failure.expected)}</td></tr>
<tr><th scope="row">Actual</th><td>${htmlValue(failure.actual)}</td></tr>
</table>
${htmlLegend([failure.message, failure.expected, failure.actual])}`
  if (checks.length === 1) {
    return `<div class="failure" id="${anchor}">
<h4>${h(checks[0].name)}</h4>
<p class="message">${htmlValue(failure.message)}${code}</p>
${values}
${evidence(checks[0], runId, open)}
</div>`
  }
  const instances = checks
    .map(
      (check, i) => `<li id="${anchor}-${i + 1}"><details${open && i === 0 ? ' open' : ''}><summary>${h(check.name)}</summary>
${evidence(check, runId, open && i === 0)}
</details></li>`,
    )
    .join('\n')
  return `<div class="failure group" id="${anchor}" data-checks="${checks.length}">
<h4><span class="count">${checks.length} checks</span> failed the same way</h4>
<p class="message">${htmlValue(failure.message)}${code}</p>
${values}
<h5>The ${checks.length} checks <span class="muted">(each opens onto its request, response and curl command)</span></h5>
<ol class="instances">
${instances}
</ol>
</div>`
}

export function failuresSection(result: RunResult): string {
  const failing = result.rules.filter((r) => r.status === 'fail')
  if (failing.length === 0) return ''
  let total = 0
  let causes = 0
  const rules = failing
    .map((rule) => {
      const groups = failureGroups(rule)
      const failed = groups.reduce((sum, g) => sum + g.checks.length, 0)
      total += failed
      causes += groups.length
      const byCause = groups.length < failed ? `, ${plural(groups.length, 'cause')}` : ''
      return `<article class="rule-failures" id="fail-${h(rule.id)}">
<h3>${badge('fail')} <code>${h(rule.id)}</code> ${h(rule.title)}</h3>
<p class="source">§${h(rule.section)} · ${rule.level === 'must' ? 'must' : 'advisory'} · ${failed} of ${rule.checks.length} checks failed${byCause}</p>
<p class="source">The interface document says:</p>
${rule.source.map((s) => `<blockquote>${h(s)}</blockquote>`).join('\n')}
${groups.map((group, i) => failureCard(group, result.runId, `fail-${h(rule.id)}-${i + 1}`, i === 0)).join('\n')}
</article>`
    })
    .join('\n')
  const byCause = causes < total ? ` (${plural(causes, 'cause')})` : ''
  return `<section id="failures">
<h2>Failures: ${plural(total, 'check')} in ${plural(failing.length, 'rule')}${byCause}</h2>
<p class="hint">Each failure shows what the interface document requires (expected) and what the server did (actual), character for character, then the request and response and a curl command that sends the same request again. Checks of a rule that failed for the same reason (same code, message, expected and actual) are one entry that lists them all.</p>
${otherKeyVariable(result) !== undefined ? `<p class="hint">Run the curl commands ${h(reproduceKeyWords(result))}.</p>\n` : ''}${rules}
</section>`
}
