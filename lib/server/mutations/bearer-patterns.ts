/**
 * Mutations of §5.2 where a pattern written by hand reads the token out of the Authorization
 * header more loosely than the scheme allows (auth-invalid-key-401): RFC 9110 §11.4 and RFC 6750
 * §2.1 put one or more spaces between "Bearer" and the token, so a header without them carries no
 * bearer credential. suites/cases/credentials.ts sends the key right after "Bearer" on the list.
 */
import type { Mutation } from '../server-cases.ts'

export const BEARER_PATTERN_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the key right after "Bearer", without the space (suites/cases/credentials.ts), on the list
    name: 'bearer-space-optional',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      'the token is read with a pattern that makes the space after the scheme optional (/^Bearer\\s*(\\S+)$/i, written to take "Bearer<token>" too, as hand-written middlewares do): ' +
      'Bearer<key>, a header of no scheme §5.2 names, is let in; every near-miss with the space, and the key after "Bearer:", is refused',
    behaviour: { authorize: (authorization, key) => /^Bearer\s*(\S+)$/i.exec(authorization ?? '')?.[1] === key },
  },
]
