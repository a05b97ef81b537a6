/**
 * fleet.html: the fleet's verdict, a line per deployment with a link to its report.html, and the
 * deployment × rule matrix. One file with report.html's style sheet inlined, and a
 * Content-Security-Policy that forbids loading or running anything; every text but the fixed
 * words is escaped (lib/reporters/html-text.ts), invisible characters shown as markers.
 */
import { badge, escapeHtml } from '../reporters/html-text.ts'
import { styleSheet } from '../reporters/html-report.ts'
import type { FleetDeployment, FleetResult } from './fleet-result.ts'
import { deploymentDetail, deploymentWord, failedWords, fleetHeadline, fleetTitle, knownDetail, linkTarget, NO_VERDICT_LEGEND, noStatusWord, ruleStatus, VERDICT_WORD, writesDetail } from './fleet-wording.ts'

const VERDICT_CLASS: Record<FleetDeployment['verdict'], string> = { pass: 'pass', fail: 'fail', incomplete: 'skip', error: 'skip' }

function deploymentRow(d: FleetDeployment): string {
  const failed = d.failedRules.map((id) => `<code>${escapeHtml(id)}</code>`).join(', ')
  // not judged: why comes first, then any failed rule, as deploymentDetail says it in the other formats
  const notJudged = (d.verdict === 'incomplete' || d.verdict === 'error') && d.reason !== undefined
  const known = d.knownRules !== undefined && (notJudged || failed) ? `; ${escapeHtml(knownDetail(d))}` : ''
  // the column's heading says "failed rules"; known failures after them need the list said failed, as the other formats say it
  const why = notJudged ? `${escapeHtml(d.reason as string)}${failed ? `; failed: ${failed}` : ''}${known}` : failed ? `${d.fault === undefined && !known ? '' : escapeHtml(failedWords(d))}${failed}${known}${d.reason !== undefined ? `; ${escapeHtml(d.reason)}` : ''}` : escapeHtml(deploymentDetail(d))
  return `<tr class="${VERDICT_CLASS[d.verdict]}"><td><a href="${escapeHtml(linkTarget(d.report))}">${escapeHtml(d.label)}</a></td><td><code>${escapeHtml(d.baseUrl)}</code></td><td><span class="badge ${VERDICT_CLASS[d.verdict]}">${deploymentWord(d)}</span> <span class="muted">exit ${d.exitCode}</span></td><td>${why}</td><td>${escapeHtml(writesDetail(d) ?? '—')}</td></tr>`
}

/** What the runs observed that is no failure (lib/fleet/fleet-result.ts), a line per note. */
function notes(fleet: FleetResult): string {
  const items = fleet.deployments.flatMap((d) => (d.notes ?? []).map((note) => `<li><a href="${escapeHtml(linkTarget(d.report))}">${escapeHtml(d.label)}</a>: ${escapeHtml(note)}</li>`))
  return items.length === 0 ? '' : `<h2 id="notes">Notes</h2>\n<ul>\n${items.join('\n')}\n</ul>`
}

function matrix(fleet: FleetResult): string {
  if (fleet.rules.length === 0) return ''
  const head = fleet.deployments.map((d) => `<th><a href="${escapeHtml(linkTarget(d.report))}">${escapeHtml(d.label)}</a></th>`).join('')
  let unjudged = false
  const rows = fleet.rules.map((rule) => {
    const cells = fleet.deployments.map((d) => {
      const status = ruleStatus(d, rule.id)
      if (status === undefined && noStatusWord(d) === '—') unjudged = true
      // a rule passed only by the baseline's known failures is no advisory note: it says so
      const known = d.knownRules?.includes(rule.id) ? '<span class="badge warn">KNOWN (BASELINE)</span>' : undefined
      return `<td>${status === undefined ? `<span class="muted">${noStatusWord(d)}</span>` : (known ?? badge(status))}</td>`
    })
    return `<tr><th scope="row"><code>${escapeHtml(rule.id)}</code> <span class="muted">${escapeHtml(rule.level)}</span><br><span class="muted">${escapeHtml(rule.title)}</span></th>${cells.join('')}</tr>`
  })
  return `<h2 id="matrix">Rules by deployment</h2>
<table><thead><tr><th>rule</th>${head}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>
<p class="hint">${unjudged ? `${NO_VERDICT_LEGEND} ` : ''}Each deployment's name links to its report.</p>`
}

export function fleetHtml(fleet: FleetResult): string {
  const verdictClass = fleet.exitCode === 0 ? 'pass' : 'fail'
  const title = fleetTitle(fleet)
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance of ${escapeHtml(title)}: ${escapeHtml(VERDICT_WORD[fleet.verdict])}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<style>
${styleSheet()}
</style></head>
<body>
<header class="verdict ${verdictClass}"><h1>Pet Store categories conformance: ${escapeHtml(title)}</h1>
<p>${escapeHtml(fleetHeadline(fleet))}</p></header>
<main>
<h2 id="deployments">Deployments</h2>
${
  fleet.deployments.length === 0
    ? '<p>No deployment was judged.</p>'
    : `<table><thead><tr><th>deployment</th><th>base URL</th><th>verdict</th><th>failed rules, or why not judged</th><th>writes</th></tr></thead>
<tbody>
${fleet.deployments.map(deploymentRow).join('\n')}
</tbody></table>`
}
${notes(fleet)}
${matrix(fleet)}
<footer><p class="muted">Written ${escapeHtml(fleet.generatedAt)} by ${escapeHtml(fleet.tool.name)} ${escapeHtml(fleet.tool.version)}. fleet.json holds the same verdicts; junit.xml one testsuite per deployment.</p></footer>
</main>
</body></html>
`
}
