/**
 * Several conforming variants at once, as one server: a real service uses many freedoms together
 * (Spring behind a gateway on Oracle: byte limits, ids with gaps, 429s, gzip), and each alone
 * passing proves nothing of the stack. `npm run serve -- --variant a+b+c` starts one, and the
 * variants table may hold one whose combination the suite once failed.
 *
 * How two behaviours become one: `validate`s are asked in turn (the first problem refuses),
 * `listBody`s and `createdBody`s apply in turn to what the one before answered (one that writes
 * text, after every finish that reads records), `finish`es chain in the order given (the first is
 * the innermost, nearest the store), except that those that write the body as text go after those
 * that read it as records (joined mutations: one that changes a create's 201 goes last); transports merge (the longest delay, every option set). Two seams that cannot both hold (two sources of
 * ids, two parsers, two seeds, two codings) make no combination: CombinationConflict says which.
 */
import type { Behaviour, OperationId, Reply, RequestInfo, StoredCategory, Transport } from './reference-server.ts'
import type { Variant } from './server-cases.ts'

/** Two variants set a seam that only one may hold. */
export class CombinationConflict extends Error {}

/** The variants a combined name joins: `a+b+c`. */
export const COMBINATION_JOIN = '+'

/** Seams only one variant of a combination may set. */
const SOLE_SEAMS = ['authorize', 'decodeBody', 'parseBody', 'nextId', 'toRecord', 'routePath', 'authorizationOf', 'errorBody'] as const

const REQUEST: RequestInfo = { operation: 'listCategories' as OperationId, method: 'GET', path: '/v1/categories', query: '', authorization: undefined, contentType: undefined }

/**
 * True when `finish` writes a list of records as text (a serialiser of its own: pretty-printed,
 * escaped, a framework's writer): asked once, on a list of a store of its own, so no limiter or
 * store of a running server is touched.
 */
function writesText(finish: Behaviour['finish']): boolean {
  const store: StoredCategory[] = [{ id: 1n, name: 'a' }]
  try {
    const out = finish({ status: 200, headers: {}, body: [...store] }, REQUEST, store)
    return out.status === 200 && typeof out.body === 'string'
  } catch {
    return false
  }
}

/**
 * True when `finish` answers a stored create with another status than 201 (create-answers-200): a
 * mutation's finish after it that looks for the 201 (create-stores-nothing takes the record back)
 * met a 200 and did nothing. Asked once, on a create of a store of its own.
 */
function changesCreateStatus(finish: Behaviour['finish']): boolean {
  const request: RequestInfo = { ...REQUEST, operation: 'createCategory', method: 'POST', contentType: 'application/json', rawBody: '{"name":"a"}', body: { name: 'a' } }
  try {
    return finish({ status: 201, headers: {}, body: { id: 1, name: 'a' } }, request, [{ id: 1n, name: 'a' }]).status !== 201
  } catch {
    return false
  }
}

/** True when `finish` takes a body already written as text and gives text back (it may escape it further). */
function takesText(finish: Behaviour['finish']): boolean {
  try {
    return typeof finish({ status: 200, headers: {}, body: '[{"id":1,"name":"a"}]' }, REQUEST, [{ id: 1n, name: 'a' }]).body === 'string'
  } catch {
    return false
  }
}

/** The finishes that write text: one that must have records first, then those that take text too; two of the first kind cannot both write it. */
function textFinishes(finishes: readonly Behaviour['finish'][], bodiesAsText: number): Behaviour['finish'][] {
  const first = finishes.filter((f) => !takesText(f))
  if (first.length + Math.min(bodiesAsText, 1) > 1) throw new CombinationConflict('two of them write the body as text, each from records')
  return [...first, ...finishes.filter(takesText)]
}

function mergeTransports(parts: readonly Variant[]): Transport | undefined {
  const given = parts.map((p) => p.behaviour.transport).filter((t): t is Transport => t !== undefined)
  if (given.length === 0) return undefined
  const merged: Record<string, unknown> = { delayMs: 0, chunked: false, connectionClose: false }
  for (const transport of given) {
    for (const [key, value] of Object.entries(transport)) {
      const before = merged[key]
      if (value === undefined || value === false || value === 0) continue
      if (typeof value === 'number' && typeof before === 'number') merged[key] = Math.max(before, value)
      else if (before === undefined || before === false || before === value) merged[key] = value
      else throw new CombinationConflict(`two transports set ${key} (${String(before)} and ${String(value)})`)
    }
  }
  return merged as unknown as Transport
}

