/**
 * Mutations of §5.1 and §5.2 that take the key under a scheme other than Bearer, as a framework
 * or an API's convention does beside it (auth-invalid-key-401: the key not sent as a bearer token).
 * suites/cases/credentials.ts sends each on the list; so is the key in the headers of API-key
 * schemes (api_key, X-API-Key, apikey) and in cookies with no Authorization header: a request without a
 * bearer credential, whose key is missing where §5.2 sends it (auth-missing-key-401, as a session
 * cookie alone is). The Token scheme (Django REST framework's
 * TokenAuthentication, Rails' authenticate_with_http_token) is mutation token-scheme-accepted
 * (rails.ts): one input catches both, so one mutation stands for both.
 */
import { conformingBehaviour } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

export const OTHER_SCHEME_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the key as the user name under the Basic scheme (suites/cases/credentials.ts), on the list
    name: 'basic-credentials-with-key-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "HTTP Basic is taken too, with the key as the user name and no password, as Stripe's API takes it (curl -u KEY:): Basic base64(<key>:) is let in",
    behaviour: {
      authorize: (authorization, key, operation, cookie) =>
        authorization === `Basic ${Buffer.from(`${key}:`).toString('base64')}` || conformingBehaviour.authorize(authorization, key, operation, cookie),
    },
  },
]
