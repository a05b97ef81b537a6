/** The four operations the interface names, as the suite calls them. */
export interface OperationCase {
  operationId: 'listCategories' | 'createCategory' | 'getPet' | 'listStoreOrders'
  method: 'GET' | 'POST'
  path: string
  label: string
  /**
   * Statuses this operation may give before authentication, which then say nothing about it: the
   * checks of a missing or invalid key do not apply to such an answer (any other still must be 401).
   */
  mayAnswerBeforeAuthentication?: { statuses: readonly number[]; why: string }
}

export const OPERATIONS: readonly OperationCase[] = [
  { operationId: 'listCategories', method: 'GET', path: '/categories', label: 'GET /categories' },
  { operationId: 'createCategory', method: 'POST', path: '/categories', label: 'POST /categories' },
  // §4.3: the shape of petId is not shown; any value must first pass authentication (§5.1).
  {
    operationId: 'getPet',
    method: 'GET',
    path: '/pets/1',
    label: 'GET /pets/{petId}',
    mayAnswerBeforeAuthentication: {
      statuses: [404, 410],
      why: 'the operation is deprecated with a sunset date (§9.4) and the shape of petId is not shown (§4.3), so it may be gone or refuse the id before authentication',
    },
  },
  { operationId: 'listStoreOrders', method: 'GET', path: '/store/orders', label: 'GET /store/orders' },
]

/** Why an answer to a request without a valid key says nothing about authentication; undefined when it does. */
export function answeredBeforeAuthentication(operation: OperationCase, status: number | undefined): string | undefined {
  const before = operation.mayAnswerBeforeAuthentication
  if (!before || status === undefined || !before.statuses.includes(status)) return undefined
  return `${operation.label} answered ${status}: ${before.why}`
}