/**
 * The order `listBody`s go in: one that answers the store itself (and may add to it: other
 * clients' writes) first, then those that answer its records reordered or filtered, then those
 * that write records of their own (extra properties, defaults), each asked once on a store of its own.
 */
function listRank(listBody: Behaviour['listBody']): number {
  const store: StoredCategory[] = [{ id: 1n, name: 'a' }]
  const out = listBody(store)
  if (out === store) return 0
  if (typeof out === 'string') return 3
  return Array.isArray(out) && out.every((r) => store.includes(r as StoredCategory)) ? 1 : 2
}

/** A `createdBody` that writes the record as text goes last, after those that answer records. */
const createRank = (createdBody: Behaviour['createdBody']): number => (typeof createdBody({ id: 1n, name: 'a' }) === 'string' ? 3 : 0)

/** `steps` by rank, each with its rank; two that write text (rank 3) cannot both be last. */
function byRank<T>(seam: string, steps: readonly T[], rank: (step: T) => number): { rank: number; step: T }[] {
  const ranked = steps.map((step) => ({ rank: rank(step), step })).sort((x, y) => x.rank - y.rank)
  if (ranked.filter((r) => r.rank === 3).length > 1) throw new CombinationConflict(`two of them write the ${seam} as text`)
  return ranked
}

/** Steps applied in turn to what the one before answered (records); undefined when there are none. */
function chained<T>(steps: readonly ((input: T) => unknown)[]): ((input: T) => unknown) | undefined {
  if (steps.length === 0) return undefined
  return (input) => steps.reduce<unknown>((value, step) => step(value as T), input)
}

/**
 * The list or the created record written as text (rank 3: a serialiser of the variant's own, ids in
 * exponent form) goes on once every finish that reads the records has run, and before those that
 * write the body as text: a finish that reads the created record's id (a Location header) met text.
 */
function textLast(ranked: readonly { rank: number; step: (input: never) => unknown }[], operation: OperationId, status: number): Behaviour['finish'] | undefined {
  const text = ranked.find((r) => r.rank === 3)?.step as ((input: unknown) => unknown) | undefined
  if (!text) return undefined
  return (reply, request) => (request.operation === operation && reply.status === status && typeof reply.body !== 'string' ? { ...reply, body: text(reply.body) } : reply)
}

function sole<K extends (typeof SOLE_SEAMS)[number]>(parts: readonly Variant[], seam: K): Partial<Behaviour> {
  const setting = parts.filter((p) => p.behaviour[seam] !== undefined)
  if (setting.length > 1) throw new CombinationConflict(`${setting.map((p) => p.name).join(' and ')} both set ${seam}`)
  return setting.length === 1 ? { [seam]: setting[0].behaviour[seam] } : {}
}

function soleField<K extends 'seed' | 'basePath' | 'apiKey'>(parts: readonly Variant[], field: K): Partial<Variant> {
  const setting = parts.filter((p) => p[field] !== undefined)
  if (setting.length > 1) throw new CombinationConflict(`${setting.map((p) => p.name).join(' and ')} both set ${field}`)
  return setting.length === 1 ? { [field]: setting[0][field] } : {}
}

/** Arguments for conform from every part: a flag given twice keeps its largest value (--timeout, --deadline). */
function mergedArgs(parts: readonly Variant[]): string[] {
  const flags = new Map<string, string | undefined>()
  for (const args of parts.map((p) => p.args ?? [])) {
    for (let i = 0; i < args.length; i++) {
      const flag = args[i]
      const value = args[i + 1] !== undefined && !args[i + 1].startsWith('--') ? args[++i] : undefined
      const before = flags.get(flag)
      flags.set(flag, before !== undefined && value !== undefined && Number(before) > Number(value) ? before : value)
    }
  }
  return [...flags].flatMap(([flag, value]) => (value === undefined ? [flag] : [flag, value]))
}

/**
 * Ids counted down from the last record (negative ids, down from 2^63-1) meet the ids of records
 * that came otherwise: a seed's, counted up from 1, and other clients' (busy-service: the last
 * one's plus one). Two records would share an id, a fault of the combination, not of the suite.
 */
