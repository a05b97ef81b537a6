/**
 * Mutations where a valid value is read as something else than the text it is: a description of
 * spaces alone taken for no description (a blank check), and a name that is a member of
 * JavaScript's Object.prototype (`__proto__`, `constructor`) taken for one, in a store that is a
 * plain object keyed by name. Each passes every value but the one it misreads
 * (suites/cases/read-as-other-creates.ts sends them).
 */
import { conformingBehaviour, type StoredCategory } from '../reference-server.ts'
import { errorReply, NEVER_LISTED, type Mutation } from '../server-cases.ts'

/** Spaces, tabs and line breaks alone: what every language's blank check holds for (String.isBlank, trim() === '', .blank?). */
const blank = (text: string | undefined): boolean => text !== undefined && text !== '' && text.trim() === ''

/** A NewCategory's description, refused when empty ('' is an invalid value a service may refuse, §4.2 rule 1): Joi.string()'s default, @Size(min = 1). */
const refusingEmptyDescription = (body: unknown): string | null =>
  conformingBehaviour.validate(body) ?? ((body as { description?: unknown }).description === '' ? '"description" is not allowed to be empty' : null)

/**
 * Categories kept in a plain object keyed by name, as an in-memory Express service keeps them
 * (`const categories = {}`; `categories[name] = record`; the list is `Object.values(categories)`),
 * names unique: the assignment to `categories['__proto__']` sets the object's prototype and stores
 * nothing, and a check for a taken name written `if (categories[name])` holds for every member of
 * Object.prototype (`taken: 'looked-up'`; Object.hasOwn(categories, name) holds for none).
 */
function keyedByName(taken: 'own' | 'looked-up'): Mutation['behaviour'] {
  const objects = new WeakMap<StoredCategory[], Record<string, StoredCategory>>()
  const objectOf = (store: StoredCategory[]) => objects.get(store) ?? (objects.set(store, {}), objects.get(store)!)
  return {
    finish: (reply, request, store) => {
      if (request.operation !== 'createCategory' || reply.status !== 201) return reply
      const categories = objectOf(store)
      const record = store[store.length - 1]
      if (taken === 'own' ? Object.hasOwn(categories, record.name) : categories[record.name] !== undefined) {
        store.pop()
        return errorReply(409, 'conflict', `a category named ${record.name} exists`)
      }
      categories[record.name] = record
      return reply
    },
    listBody: (store) => Object.values(objectOf(store)),
  }
}

export const READ_AS_OTHER_MUTATIONS: readonly Mutation[] = [
  {
    name: 'blank-description-dropped',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'an empty description is refused with 400 (Joi.string() refuses "" by default, as the document lets a service), and a description of spaces alone is taken for none and dropped ' +
      "(`...(description?.trim() ? { description } : {})`): the record is answered and stored without it",
    behaviour: {
      validate: refusingEmptyDescription,
      toRecord: (body, id) => conformingBehaviour.toRecord(blank(body.description) ? { name: body.name } : body, id),
    },
  },
  {
    name: 'blank-description-defaulted',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'an empty description is refused with 400 (@Size(min = 1)), and a description of spaces alone is replaced by a default ' +
      '(`StringUtils.hasText(d) ? d : "No description"`): the record is answered and stored with the default',
    behaviour: {
      validate: refusingEmptyDescription,
      toRecord: (body, id) => conformingBehaviour.toRecord(blank(body.description) ? { name: body.name, description: 'No description' } : body, id),
    },
  },
  {
    name: 'prototype-name-not-stored',
    breaks: 'created-in-list',
    code: 'MISSING_FROM_LIST',
    description:
      "categories are kept in a plain object keyed by name and listed with Object.values(): the name __proto__ is answered 201, but categories['__proto__'] = record " +
      'sets the object\'s prototype and stores nothing, so the record is never listed',
    behaviour: keyedByName('own'),
    slow: NEVER_LISTED,
  },
  {
    name: 'prototype-name-taken',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'names are unique in a plain object keyed by name (`if (categories[name]) return res.status(409)`): __proto__, constructor and every other member of Object.prototype ' +
      'read as taken, and a create with one is refused with 409 though no category has that name',
    behaviour: keyedByName('looked-up'),
  },
]
