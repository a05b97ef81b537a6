/**
 * The JUnit schemas CI tools validate a junit.xml against, written down as checks of the element
 * tree test/reporters/xml.ts reads (no schema validator, no network: what each schema allows, as
 * its XSD says it, of the elements a junit.xml of this suite writes).
 *
 * - Jenkins: the xunit plugin's JUnit input (`junit-10.xsd`, jenkinsci/xunit-plugin,
 *   src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/) validates every file before
 *   it reads it, and a file that does not validate is not read. Its <testsuites> takes name,
 *   time, tests, failures and errors only: no skipped, no timestamp (those are <testsuite>'s).
 * - Maven Surefire's report schema (`surefire-test-report.xsd`, apache/maven-surefire,
 *   maven-surefire-plugin/src/site/resources/xsd/), which tools that take "Surefire XML" follow:
 *   one <testsuite> a file (so each of ours on its own), skipped required on it, a <testcase>'s
 *   time required (a float), properties before the test cases, at most one <skipped> and one
 *   <error> a test case.
 *
 * Each function returns what breaks its schema, as `element: why` lines; none, the file validates.
 */
import type { XmlElement } from './xml.ts'

/** junit-10.xsd's SUREFIRE_TIME: digits, optionally grouped by thousands with commas, and at most three decimals. */
const SUREFIRE_TIME = /^(?:(?:[0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(?:\.[0-9]{0,3})?$/
/** xs:float as a time is written (no exponent, no INF/NaN, which no report writes). */
const XS_FLOAT = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)$/
/** xs:dateTime. */
const XS_DATE_TIME = /^-?[0-9]{4,}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?(?:Z|[+-][0-9]{2}:[0-9]{2})?$/

interface ElementRule {
  attributes: readonly string[]
  required?: readonly string[]
  children: readonly string[]
  patterns?: Record<string, RegExp>
}

function check(element: XmlElement, rule: ElementRule, where: string, out: string[]): void {
  for (const name of Object.keys(element.attributes)) if (!rule.attributes.includes(name)) out.push(`${where}: attribute ${name} is not allowed`)
  for (const name of rule.required ?? []) if (!(name in element.attributes)) out.push(`${where}: attribute ${name} is required`)
  for (const [name, pattern] of Object.entries(rule.patterns ?? {})) {
    if (name in element.attributes && !pattern.test(element.attributes[name])) out.push(`${where}: ${name}="${element.attributes[name]}" is not of its type`)
  }
  for (const child of element.children) if (!rule.children.includes(child.name)) out.push(`${where}: element ${child.name} is not allowed in it`)
}

const RESULT = { attributes: ['type', 'message'], children: [] } as const

const JENKINS: Record<string, ElementRule> = {
  testsuites: { attributes: ['name', 'time', 'tests', 'failures', 'errors'], children: ['testsuite'], patterns: { time: SUREFIRE_TIME } },
  testsuite: {
    attributes: ['name', 'tests', 'failures', 'errors', 'group', 'time', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file', 'log', 'url', 'version'],
    required: ['name', 'tests', 'failures', 'errors'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    patterns: { time: SUREFIRE_TIME },
  },
  properties: { attributes: [], children: ['property'] },
  property: { attributes: ['name', 'value'], required: ['name', 'value'], children: [] },
  testcase: {
    attributes: ['name', 'time', 'classname', 'group'],
    required: ['name'],
    children: ['skipped', 'error', 'failure', 'rerunFailure', 'rerunError', 'flakyFailure', 'flakyError', 'system-out', 'system-err'],
  },
  failure: RESULT,
  error: RESULT,
  skipped: RESULT,
  'system-out': { attributes: [], children: [] },
  'system-err': { attributes: [], children: [] },
}

/** What Jenkins' junit-10.xsd refuses in the document whose root is `root`. */
export function jenkinsJunit10Violations(root: XmlElement): string[] {
  const out: string[] = []
  if (root.name !== 'testsuites' && root.name !== 'testsuite') out.push(`${root.name}: not a root junit-10.xsd declares`)
  const walk = (element: XmlElement, where: string) => {
    const rule = JENKINS[element.name]
    if (rule === undefined) out.push(`${where}: element not declared`)
    else check(element, rule, where, out)
    element.children.forEach((child, i) => walk(child, `${where}/${child.name}[${i}]`))
  }
  walk(root, root.name)
  return out
}

const SUREFIRE_TESTCASE_ORDER = ['failure', 'rerunFailure', 'flakyFailure', 'skipped', 'error', 'rerunError', 'flakyError', 'system-out', 'system-err']

/** What Surefire's surefire-test-report.xsd refuses in `suite`, a <testsuite> as the root of its own file. */
export function surefireViolations(suite: XmlElement): string[] {
  const out: string[] = []
  const where = `testsuite "${suite.attributes.name}"`
  check(
    suite,
    {
      attributes: ['version', 'name', 'time', 'timestamp', 'tests', 'errors', 'skipped', 'failures', 'flakes', 'group'],
      required: ['name', 'tests', 'errors', 'skipped', 'failures'],
      children: ['properties', 'testcase'],
      patterns: { time: XS_FLOAT, timestamp: XS_DATE_TIME },
    },
    where,
    out,
  )
  const names = suite.children.map((c) => c.name)
  if (names.filter((n) => n === 'properties').length > 1 || (names.includes('properties') && names.indexOf('properties') > 0)) out.push(`${where}: properties must come once, first`)
  for (const properties of suite.children.filter((c) => c.name === 'properties')) {
    for (const property of properties.children) check(property, { attributes: ['name', 'value'], required: ['name', 'value'], children: [] }, `${where}/property`, out)
  }
  for (const testcase of suite.children.filter((c) => c.name === 'testcase')) {
    const at = `${where}/testcase "${testcase.attributes.name}"`
    check(testcase, { attributes: ['name', 'classname', 'group', 'time', 'timestamp'], required: ['name', 'time'], children: SUREFIRE_TESTCASE_ORDER, patterns: { time: XS_FLOAT, timestamp: XS_DATE_TIME } }, at, out)
    const order = testcase.children.map((c) => SUREFIRE_TESTCASE_ORDER.indexOf(c.name))
    if (order.some((n, i) => i > 0 && n < order[i - 1])) out.push(`${at}: children out of the schema's order`)
    for (const once of ['skipped', 'error', 'system-out', 'system-err']) if (testcase.children.filter((c) => c.name === once).length > 1) out.push(`${at}: more than one ${once}`)
    for (const result of testcase.children.filter((c) => ['failure', 'skipped', 'error'].includes(c.name))) check(result, RESULT, `${at}/${result.name}`, out)
  }
  return out
}
