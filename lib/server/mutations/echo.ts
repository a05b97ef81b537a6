/**
 * Mutations written as a Go service on labstack echo v4 gets them wrong with its defaults
 * (measured on Debian 12's golang-github-labstack-echo-dev 4.2.1): the KeyAuth middleware.
 */
import type { Mutation } from '../server-cases.ts'

export const ECHO_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the key after "Bearer:" (suites/cases/credentials.ts), on the list
    name: 'bearer-then-any-character',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "the token is read as echo's KeyAuth middleware reads it (and its JWT middleware): the header's first six characters compared to Bearer, " +
      'and the token taken from its eighth on, whatever the seventh: Bearer:<key> is let in',
    behaviour: {
      authorize: (authorization, key) => authorization !== undefined && authorization.length > 7 && authorization.startsWith('Bearer') && authorization.slice(7) === key,
    },
  },
]
