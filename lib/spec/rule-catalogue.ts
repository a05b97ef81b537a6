/** The rule catalogue of spec/rules.yaml: data about rules, read once, with no check logic in it. */
import { readSpecFile, specPath } from './spec-files.ts'

export const RULES_PATH = specPath('rules')

export type RuleLevel = 'must' | 'advisory'

export interface Rule {
  id: string
  title: string
  /** Section(s) of the interface document, e.g. "4.2, 7". */
  section: string
  /** The sentences of the interface document the rule rests on, quoted. */
  source: string[]
  /** Advisory rules: the HTTP convention they rest on, which the document does not state. */
  note?: string
  operations: string[]
  level: RuleLevel
}

let rules: Rule[] | undefined

export function ruleCatalogue(): Rule[] {
  rules ??= (readSpecFile('rules') as { rules: Rule[] }).rules
  return rules
}

export function findRule(id: string): Rule | undefined {
  return ruleCatalogue().find((rule) => rule.id === id)
}
