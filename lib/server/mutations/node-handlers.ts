/**
 * Mutations written as a Node service's own handler gets them wrong, past what its framework does
 * (Express, Koa and Hono hand the handler JSON.parse's object; NestJS's class-transformer and
 * Fastify's secure-json-parse keep the cases here out).
 */
import { isPlainObject, type Mutation } from '../server-cases.ts'

/**
 * An entity whose fields are declared, not defined: plain JavaScript, or TypeScript with
 * useDefineForClassFields off (a target before ES2022), so an object made from it has no own
 * properties. A field that is defined (ES2022 class fields) is an own property and shadows the
 * prototype; Object.assign({ description: null }, body), the defaults idiom, has none for name.
 */
class CategoryEntity {}

export const NODE_HANDLER_MUTATIONS: readonly Mutation[] = [
  {
    name: 'body-assigned-onto-entity',
    breaks: 'create-rejects-missing-name',
    code: 'UNEXPECTED_STATUS',
    description:
      'the handler copies the body onto an entity, Object.assign(new Category(), body) (or onto defaults, Object.assign({ description: null }, body)), and checks and stores the copy: JSON.parse keeps ' +
      '"__proto__" as a member of its own, which the copy sets as the entity\'s prototype, so {"__proto__": {"name": "x"}} creates a category named x ' +
      '(a Koa, Express or Hono handler; measured on Koa with koa-bodyparser and knex)',
    behaviour: {
      parseBody(text) {
        const body = JSON.parse(text) as unknown
        return isPlainObject(body) ? Object.assign(new CategoryEntity(), body) : body
      },
    },
  },
]
