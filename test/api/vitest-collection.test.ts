/**
 * Where vitest is when defineConformance() is called, read on every vitest of the peer range. On
 * vitest 3 (3.2.7, which has no TestRunner) a call in a hook was not refused: a beforeAll that
 * started the service and then declared the suite left a file green beside its unit tests with no
 * check run, and a second call at the top level gave every test the first one's name. The shapes
 * below are what vitest 3.2.7's `vitest/suite` and worker state show (tried in an Express service:
 * the hook and the second call are now refused there as on vitest 4 and 5); this project's own
 * tests run on vitest 4 only, so the child vitest of define-misplaced.test.ts cannot show it.
 */
import { expect, test } from 'vitest'
import { collectionOver, currentSuite, type Vitest3Task, type VitestModule } from '../../lib/api/vitest-collection.ts'

const vitest3: VitestModule = {}
const collectingFile = (): Vitest3Task => ({ type: 'suite', filepath: '/service/test/conformance.test.js' })
const collectedFile = (): Vitest3Task => ({ type: 'suite', filepath: '/service/test/conformance.test.js', collectDuration: 12.5 })

test('vitest 3: collecting a file is not over; its beforeAll, a describe\'s beforeAll and afterAll are; inside a test vitest refuses itself', () => {
  expect(collectionOver(vitest3, collectingFile)).toBe(false)
  expect(collectionOver(vitest3, collectedFile)).toBe(true)
  expect(collectionOver(vitest3, () => ({ type: 'suite', file: collectedFile() }))).toBe(true)
  expect(collectionOver(vitest3, () => ({ type: 'test', file: collectedFile() }))).toBe(false)
  // outside vitest's worker, or a vitest that keeps no such state: declared as asked
  expect(collectionOver(vitest3, () => undefined)).toBe(false)
  expect(collectionOver(vitest3, () => { throw new Error('no worker state') })).toBe(false)
})

test('vitest 3: the describe collected is its collector; at the top level, the file collected (one default suite serves every file of a worker)', () => {
  const describeCollector = { type: 'collector', name: 'orders v2', suite: { name: 'orders v2' } }
  const defaultCollector = { type: 'collector', name: '' }
  const file = collectingFile()
  expect(currentSuite(vitest3, () => ({ getCurrentSuite: () => describeCollector }), () => file)).toBe(describeCollector)
  expect(currentSuite(vitest3, () => ({ getCurrentSuite: () => defaultCollector }), () => file)).toBe(file)
  const another = collectingFile()
  expect(currentSuite(vitest3, () => ({ getCurrentSuite: () => defaultCollector }), () => another)).not.toBe(file)
  // no vitest/suite (vitest 5 has none) and no worker state: nothing known, nothing refused
  expect(currentSuite(vitest3, () => undefined, () => undefined)).toBeUndefined()
})

test('vitest 4 and 5: read through TestRunner, whatever the worker state says', () => {
  const file = { collectDuration: 3 }
  const suite = { name: 'orders v2' }
  const running: VitestModule = { TestRunner: { getCurrentSuite: () => ({ file }), getCurrentTest: () => undefined } }
  const collecting: VitestModule = { TestRunner: { getCurrentSuite: () => ({ suite, file: {} }), getCurrentTest: () => undefined } }
  const inTest: VitestModule = { TestRunner: { getCurrentSuite: () => ({ file }), getCurrentTest: () => ({}) } }
  expect(collectionOver(running, collectingFile)).toBe(true)
  expect(collectionOver(collecting, collectedFile)).toBe(false)
  expect(collectionOver(inTest, collectedFile)).toBe(false)
  expect(currentSuite(collecting, () => undefined, collectingFile)).toBe(suite)
  expect(currentSuite(running, () => undefined, collectingFile)).toBe(file)
})
