/**
 * Mutations of §5.3 where the key is looked up in a store by a query that is not an equality: the
 * token is read as a pattern, so a wrong key that the pattern's wildcards stretch to the account's
 * key is let in (auth-invalid-key-401). suites/cases/credentials.ts sends the key with its last
 * character changed to _ on the list, which SQL's LIKE reads as any one character. And a key
 * compared by a function that throws for some tokens, answered 500.
 */
import { escapeRegExp } from '../../http/redact.ts'
import { conformingBehaviour } from '../reference-server.ts'
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
  {
    // caught by the token with é (suites/cases/credentials.ts), on the list; measured: aiohttp 3.8.4 on Python 3.11
    name: 'key-compared-by-compare-digest',
    breaks: 'auth-invalid-key-401',
    code: 'SERVER_ERROR',
    description:
      "the token is compared with Python's hmac.compare_digest(token, key) (secrets.compare_digest) as text, which raises TypeError for a string with a character outside ASCII: " +
      'a token holding one (é, which aiohttp, Starlette and Werkzeug hand on as a str) is answered 500, not 401',
    behaviour: {
      authorize: (authorization, key, op) => {
        const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1]
        if (token !== undefined && /[^\x00-\x7f]/.test(token)) throw new TypeError('comparing strings with non-ASCII characters is not supported')
        return conformingBehaviour.authorize(authorization, key, op)
      },
    },
  },
]
