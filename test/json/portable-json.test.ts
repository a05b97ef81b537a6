/**
 * JSON files that every parser reads: a lone surrogate (which a server's answer can hold, and every
 * run's ledger does) is written as the text of its escape, not as the escape itself, which jq 1.6
 * refuses with the whole file. A strict reader stands in for jq here: every string of the parsed
 * file is well-formed UTF-16, and the text has no escape of a surrogate.
 */
import { afterAll, expect, test } from 'vitest'
import { portableJson } from '../../lib/json/portable-json.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'

const runs: ConformRun[] = []
afterAll(() => runs.forEach((r) => r.cleanup()))

/** What jq 1.6 refuses: a \uD800-\uDFFF escape that JSON.stringify wrote (after an even number of backslashes). */
const SURROGATE_ESCAPE = /(?<!\\)(?:\\\\)*\\u[dD][89a-fA-F][0-9a-fA-F]{2}/

/** Every string in a parsed JSON value, keys included. */
function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value]
  if (Array.isArray(value)) return value.flatMap(strings)
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => [k, ...strings(v)])
  return []
}

const wellFormed = (text: string) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text)

test('a lone surrogate becomes the text of its escape; a pair, and a backslash before "ud800", stay as they are', () => {
  expect(portableJson({ name: 'a\ud800b' })).toBe('{"name":"a\\\\ud800b"}')
  expect(JSON.parse(portableJson({ name: 'a\ud800b' })).name).toBe('a\\ud800b')
  expect(portableJson(['\udfff', '\udbff\udfff'])).toBe('["\\\\udfff","\udbff\udfff"]')
  // the text \ud800 (a backslash, then "ud800"): JSON.stringify escapes its backslash, and it stays text
  expect(portableJson('\\ud800')).toBe(JSON.stringify('\\ud800'))
  // a backslash, then a lone surrogate: both kept apart
  expect(JSON.parse(portableJson('\\\ud800'))).toBe('\\\\ud800')
  expect(portableJson({ a: [1, 'x'] }, 2)).toBe(JSON.stringify({ a: [1, 'x'] }, null, 2))
})

test('NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR are written as their escapes: the same strings, on one line for every splitter', () => {
  const value = { name: 'a\u2028b\u2029c\u0085d', 'k\u2028': ['\\\u2028'] }
  const text = portableJson(value)
  expect(text).toBe('{"name":"a\\u2028b\\u2029c\\u0085d","k\\u2028":["\\\\\\u2028"]}')
  expect(JSON.parse(text)).toEqual(value)
  expect(portableJson(value, 2)).not.toMatch(/[\u0085\u2028\u2029]/)
})

test("every JSON file of a run against the reference server (its ledger holds the lone surrogate it gave back) is one a strict parser reads", async () => {
  const run = await runConformInProcess(['--seed', '7'])
  runs.push(run)
  expect(run.code, run.stdout).toBe(0)
  // the journal's lines as Python's str.splitlines() cuts them (every line break Unicode has), not LF's only
  const journalLines = (run.files['journal.ndjson'] ?? '').trim().split(/\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/)
  const texts = { 'results.json': run.files['results.json'] ?? '', ...Object.fromEntries(journalLines.map((line, i) => [`journal line ${i + 1}`, line])) }
  // the ledger's record of the create with lone surrogates, as the reference server gave its name back
  expect(run.files['results.json']).toMatch(/"name": "cf-[a-z0-9]+-\\\\ud800/)
  for (const [file, text] of Object.entries(texts)) {
    expect(SURROGATE_ESCAPE.test(text), file).toBe(false)
    expect(strings(JSON.parse(text)).every(wellFormed), file).toBe(true)
  }
})

test('a CI log command a server wrote (##vso[, ##teamcity[, GitHub\'s ##[) has its first # as \\u0023: the same strings, and no command in the file printed', () => {
  const value = { name: '##[set-output name=verdict;]pass ##VSO[task.setvariable variable=A]1 ##teamcity[x] ###[y]', '##[add-mask]k': 'a # b ## c #[d]' }
  const text = portableJson(value, 2)
  expect(JSON.parse(text)).toEqual(value)
  expect(text.toLowerCase()).not.toMatch(/##(vso|teamcity)?\[/)
  expect(text).toContain('"a # b ## c #[d]"')
})

test('C1 controls (CSI U+009B starts a terminal sequence as ESC [ does), DEL and bidi controls are written as their escapes: a file printed (cat results.json, tail journal.ndjson) neither colours the terminal nor reorders its line', () => {
  // JSON.stringify escapes ESC and every C0 control, but leaves U+0080–U+009F as they are: a server's Retry-After held one
  const value = { 'retry-after': '1 \u009b31mred \u009d8;;https://evil.example\u009c', name: 'a\u007f\u202egnp.exe\u2066\u2069\u200e\u200f\u061c' }
  const text = portableJson(value, 2)
  expect(JSON.parse(text)).toEqual(value)
  expect(text).not.toMatch(/[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/)
  expect(text).toContain('1 \\u009b31mred \\u009d8;;https://evil.example\\u009c')
})
