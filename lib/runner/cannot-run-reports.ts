/**
 * The reports of a run that could not be made (exit 2): results.json, junit.xml (one test case in
 * error, naming why), summary.md and report.html, each saying so. They replace whatever an earlier
 * run left in the report directory, so a CI artifact never shows an older run's PASS.
 */
import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { escapeHtml } from '../reporters/html-text.ts'
import { escapeMarkdown } from '../reporters/markdown-summary.ts'
import { clearReports, clearRunFolder, makeFolder, REPORT_FILES, shownPath } from './report-files.ts'
import { portableJson } from '../json/portable-json.ts'
import type { InterruptExit } from '../result/run-result.ts'

export interface CannotRunFacts {
  tool: { name: string; version: string }
  reason: string
  startedAt: Date
  baseUrl?: string
  /** The run had started, and failed on its way: its journal.ndjson (what it sent) is kept. */
  keepJournal?: boolean
  /** A signal stopped the command before the run started: the process's exit code, 130 or 143 (else 2). */
  interruptExit?: InterruptExit
}

/** results.json of a run that could not be made. */
export interface CannotRunResult {
  tool: CannotRunFacts['tool']
  startedAt: string
  baseUrl: string | null
  verdict: 'error'
  /** 2, or 130 and 143 when a signal stopped the command before the run started. */
  exitCode: 2 | InterruptExit
  /** Why the run could not be made. */
  error: string
  summary: { requests: 0; writes: 0; recordsCreated: 0 }
  rules: []
  ledger: []
  journal: []
}

const xml = (text: string) =>
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd').replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** Writes the four reports to `reportDir` (relative to `userCwd`); returns their paths as the user reads them, and summary.md. */
export function writeCannotRunReports(reportDir: string, userCwd: string, facts: CannotRunFacts): { paths: string[]; markdown: string; result: CannotRunResult } {
  const dir = resolve(userCwd, reportDir)
  makeFolder(dir)
  if (facts.keepJournal) clearReports(dir, REPORT_FILES)
  else clearRunFolder(dir)
  const result: CannotRunResult = {
    tool: facts.tool,
    startedAt: facts.startedAt.toISOString(),
    baseUrl: facts.baseUrl ?? null,
    verdict: 'error',
    exitCode: facts.interruptExit ?? 2,
    error: facts.reason,
    summary: { requests: 0, writes: 0, recordsCreated: 0 },
    rules: [],
    ledger: [],
    journal: [],
  }
  const headline = facts.interruptExit === undefined ? 'The conformance run could not be made (exit 2)' : `The conformance run was stopped before it started (exit ${facts.interruptExit})`
  const files: Record<string, string> = {
    'results.json': portableJson(result, 2) + '\n',
    'junit.xml': `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="petstore-categories-conformance" tests="1" failures="0" errors="1">
  <testsuite name="conformance run" tests="1" failures="0" errors="1" skipped="0" timestamp="${result.startedAt}">
    <testcase classname="conformance-run" name="the run could be made" time="0">
      <error message="${xml(facts.reason)}" type="RunNotMade">${xml(`${headline}: ${facts.reason}\nNo request was judged; no rule passed or failed.`)}</error>
    </testcase>
  </testsuite>
</testsuites>
`,
    'summary.md': `## ❌ ${headline}\n\n${escapeMarkdown(facts.reason, 2000)}\n\nNo request was judged; no rule passed or failed. Records created: none.\n`,
    'report.html': `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Conformance run not made</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}h1{color:#a40000}</style></head>
<body><h1>${escapeHtml(headline)}</h1>
<p><strong>Why:</strong> ${escapeHtml(facts.reason)}</p>
${facts.baseUrl ? `<p><strong>Base URL:</strong> <code>${escapeHtml(facts.baseUrl)}</code></p>` : ''}
<p><strong>When:</strong> ${escapeHtml(result.startedAt)}</p>
<p>No request was judged; no rule passed or failed. Records created: none.</p>
<footer><p>Written by ${escapeHtml(facts.tool.name)} ${escapeHtml(facts.tool.version)}.</p></footer>
</body></html>
`,
  }
  const paths = Object.entries(files).map(([name, text]) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return shownPath(path, userCwd)
  })
  return { paths, markdown: files['summary.md'], result }
}
