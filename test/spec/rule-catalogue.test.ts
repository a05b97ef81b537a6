/** Both directions: every check names a catalogued rule, and every catalogued rule has a check. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { ROOT } from '../helpers/run-conform.ts'

function sources(dir: string): string {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n')
}

describe('spec/rules.yaml', () => {
  const rules = ruleCatalogue()

  test('every rule has a unique kebab-case id, a title, a section, a source sentence and a level', () => {
    const ids = rules.map((r) => r.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const rule of rules) {
      expect(rule.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/)
      expect(rule.title.length).toBeGreaterThan(10)
      expect(rule.section).toMatch(/^\d/)
      expect(['must', 'advisory']).toContain(rule.level)
    }
  })

  test('every source sentence is quoted from the interface document', () => {
    const normalise = (s: string) => s.replace(/`/g, '').replace(/\s+/g, ' ').toLowerCase()
    const document = normalise(readFileSync(join(ROOT, 'spec/interface.md'), 'utf8'))
    for (const rule of rules) {
      expect(rule.source.length, rule.id).toBeGreaterThan(0)
      for (const quote of rule.source) {
        // a table row is quoted as "Item: value" or "field (type): notes"; the value must be verbatim
        const verbatim = normalise(quote).replace(/\.$/, '').split(': ').pop() as string
        expect(document, `${rule.id}: "${quote}"`).toContain(verbatim)
      }
    }
  })

  test('advisory rules say which convention they rest on; must-rules rest on the document alone', () => {
    for (const rule of rules) expect(rule.note !== undefined, rule.id).toBe(rule.level === 'advisory')
  })

  test('every check in suites/ names a rule of the catalogue, and every rule has one', () => {
    const code = sources('suites') + sources('lib/suite-kit')
    const named = new Set([...code.matchAll(/check\(\s*'([a-z0-9-]+)'/g)].map((m) => m[1]))
    // a case's rule (rule: '…'), or the rule of a whole case table (INVALID_JSON_RULE = '…')
    for (const m of code.matchAll(/(?:rule: |_RULE = )'([a-z0-9-]+)'/g)) named.add(m[1])
    const catalogued = new Set(rules.map((r) => r.id))
    expect([...named].filter((id) => !catalogued.has(id))).toEqual([])
    expect([...catalogued].filter((id) => !named.has(id))).toEqual([])
  })

  test('the table of docs/rules.md lists every rule with its level, and no other', () => {
    const readme = readFileSync(join(ROOT, 'docs/rules.md'), 'utf8')
    const listed = [...readme.matchAll(/^\| `([a-z0-9-]+)` \| (must|advisory) \|/gm)].map((m) => `${m[1]} ${m[2]}`)
    expect(listed.sort()).toEqual(rules.map((r) => `${r.id} ${r.level}`).sort())
  })
})
