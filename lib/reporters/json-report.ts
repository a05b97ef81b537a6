/** results.json: the whole RunResult, for scripts and dashboards, each exchange written once (lib/result/results-file.ts). */
import { resultsFileOf } from '../result/results-file.ts'
import type { RunResult } from '../result/run-result.ts'
import { portableJson } from '../json/portable-json.ts'
import { jsonParses, linesParse, stringsRedacted } from './json-strings-redacted.ts'

export function jsonReport(result: RunResult): string {
  return portableJson(resultsFileOf(result), 2) + '\n'
}

/** A property name of the result model (camelCase), as jsonReport writes it: each at the start of its line, as no string's newline can be. */
const MODEL_NAME = /^( *"[a-z][A-Za-z0-9]*": )/m
/** A property name a redaction changed. */
const REDACTED_NAME = /^ *"[^"\n]*\[REDACTED\][^"\n]*": /gm
const redactedNames = (text: string) => text.match(REDACTED_NAME)?.length ?? 0

/**
 * jsonReport's text redacted whole, as every report is, but not its model's property names: a key
 * that is one of them ("verdict", "exitCode", "listLagMs") renamed it in every results.json, which
 * compare, merge and every script then read as no verdict. Where this redaction changed no name (every
 * run with a key no report's name holds) the text redacted whole is taken; else the text between
 * the names is redacted, a name the server gave (a header's) as the rest (redactedResult hid it).
 */
export function redactedJsonText(text: string, redact: (text: string) => string): string {
  const whole = redact(text)
  // nothing hidden (every run whose server echoes no key): no name changed, and neither text is searched for one (two passes over 0.8 MB a run)
  if (whole === text) return whole
  // a header's name the result's redaction hid already (a server that echoes the key in one) is no name of the model;
  // parsed only once something was hidden: a key that is a piece of JSON's own text (`1`, `true`, `:`) hid it (json-strings-redacted.ts)
  if (redactedNames(whole) === redactedNames(text) && jsonParses(whole)) return whole
  const named = text.split(MODEL_NAME).map((part, i) => (i % 2 === 1 ? part : redact(part))).join('')
  return jsonParses(named) ? named : stringsRedacted(text, redact, (name) => MODEL_NAME_ONLY.test(name))
}
const MODEL_NAME_ONLY = /^[a-z][A-Za-z0-9]*$/

/**
 * A property name of a line of JSON written by JSON.stringify (journal.ndjson's): a quote after `{`
 * or `,` is no string's (inside one it is escaped), and a string after one followed by `:` is a name.
 * Every name of a line is the suite's own: the model's, or a header's of a request it sent
 * (`content-type`, `user-agent`, a --header's), never the server's; a key `content-type` renamed that header of every POST.
 */
const LINE_NAME = /((?<=[{,])"[a-z][A-Za-z0-9]*(?:-[a-z0-9]+)*":)/
const REDACTED_LINE_NAME = /[{,]"[^"\n]*\[REDACTED\][^"\n]*":/g
const redactedLineNames = (text: string) => text.match(REDACTED_LINE_NAME)?.length ?? 0

/**
 * Lines of JSON (journal.ndjson's) redacted whole, but not their property names, as redactedJsonText
 * does for results.json: a key "status" renamed the status of every answered request's line.
 */
export function redactedJsonLines(text: string, redact: (text: string) => string): string {
  const whole = redact(text)
  // most turns' lines hide nothing: not scanned for names
  if (!whole.includes('[REDACTED]') || (redactedLineNames(whole) === redactedLineNames(text) && linesParse(whole))) return whole
  const named = text.split(LINE_NAME).map((part, i) => (i % 2 === 1 ? part : redact(part))).join('')
  return linesParse(named) ? named : stringsRedacted(text, redact, (name) => LINE_NAME_ONLY.test(name))
}
const LINE_NAME_ONLY = /^[a-z][A-Za-z0-9]*(?:-[a-z0-9]+)*$/
