/**
 * Mutations written as a Rails 6.1 API service gets them wrong with what its generators and
 * guides write (measured on Debian 12's ruby-rails, Puma and sqlite3): the scaffold's
 * `params.require(:category).permit(:name, :description)`, and the token check of
 * ActionController::HttpAuthentication::Token (`authenticate_or_request_with_http_token`).
 */
import { conformingBehaviour } from '../reference-server.ts'
import { isPlainObject, type Mutation } from '../server-cases.ts'

export const RAILS_MUTATIONS: readonly Mutation[] = [
  {
    name: 'token-scheme-accepted',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "the key is read as Rails' authenticate_with_http_token reads it, under the Token scheme as under Bearer (its TOKEN_REGEX is /^(Token|Bearer)\\s+/): Authorization: Token <key> is let in",
    behaviour: {
      authorize: (authorization, key, operation, cookie) => conformingBehaviour.authorize((authorization ?? '').replace(/^Token /, 'Bearer '), key, operation, cookie),
    },
  },
  {
    name: 'token-options-split',
    breaks: 'auth-invalid-key-401',
    code: 'UNEXPECTED_STATUS',
    description:
      "the bearer token is read as Rails' token_and_options reads it: what precedes a comma, a semicolon or a tab, its quotes and a token= taken away " +
      '(Bearer <key>,x and Bearer "<key>" are let in)',
    behaviour: {
      authorize: (authorization, key, operation, cookie) => {
        const match = /^Bearer\s+(.*)$/.exec(authorization ?? '')
        if (!match) return false
        const token = match[1].split(/\s*[,;\t]\s*/)[0].replace(/^token=/, '').replace(/^"|"$/g, '')
        return conformingBehaviour.authorize(`Bearer ${token}`, key, operation, cookie)
      },
    },
  },
  {
    name: 'record-under-root-key-taken',
    breaks: 'create-rejects-missing-name',
    code: 'UNEXPECTED_STATUS',
    description:
      'a body without name is taken when it holds the category under the key "category": the scaffold\'s params.require(:category) reads the record there, ' +
      "which wrap_parameters fills from the top-level keys only when the body has no such key",
    behaviour: {
      parseBody(text) {
        const body = JSON.parse(text) as unknown
        return isPlainObject(body) && !('name' in body) && isPlainObject(body.category) ? body.category : body
      },
    },
  },
]
