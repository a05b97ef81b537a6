/**
 * Mutations of other tables behind a service that refuses a create body holding a member
 * NewCategory does not name (an id, "Name", "extra") with 400, as §4.2 rule 1 lets it (pydantic's
 * extra="forbid", Joi's default, Jackson's FAIL_ON_UNKNOWN_PROPERTIES under a plain ObjectMapper or
 * Jersey; variant rejects-unknown-fields): the creates that send an id or such a member reach it
 * only as refusals, and a class only their descriptions carried passed it. Each of these did, until a
 * create without such members carried the class too (suites/cases/poison-values.ts).
 */
import { conformingBehaviour, type Behaviour } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'
import { TEXT_FORM_MUTATIONS } from './text-forms.ts'

/** `name` of `table`, behind a service that refuses every member NewCategory does not name. */
function behindRefusedMembers(table: readonly Mutation[], name: string): Mutation {
  const inner = table.find((m) => m.name === name)
  if (!inner) throw new Error(`no mutation ${name}`)
  const validate: Behaviour['validate'] = inner.behaviour.validate ?? conformingBehaviour.validate
  return {
    ...inner,
    name: `${name}-behind-unknown-fields-refused`,
    description: `${inner.description}; and a body holding a member NewCategory does not name (an id, "Name") is refused with 400, as pydantic's extra="forbid" or Jackson's FAIL_ON_UNKNOWN_PROPERTIES refuses it`,
    behaviour: {
      ...inner.behaviour,
      validate: (body) =>
        validate(body) ?? (Object.keys(body as object).some((key) => key !== 'name' && key !== 'description') ? 'unknown property in the body' : null),
    },
  }
}

export const BEHIND_REFUSED_MEMBER_MUTATIONS: readonly Mutation[] = [
  // caught by create-nul's description, "None" (create-deep-value's goes beside its "extra")
  behindRefusedMembers(TEXT_FORM_MUTATIONS, 'none-text-read-as-no-value'),
  // caught by create-cut-anywhere's description, "null" (create-sends-existing-id's goes beside its id)
  behindRefusedMembers(TEXT_FORM_MUTATIONS, 'null-text-answered-as-json-null'),
]
