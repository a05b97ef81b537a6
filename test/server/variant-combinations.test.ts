/** Variants combined into one server (lib/server/variant-combinations.ts): each part's freedom kept, conflicts refused. */
import { describe, expect, test } from 'vitest'
import { startCase } from '../../lib/server/server-cases.ts'
import { CombinationConflict, combineVariants, variantOrCombination } from '../../lib/server/variant-combinations.ts'
import { VARIANTS } from '../../lib/server/variants.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'

const named = (name: string) => VARIANTS.find((v) => v.name === name)!
const KEY = 'combination-test-key'
const auth = { authorization: `Bearer ${KEY}` }

async function withServer<T>(name: string, use: (baseUrl: string) => Promise<T>): Promise<T> {
  const server = await startCase(variantOrCombination(VARIANTS, name)!, { apiKey: KEY })
  try {
    return await use(server.baseUrl)
  } finally {
    await server.close()
  }
}

const create = (baseUrl: string, body: unknown) => fetch(`${baseUrl}/categories`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) })

describe('combineVariants', () => {
  test('validates in turn: the first problem refuses (a column of 12 and a refused empty name)', async () => {
    await withServer('name-limit-12+empty-name-refused-400', async (baseUrl) => {
      expect((await create(baseUrl, { name: 'x'.repeat(13) })).status).toBe(400)
      expect((await create(baseUrl, { name: '' })).status).toBe(400)
      expect((await create(baseUrl, { name: 'dog' })).status).toBe(201)
    })
  })

  test('lists in turn, the store first: newest first and extra properties, behind the writes', async () => {
    await withServer('extra-properties+newest-first+list-lags-behind-writes', async (baseUrl) => {
      expect((await create(baseUrl, { name: 'dog' })).status).toBe(201)
      const soon = (await (await fetch(`${baseUrl}/categories`, { headers: auth })).json()) as { name: string; petCount?: number }[]
      expect(soon.map((r) => r.name)).not.toContain('dog')
      await new Promise((resolve) => setTimeout(resolve, 350))
      const later = (await (await fetch(`${baseUrl}/categories`, { headers: auth })).json()) as { name: string; petCount?: number }[]
      expect(later[0]).toMatchObject({ name: 'dog', petCount: 3 })
      expect(later).toHaveLength(6)
    })
  })

  test('a finish that writes the body as text goes after those that read it as records, and transports merge', async () => {
    await withServer('pretty-printed-json+extra-properties+gzip-unless-identity', async (baseUrl) => {
      const answer = await create(baseUrl, { name: 'dog' })
      expect(answer.status).toBe(201)
      expect(answer.headers.get('content-encoding')).toBe('gzip')
      expect(answer.headers.get('location')).toMatch(/\/categories\/1$/)
      expect(await answer.text()).toMatch(/^\{\n {2}"createdAt"/)
    })
  })

  test('two sources of ids, two seeds or two codings make no combination; a name given twice neither', () => {
    expect(() => combineVariants([named('negative-ids'), named('ids-from-2-pow-53')])).toThrow(CombinationConflict)
    expect(() => combineVariants([named('newest-first'), named('thirty-thousand-categories')])).toThrow(/seed/)
    expect(() => combineVariants([named('gzip-even-for-identity'), named('brotli-even-for-identity')])).toThrow(/forceCoding/)
    expect(() => combineVariants([named('slow-answers'), named('slow-answers')])).toThrow(/twice/)
  })

  test('arguments merge, a flag given twice keeping its largest value', () => {
    const combined = combineVariants([named('one-request-at-a-time'), named('answers-at-a-bandwidth-limit'), named('empty-list-read-only')])
    expect(combined.args).toEqual(['--timeout', '1500', '--read-only'])
    expect(combined.name).toBe('one-request-at-a-time+answers-at-a-bandwidth-limit+empty-list-read-only')
  })

  // serve --mutation a+b joins mutations too: body-from-first-read-answered-at-once+description-dropped
  // lost its bodyReadOnce, and served description-dropped alone under a banner naming both rules
  test('every seam a mutation or variant sets is kept when it is joined with another', () => {
    const lost: string[] = []
    for (const [table, other] of [[MUTATIONS, 'create-answers-200'], [VARIANTS, 'extra-properties']] as const) {
      const partner = table.find((c) => c.name === other)!
      for (const part of table.filter((c) => c !== partner)) {
        let combined
        try {
          combined = combineVariants([part, partner])
        } catch (error) {
          if (error instanceof CombinationConflict) continue
          throw error
        }
        // a list or created record written as text goes into finish, after the finishes that read records
        const held = (seam: string) => seam in combined.behaviour || ((seam === 'listBody' || seam === 'createdBody') && combined.behaviour.finish !== undefined)
        lost.push(...Object.keys(part.behaviour).filter((seam) => !held(seam)).map((seam) => `${part.name}: ${seam}`))
      }
    }
    expect(lost).toEqual([])
  })

  test('an unknown part is no variant', () => {
    expect(variantOrCombination(VARIANTS, 'slow-answers+no-such-thing')).toBeUndefined()
  })
})
