/**
 * Mutations of §5.3 where the key is looked up in a store by a query that is not an equality: the
 * token is read as a pattern, so a wrong key that the pattern's wildcards stretch to the account's
 * key is let in (auth-invalid-key-401). suites/cases/credentials.ts sends the key with its last
 * character changed to _ on the list, which SQL's LIKE reads as any one character.
 */
import { escapeRegExp } from '../../http/redact.ts'
import type { Mutation } from '../server-cases.ts'

/** SQL LIKE without an ESCAPE clause: % any run of characters, _ any one, the rest itself, case-sensitively (PostgreSQL's LIKE). */
const likeMatches = (pattern: string, text: string) =>
  new RegExp(`^${[...pattern].map((c) => (c === '%' ? '.*' : c === '_' ? '.' : escapeRegExp(c))).join('')}$`, 's').test(text)

export const KEY_LOOKUP_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the key with its last character changed to _ (suites/cases/credentials.ts), on the list
    name: 'key-looked-up-with-like',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    // a key of its own: a random one ends in _ once in 64, and then its last character is changed to x
    apiKey: 'Lk7-pattern-key-2Vq9',
    description:
      'the key is looked up with SQL LIKE where = was meant (SELECT … FROM api_keys WHERE key LIKE $1, on PostgreSQL, whose LIKE compares case-sensitively; SQLAlchemy\'s ApiKey.key.like(token), Knex\'s where(\'key\', \'like\', token)): ' +
      'the token is a pattern, so the key with its last character changed to _ (any one character) is let in, and the token % (any key)',
    behaviour: {
      authorize: (authorization, key) => {
        const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1]
        return token !== undefined && likeMatches(token, key)
      },
    },
  },
]
