/**
 * A Spring Boot service on Oracle, configured to conform, as a team adopting the suite ends up with
 * it: every default that breaks a rule changed (the Error record from a @RestControllerAdvice and
 * the security entry point, Jackson's coercion of scalars refused, trailing tokens refused), and the
 * freedoms such a stack uses kept. The suite must pass it.
 */
import { conformingBehaviour } from '../reference-server.ts'
import type { StoredCategory } from '../reference-server.ts'
import type { Variant } from '../server-cases.ts'

/** Oracle's VARCHAR2(32 BYTE): a name that fits @Size(max = 32) in UTF-16 code units may still be over 32 bytes (ORA-12899). */
const NAME_BYTES = 32
const DESCRIPTION_BYTES = 4_000
/** A sequence with CACHE 20 after a restart, started past 2^53 (an IDENTITY of a migrated table). */
const FIRST_ID = 2n ** 53n + 1n
const ID_STEP = 20n

export const SPRING_VARIANTS: readonly Variant[] = [
  {
    name: 'spring-boot-on-oracle-configured',
    description:
      'Spring Boot on Oracle, configured to conform: @Size(max = 32) on the name (UTF-16 code units), then a VARCHAR2(32 BYTE) column whose ORA-12899 is answered 400; ' +
      "an empty description refused with 400 (Oracle keeps '' as NULL, so the service cannot give it back); ids from a sequence past 2^53 with CACHE 20 gaps; " +
      'application/json;charset=UTF-8; a wrong key answered with Spring Security\'s WWW-Authenticate: Bearer error="invalid_token", …',
    behaviour: {
      validate(body) {
        const problem = conformingBehaviour.validate(body)
        if (problem !== null) return problem
        const { name, description } = body as { name: string; description?: string }
        if (name.length > NAME_BYTES) return `name: size must be between 0 and ${NAME_BYTES}`
        if (description === '') return 'description: must not be empty'
        if (Buffer.byteLength(name) > NAME_BYTES) return `ORA-12899: value too large for column "APP"."CATEGORY"."NAME" (actual: ${Buffer.byteLength(name)}, maximum: ${NAME_BYTES})`
        if (Buffer.byteLength(description ?? '') > DESCRIPTION_BYTES) return `ORA-12899: value too large for column "APP"."CATEGORY"."DESCRIPTION" (maximum: ${DESCRIPTION_BYTES})`
        return null
      },
      nextId: (store) => (store.length === 0 ? FIRST_ID : store[store.length - 1].id + ID_STEP),
      finish(reply, request) {
        const headers: Record<string, string> = { ...reply.headers, 'content-type': 'application/json;charset=UTF-8', vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' }
        if (reply.status === 401 && /^Bearer \S/.test(request.authorization ?? '')) {
          headers['www-authenticate'] = 'Bearer error="invalid_token", error_description="An error occurred while attempting to decode the Jwt: Malformed token", error_uri="https://tools.ietf.org/html/rfc6750#section-3.1"'
        }
        return { ...reply, headers }
      },
    },
  },
  {
    name: 'any-getter-repeats-fields',
    description:
      'records written by Jackson from an entity that exposes its columns in a @JsonAnyGetter map beside its declared getters: id and name come twice in each record, with the same values ' +
      '(jackson-databind writes the map\'s keys whatever a property wrote): every reading of the record agrees, and advisory-unique-member-names notes the repeat (RFC 8259 §4)',
    behaviour: (() => {
      const twice = (r: StoredCategory) => `${JSON.stringify({ ...r, id: 0 }).replace('"id":0', `"id":${r.id}`).slice(0, -1)},"id":${r.id},"name":${JSON.stringify(r.name)}}`
      return { createdBody: twice, listBody: (store: StoredCategory[]) => `[${store.map(twice).join(',')}]` }
    })(),
  },
]
