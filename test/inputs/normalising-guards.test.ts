/**
 * A key check that normalises the path too, otherwise than the router behind it: every form of a
 * path the suite sent before was guarded or routed nowhere, and only the forms sent for it (a ";"
 * before a dot segment, a space after the path) reach an operation unguarded. The kill matrix
 * proves the whole runs (test/mutants/); this says which form catches which, in milliseconds.
 */
import { describe, expect, test } from 'vitest'
import { stallingOperation } from '../../lib/http/stalled-operations.ts'
import { NORMALISING_GUARD_MUTATIONS } from '../../lib/server/mutations/routing.ts'
import { PATH_FORMS } from '../../suites/cases/path-forms.ts'

/** The paths below the base path that route to an operation, as the reference server routes them. */
const OPERATION_PATH = /^\/(categories|pets\/[^/]+|store\/orders)\/*$/

/** The forms a mutation's router takes for an operation while its key check does not guard them. */
function servedUnguarded(name: string): string[] {
  const mutation = NORMALISING_GUARD_MUTATIONS.find((m) => m.name === name)!
  return PATH_FORMS.filter((form) => {
    const { path, guarded } = mutation.behaviour.routePath!(form.path)
    return !guarded && OPERATION_PATH.test(path)
  }).map((form) => form.key)
}

describe('a key check and a router that normalise a path differently', () => {
  test('every operation is asked for at both forms', () => {
    for (const operation of ['listCategories', 'getPet', 'listStoreOrders']) {
      expect(PATH_FORMS.filter((f) => f.operation === operation).map((f) => f.key)).toEqual(expect.arrayContaining([`${operation}-dot-dot-path-parameter`, `${operation}-trailing-space`]))
    }
  })

  test('a check that cuts the path at its first ";" guards every other form; the router takes /x/..;/… for the operation', () => {
    expect(servedUnguarded('guard-cuts-at-semicolon-router-drops-path-parameters')).toEqual(['listCategories-dot-dot-path-parameter', 'getPet-dot-dot-path-parameter', 'listStoreOrders-dot-dot-path-parameter'])
  })

  test('a router that trims each segment takes only the path that ends in a space, which the check compares as it is', () => {
    // a pet id is guarded by a pattern (/pets/{petId}), which takes "1 " as an id
    expect(servedUnguarded('router-trims-path-segments-skips-auth')).toEqual(['listCategories-trailing-space', 'listStoreOrders-trailing-space'])
  })

  test('every form stalls with its operation: a server that hangs the list hangs them too, and none goes after the stall', () => {
    const exact = { listCategories: '/categories', getPet: '/pets/1', listStoreOrders: '/store/orders' }
    for (const form of PATH_FORMS) expect(stallingOperation('GET', form.path, undefined), form.key).toBe(stallingOperation('GET', exact[form.operation], undefined))
  })
})
