/** The four operations the interface names, as the suite calls them. */
export interface OperationCase {
  operationId: 'listCategories' | 'createCategory' | 'getPet' | 'listStoreOrders'
  method: 'GET' | 'POST'
  path: string
  label: string
}

export const OPERATIONS: readonly OperationCase[] = [
  { operationId: 'listCategories', method: 'GET', path: '/categories', label: 'GET /categories' },
  { operationId: 'createCategory', method: 'POST', path: '/categories', label: 'POST /categories' },
  // §4.3: the shape of petId is not shown; any value must first pass authentication (§5.1).
  { operationId: 'getPet', method: 'GET', path: '/pets/1', label: 'GET /pets/{petId}' },
  { operationId: 'listStoreOrders', method: 'GET', path: '/store/orders', label: 'GET /store/orders' },
]
