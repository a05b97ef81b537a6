/**
 * A strict, small XML 1.0 reader for the tests of junit.xml: it refuses anything that is not
 * well-formed (unbalanced tags, bad or undefined entity references, characters XML cannot carry,
 * `]]>` in text, duplicate attributes, a second root, a DOCTYPE) and returns the element tree with
 * entities decoded, so that tests can assert what a CI system will read.
 */

export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  /** Text directly inside this element, decoded. */
  text: string
}

export class XmlError extends Error {}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*/
const ILLEGAL_CHAR = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

function decode(raw: string, where: number): string {
  return raw.replace(/&([^;]*);?/g, (match, ref: string) => {
    if (!match.endsWith(';')) throw new XmlError(`unterminated reference at ${where}: ${match.slice(0, 12)}`)
    if (ref in PREDEFINED) return PREDEFINED[ref]
    const numeric = /^#(?:x([0-9A-Fa-f]+)|([0-9]+))$/.exec(ref)
    if (!numeric) throw new XmlError(`undefined entity &${ref}; at ${where}`)
    const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2], 10)
    if (code > 0x10ffff) throw new XmlError(`character reference out of range at ${where}`)
    const char = String.fromCodePoint(code)
    if (ILLEGAL_CHAR.test(char)) throw new XmlError(`reference to a character XML cannot carry (&${ref};) at ${where}`)
    return char
  })
}

/** Parses a whole document; throws XmlError on anything not well-formed. */
export function parseXml(source: string): XmlElement {
  const bad = ILLEGAL_CHAR.exec(source)
  if (bad) throw new XmlError(`character U+${bad[0].codePointAt(0)!.toString(16)} not allowed in XML at ${bad.index}`)
  let i = 0
  const rest = () => source.slice(i)
  const skipSpace = () => {
    while (i < source.length && /[ \t\r\n]/.test(source[i])) i++
  }
  const skipMisc = () => {
    for (;;) {
      skipSpace()
      if (rest().startsWith('<!--')) {
        const end = source.indexOf('-->', i + 4)
        if (end < 0) throw new XmlError('unterminated comment')
        i = end + 3
      } else if (rest().startsWith('<?')) {
        const end = source.indexOf('?>', i + 2)
        if (end < 0) throw new XmlError('unterminated processing instruction')
        i = end + 2
      } else return
    }
  }
  if (rest().startsWith('<!DOCTYPE')) throw new XmlError('DOCTYPE not expected')
  skipMisc()
  if (rest().startsWith('<!DOCTYPE')) throw new XmlError('DOCTYPE not expected')

  const element = (): XmlElement => {
    if (source[i] !== '<') throw new XmlError(`expected an element at ${i}`)
    i++
    const name = NAME.exec(rest())?.[0]
    if (!name) throw new XmlError(`bad element name at ${i}`)
    i += name.length
    const node: XmlElement = { name, attributes: {}, children: [], text: '' }
    for (;;) {
      const before = i
      skipSpace()
      if (rest().startsWith('/>')) {
        i += 2
        return node
      }
      if (source[i] === '>') {
        i++
        break
      }
      if (i === before) throw new XmlError(`expected whitespace before an attribute at ${i}`)
      const attr = NAME.exec(rest())?.[0]
      if (!attr) throw new XmlError(`bad attribute name at ${i}`)
      i += attr.length
      skipSpace()
      if (source[i] !== '=') throw new XmlError(`expected = after ${attr} at ${i}`)
      i++
      skipSpace()
      const quote = source[i]
      if (quote !== '"' && quote !== "'") throw new XmlError(`attribute ${attr} not quoted at ${i}`)
      const end = source.indexOf(quote, i + 1)
      if (end < 0) throw new XmlError(`unterminated attribute ${attr}`)
      const raw = source.slice(i + 1, end)
      if (raw.includes('<')) throw new XmlError(`< in attribute ${attr} at ${i}`)
      if (attr in node.attributes) throw new XmlError(`duplicate attribute ${attr} on <${name}>`)
      // attribute-value normalisation: literal whitespace becomes a space, references stay what they say
      node.attributes[attr] = decode(raw.replace(/[\t\r\n]/g, ' '), i)
      i = end + 1
    }
    for (;;) {
      if (i >= source.length) throw new XmlError(`<${name}> is never closed`)
      if (rest().startsWith('</')) {
        i += 2
        const closing = NAME.exec(rest())?.[0]
        if (closing !== name) throw new XmlError(`</${closing}> closes <${name}> at ${i}`)
        i += closing.length
        skipSpace()
        if (source[i] !== '>') throw new XmlError(`bad end tag at ${i}`)
        i++
        return node
      }
      if (rest().startsWith('<![CDATA[')) {
        const end = source.indexOf(']]>', i)
        if (end < 0) throw new XmlError('unterminated CDATA')
        node.text += source.slice(i + 9, end)
        i = end + 3
      } else if (rest().startsWith('<!--') || rest().startsWith('<?')) {
        skipMisc()
      } else if (source[i] === '<') {
        node.children.push(element())
      } else {
        const end = source.indexOf('<', i)
        const raw = source.slice(i, end < 0 ? source.length : end)
        if (raw.includes(']]>')) throw new XmlError(`]]> in text at ${i}`)
        node.text += decode(raw.replace(/\r\n?/g, '\n'), i)
        i += raw.length
      }
    }
  }

  const root = element()
  skipMisc()
  if (i !== source.length) throw new XmlError(`content after the root element at ${i}`)
  return root
}

/** Every descendant element named `name`, in document order. */
export function elements(root: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = []
  const visit = (node: XmlElement) => {
    for (const child of node.children) {
      if (child.name === name) found.push(child)
      visit(child)
    }
  }
  visit(root)
  return found
}
