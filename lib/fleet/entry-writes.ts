/**
 * A targets file entry's own writes: `readOnly: true` (no POST to it) and `maxWrites: N` (at most N
 * POSTs to it), beside the fleet's --read-only and --max-writes. An entry can only lower what the
 * command line allows, never raise it: `readOnly: false` cannot undo --read-only, and a maxWrites
 * above --max-writes leaves --max-writes the bound. The first lines of the run say each
 * deployment's budget, before any request.
 */
import { ConfigError, type Config } from '../config/config.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import { describeWritePlan, type WritePlan } from '../suite-kit/write-plan.ts'

/** What an entry says of its writes, checked. */
export interface EntryWrites {
  /** readOnly: true: no POST to this deployment (production beside staging's writes), whatever the fleet's --read-only. */
  readOnly?: true
  /** maxWrites: N: at most N POSTs to this deployment, or the fleet's --max-writes when that is lower. */
  maxWrites?: number
}

const shown = (value: unknown) => visibleLine(JSON.stringify(value) ?? String(value)).slice(0, 40)

/** An entry's readOnly and maxWrites, checked; a bad one is a ConfigError naming the entry. */
export function entryWrites(given: Record<string, unknown>, entry: string): EntryWrites {
  // true alone: an entry cannot undo the fleet's --read-only, and a production entry that meant
  // no write and wrote "yes" or "true" as text must not be written to
  if (given.readOnly !== undefined && given.readOnly !== true) {
    throw new ConfigError(`${entry}: readOnly is true or absent (${shown(given.readOnly)} given): true sends this deployment no POST; without it, the fleet's --read-only decides`)
  }
  const maxWrites = given.maxWrites
  // "5" as text, 2.5 or -1 is a budget nobody can be sure of: a production entry is not written to on a guess
  if (maxWrites !== undefined && (typeof maxWrites !== 'number' || !Number.isSafeInteger(maxWrites) || maxWrites < 0)) {
    throw new ConfigError(`${entry}: maxWrites is a whole number, 0 or more (${shown(maxWrites)} given): at most that many POSTs to this deployment, never more than the fleet's --max-writes`)
  }
  if (given.readOnly === true && typeof maxWrites === 'number' && maxWrites > 0) {
    throw new ConfigError(`${entry}: readOnly: true and maxWrites: ${maxWrites} say two things: readOnly sends this deployment no POST; keep one of them`)
  }
  return { ...(given.readOnly === true ? { readOnly: true as const } : {}), ...(typeof maxWrites === 'number' ? { maxWrites } : {}) }
}

/** The deployment's configuration with its entry's writes: the lower of its maxWrites and the fleet's --max-writes. */
export function applyEntryWrites(config: Config, writes: EntryWrites): void {
  // production read-only beside staging's writes, in one fleet
  // the reports name the setting that bounds the entry's writes, where it is the entry's own (not a --read-only it was never given)
  if (writes.readOnly && !config.readOnly) config.writesFrom = { ...config.writesFrom, readOnly: 'readOnly: true in the targets file' }
  if (writes.readOnly) config.readOnly = true
  if (writes.maxWrites !== undefined && writes.maxWrites < (config.maxWrites ?? Infinity)) config.writesFrom = { ...config.writesFrom, maxWrites: `maxWrites: ${writes.maxWrites} in the targets file` }
  if (writes.maxWrites !== undefined) config.maxWrites = Math.min(writes.maxWrites, config.maxWrites ?? writes.maxWrites)
}

/**
 * The run's first lines about writes: one when every deployment has the fleet's budget ("Each of
 * them: Writes: …"), else one for each budget, naming its deployments, and saying where an entry's
 * own came from (`production: Writes: none (readOnly: true in the targets file) …`).
 */
export function fleetWriteLines(deployments: readonly { label: string; config: Config }[], shared: Config, plan: (config: Config) => WritePlan): string[] {
  const groups = new Map<string, { labels: string[]; line: string }>()
  for (const d of deployments) {
    const own = { readOnly: d.config.readOnly && !shared.readOnly, maxWrites: d.config.maxWrites !== shared.maxWrites && !d.config.readOnly }
    const from = {
      // the fleet's own, from the environment or a .env file, where the entry has none of its own
      ...shared.writesFrom,
      ...(own.readOnly ? { readOnly: 'readOnly: true in the targets file' } : {}),
      ...(own.maxWrites ? { maxWrites: `maxWrites: ${d.config.maxWrites} in the targets file` } : {}),
    }
    const line = describeWritePlan(plan(d.config), d.config, from)
    const group = groups.get(line) ?? { labels: [], line }
    group.labels.push(d.label)
    groups.set(line, group)
  }
  if (groups.size === 1) return [`Each of them: ${[...groups.values()][0]?.line}`]
  return [...groups.values()].map((g) => `${g.labels.join(', ')}: ${g.line}`)
}
