/**
 * The first object of a JSON text that names a member twice. RFC 8259 §4: the names within an
 * object SHOULD be unique, and receivers of one that repeats a name differ in what they make of it
 * (most keep the last value, as JSON.parse and this suite's parser do; some keep the first, some
 * refuse the object). The text is one a parser accepted: this only steps over it, without a stack
 * of calls, so any depth is read.
 */

export interface RepeatedName {
  /** Where the object is, as the schema checks write it: body, body[3], body.extra. */
  at: string
  /** The name repeated, escapes decoded ("\u0069d" is id). */
  name: string
}

interface Container {
  path: string
  /** The names met so far; undefined for an array. */
  names?: Set<string>
  /** The array's index, or the object's last name. */
  index: number
  name: string
}

const childPath = (parent: Container | undefined) =>
  parent === undefined ? 'body' : parent.names === undefined ? `${parent.path}[${parent.index}]` : `${parent.path}.${parent.name}`

/** The end of the string that opens at `at` (the index of its closing quote). */
function stringEnd(text: string, at: number): number {
  let end = text.indexOf('"', at + 1)
  for (;;) {
    let slashes = 0
    while (text.charCodeAt(end - 1 - slashes) === 92) slashes++
    if (slashes % 2 === 0 || end < 0) return end
    end = text.indexOf('"', end + 1)
  }
}

/** The first repeated name of a valid JSON text, or undefined when every object names its members once. */
export function firstRepeatedName(text: string): RepeatedName | undefined {
  const open: Container[] = []
  let expectName = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const parent = open[open.length - 1]
      open.push({ path: childPath(parent), ...(c === 123 ? { names: new Set<string>() } : {}), index: 0, name: '' })
      expectName = c === 123
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      open.pop()
    } else if (c === 44 /* , */) {
      const top = open[open.length - 1]
      if (top !== undefined && top.names === undefined) top.index++
      else expectName = true
    } else if (c === 34 /* " */) {
      const end = stringEnd(text, i)
      if (end < 0) return undefined
      if (expectName) {
        const raw = text.slice(i, end + 1)
        const name = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1)
        const top = open[open.length - 1] as Container
        if (top.names!.has(name)) return { at: top.path, name }
        top.names!.add(name)
        top.name = name
        expectName = false
      }
      i = end
    }
  }
  return undefined
}