function idsCollide(parts: readonly Variant[], lists: readonly Behaviour['listBody'][]): void {
  const nextId = parts.find((p) => p.behaviour.nextId)?.behaviour.nextId
  if (!nextId || nextId([{ id: 10n, name: 'a' }]) !== 9n) return
  const other = parts.find((p) => p.seed !== undefined)?.name ?? (lists.some((l) => listRank(l) === 0) ? 'a list that adds other clients\' records' : undefined)
  if (other) throw new CombinationConflict(`ids counted down from the last record meet those of ${other}`)
}

/** One variant that uses every freedom of `parts` at once; throws CombinationConflict when two cannot hold together. */
export function combineVariants(parts: readonly Variant[], { statusLast = false }: { statusLast?: boolean } = {}): Variant {
  if (parts.length === 1) return parts[0]
  const names = parts.map((p) => p.name)
  // said of mutations too (serve --mutation a+a): not "a variant given twice"
  const twice = names.find((n, i) => names.indexOf(n) !== i)
  if (twice !== undefined) throw new CombinationConflict(`${twice} is given twice`)
  const validates = parts.map((p) => p.behaviour.validate).filter((v): v is Behaviour['validate'] => v !== undefined)
  const listBodies = parts.map((p) => p.behaviour.listBody).filter((v): v is Behaviour['listBody'] => v !== undefined)
  const createdBodies = parts.map((p) => p.behaviour.createdBody).filter((v): v is Behaviour['createdBody'] => v !== undefined)
  const finishes = parts.map((p) => p.behaviour.finish).filter((v): v is Behaviour['finish'] => v !== undefined)
  const lists = byRank('list', listBodies, listRank)
  const creates = byRank('created record', createdBodies, createRank)
  const asText = [textLast(lists, 'listCategories', 200), textLast(creates, 'createCategory', 201)].filter((f) => f !== undefined)
  // mutations joined (serve --mutation a+b): one that changes a create's 201 goes last, so the others still meet it
  const last = statusLast ? finishes.filter(changesCreateStatus) : []
  const inner = finishes.filter((f) => !last.includes(f))
  const ordered = [...inner.filter((f) => !writesText(f)), ...asText, ...textFinishes(inner.filter(writesText), asText.length), ...last]
  idsCollide(parts, listBodies)
  const transport = mergeTransports(parts)
  const listBody = chained(lists.filter((l) => l.rank !== 3).map((l) => l.step) as ((store: StoredCategory[]) => unknown)[])
  const createdBody = chained(creates.filter((c) => c.rank !== 3).map((c) => c.step) as ((record: StoredCategory) => unknown)[])
  const behaviour: Partial<Behaviour> = {
    ...Object.assign({}, ...SOLE_SEAMS.map((seam) => sole(parts, seam))),
    ...(validates.length > 0 ? { validate: (body: unknown) => validates.reduce<string | null>((problem, validate) => problem ?? validate(body), null) } : {}),
    ...(listBody ? { listBody } : {}),
    ...(createdBody ? { createdBody } : {}),
    ...(ordered.length > 0 ? { finish: (reply: Reply, request: RequestInfo, store: StoredCategory[]) => ordered.reduce((r, finish) => finish(r, request, store), reply) } : {}),
    ...(transport ? { transport } : {}),
    // a body taken from its first read (a mutation): was left out, and `--mutation a+b` served b alone
    ...(parts.some((p) => p.behaviour.bodyReadOnce) ? { bodyReadOnce: true as const } : {}),
  }
  const args = mergedArgs(parts)
  const slow = parts.map((p) => p.slow).filter((s) => s !== undefined)
  return {
    name: names.join(COMBINATION_JOIN),
    description: parts.map((p) => `${p.name}: ${p.description}`).join('; and '),
    behaviour,
    ...soleField(parts, 'seed'),
    ...soleField(parts, 'basePath'),
    ...soleField(parts, 'apiKey'),
    ...(args.length > 0 ? { args } : {}),
    ...(slow.length > 0 ? { slow: slow.join('; ') } : {}),
  }
}

/** The variant named `name` in `table`, or the combination its `a+b+c` names; undefined for a name not there. */
export function variantOrCombination(table: readonly Variant[], name: string, options: { statusLast?: boolean } = {}): Variant | undefined {
  const parts = name.split(COMBINATION_JOIN).map((part) => table.find((v) => v.name === part))
  if (parts.some((p) => p === undefined)) return undefined
  return combineVariants(parts as Variant[], options)
}
