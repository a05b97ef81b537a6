/**
 * The name a mistyped one was most likely meant to be (`--max-write` for `--max-writes`,
 * `--readonly` for `--read-only`, a rule id with a letter missing), as git and npm suggest one:
 * the one known name it begins (`--rate` for `--rate-limit`), else the nearest within an edit for
 * every four characters (at least one: `--rate` is not `--rule`). Case, dashes and underscores are
 * not counted.
 */

/** Edits from `a` to `b`: a letter added, dropped, changed, or two neighbours swapped (`outptu`), each one. */
export function editDistance(a: string, b: string): number {
  let before: number[] = []
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1)
      row.push(d)
    }
    before = previous
    previous = row
  }
  return previous[b.length]!
}

const loose = (name: string) => name.toLowerCase().replace(/[-_]/g, '')

/** The known name nearest to `typed`, if one is near enough; none when two are equally near. */
export function closestName(typed: string, known: readonly string[]): string | undefined {
  const word = loose(typed)
  const begun = known.filter((name) => word.length >= 3 && loose(name).startsWith(word))
  if (begun.length === 1) return begun[0]
  const room = Math.max(1, Math.floor(word.length / 4))
  const ranked = known.map((name) => ({ name, d: editDistance(word, loose(name)) })).filter((c) => c.d <= room).sort((a, b) => a.d - b.d)
  if (ranked.length === 0 || (ranked.length > 1 && ranked[1]!.d === ranked[0]!.d)) return undefined
  return ranked[0]!.name
}

/** An option as typed, without the value given after '=': a key given to the wrong command (merge --api-key=…) is never printed back. */
export const optionName = (arg: string): string => arg.replace(/=[^]*$/, '')

/** " (did you mean --flag?)" for an argument `--…` (its value after = left out) near one of `flags`, else "". */
export function flagHint(arg: string, flags: readonly string[]): string {
  const typed = /^--([^=]+)/.exec(arg)?.[1]
  const meant = typed === undefined ? undefined : closestName(typed, flags)
  return meant === undefined ? '' : ` (did you mean --${meant}?)`
}

/**
 * What a --rule value that names several rules, or all of them, was meant as, else undefined:
 * `--rule list-returns-200,create-returns-201` (a comma list, as many CLIs take) was told "unknown
 * rule a value of 35 characters (not shown: it could be a key)" (userplay10). Only rule ids (or
 * near ones) are printed back, never the value as given.
 */
export function severalRulesHint(typed: string, known: readonly string[]): string | undefined {
  if (/^(all|\*|every)$/i.test(typed.trim())) return `unknown rule "${typed.trim()}": leave --rule out to run every rule; --list-rules prints the catalogue`
  const parts = typed.split(/[\s,;]+/).filter((part) => part !== '')
  if (parts.length < 2) return undefined
  const meant = parts.map((part) => (known.includes(part) ? part : closestName(part, known)))
  if (meant.some((id) => id === undefined)) return undefined
  return `--rule takes one rule id, and is given again for each: --rule ${meant.join(' --rule ')}`
}
