/**
 * Conforming variants that are several of the table's at once (lib/server/variant-combinations.ts):
 * each combination here is one the suite once failed though each of its parts alone passed, a
 * service that uses those freedoms together. The suite must pass it.
 */
import { combineVariants } from '../variant-combinations.ts'
import type { Variant } from '../server-cases.ts'

interface Combination {
  parts: readonly string[]
  /** Why the parts together were a false alarm, in the words of the service they make. */
  description: string
}

const COMBINATIONS: readonly Combination[] = [
  {
    parts: ['name-limit-12', 'sql-server-unique-name-default-collation'],
    description:
      "SQL Server's NVARCHAR(12) name, UNIQUE under its default collation: the empty name is answered 409 (another client's \" \" is the same name to it), and this run's own repeated name 400, " +
      'since its first create was already refused for its length: a name never taken was never repeated, and its 400 says nothing of how repeats are refused',
  },
]

/** The combinations of `table`'s variants, each named `a+b` as `npm run serve -- --variant a+b` takes it. */
export function combinedVariants(table: readonly Variant[]): Variant[] {
  return COMBINATIONS.map(({ parts, description }) => {
    const found = parts.map((name) => {
      const variant = table.find((v) => v.name === name)
      if (!variant) throw new Error(`lib/server/variants/combinations.ts: no variant named ${name}`)
      return variant
    })
    return { ...combineVariants(found), description }
  })
}
