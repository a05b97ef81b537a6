/**
 * docs/rules.md, written from the rule catalogue (spec/rules.yaml) and the POSTs the case tables
 * declare (suites/cases/write-order.ts): never edited by hand. `npm run docs` writes it, and
 * test/spec/docs.test.ts fails when the checked-in copy is stale.
 */
import { ruleCatalogue } from '../../lib/spec/rule-catalogue.ts'
import { POST_PROBES } from '../../suites/cases/write-order.ts'

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ')

export function rulesPage(): string {
  const rules = ruleCatalogue()
  const lines = [
    '# The rules',
    '',
    '<!-- written by npm run docs from spec/rules.yaml and suites/cases/: do not edit -->',
    '',
    'Each rule quotes its sentences of the interface document ([spec/interface.md](../spec/interface.md)) in',
    '`spec/rules.yaml`; `--list-rules` prints the list. A must-rule that fails fails the run; an advisory rule',
    '(an HTTP convention the document does not state) only adds a note. What the document leaves open is',
    'never checked: extra response properties, list order, parameters on the media type, ids anywhere in',
    'int64 (compared exactly, also past 2^53), statuses it does not show, empty names, unknown request',
    'fields, repeated names, the length of a field, a byte order mark a parser ignores, the escapes a JSON',
    'writer chooses, categories that were there before the run. The inputs are in [inputs.md](inputs.md);',
    'back to the [README](../README.md).',
    '',
    '| rule | level | source | what a conforming server does |',
    '|---|---|---|---|',
    ...rules.map((r) => `| \`${r.id}\` | ${r.level} | §${r.section} | ${cell(r.title)} |`),
    '',
  ]
  for (const rule of rules) {
    const posts = POST_PROBES.filter((p) => p.serves.includes(rule.id)).map((p) => `\`${p.key}\``)
    lines.push(`## \`${rule.id}\``, '', `${cell(rule.title)} (${rule.level}, §${rule.section}).`, '')
    for (const sentence of rule.source) lines.push(`> ${cell(sentence)}`, '')
    if (rule.note) lines.push(`Convention: ${cell(rule.note)}`, '')
    lines.push(`Operations: ${rule.operations.map((o) => `\`${o}\``).join(', ')}.`, '')
    lines.push(posts.length > 0 ? `POSTs that probe it (${posts.length}): ${posts.join(', ')}.` : 'Probed by reads only: no POST is sent for it.', '')
  }
  return lines.join('\n')
}
