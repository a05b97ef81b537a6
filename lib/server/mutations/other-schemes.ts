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

/** The user name and password of HTTP Basic credentials (RFC 7617: base64 of "user:password", the user without a colon). */
function basicCredentials(authorization: string | undefined): { user: string; password: string } | undefined {
  const basic = /^Basic (\S+)$/.exec(authorization ?? '')
  if (!basic) return undefined
  const text = Buffer.from(basic[1], 'base64').toString('utf8')
  const colon = text.indexOf(':')
  return colon < 0 ? undefined : { user: text.slice(0, colon), password: text.slice(colon + 1) }
}

export const OTHER_SCHEME_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the key as the user name and the password under the Basic scheme (suites/cases/credentials.ts), on the list
    name: 'basic-credentials-with-key-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "HTTP Basic is taken too, with the key as the user name and the password ignored, as Stripe's API takes it (curl -u KEY:): Basic base64(<key>:<anything>) is let in",
    behaviour: {
      authorize: (authorization, key, operation, cookie) => basicCredentials(authorization)?.user === key || conformingBehaviour.authorize(authorization, key, operation, cookie),
    },
  },
  {
    // caught by the key as the user name and the password of the Basic credentials (suites/cases/credentials.ts), on the list
    name: 'basic-password-key-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "HTTP Basic is taken too, with the key as the password and any user name, as Heroku's API (curl -u :KEY), Mailgun's (api:KEY) and Twilio's take theirs: Basic base64(<user>:<key>) is let in",
    behaviour: {
      authorize: (authorization, key, operation, cookie) => basicCredentials(authorization)?.password === key || conformingBehaviour.authorize(authorization, key, operation, cookie),
    },
  },
]
