/**
 * Mutations of a service behind a front that challenges some requests only: the front's challenges
 * judge nothing (lib/result/front-answered.ts), but the service's own answers to the requests it let
 * through are the service's, and a rule they break is the verdict (exit 1), not "no verdict".
 */
import type { Reply } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

/** Cloudflare's managed challenge, as a WAF custom rule with the Managed Challenge action answers a client that runs no JavaScript. */
const CHALLENGE: Reply = {
  status: 403,
  headers: { 'content-type': 'text/html; charset=UTF-8', 'cf-mitigated': 'challenge', server: 'cloudflare' },
  body: '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title></head><body><noscript>Enable JavaScript and cookies to continue</noscript></body></html>',
}

export const FRONT_MUTATIONS: readonly Mutation[] = [
  {
    name: 'list-wrapped-behind-area-challenge',
    breaks: 'list-returns-category-array',
    code: 'SCHEMA_MISMATCH',
    description:
      'the list comes wrapped in an envelope ({"items": [...]}), behind Cloudflare with a WAF custom rule that answers every request to the pets and store areas with its managed challenge ' +
      '(403, cf-mitigated: challenge): the categories are the service\'s answers, and the wrapped list fails whatever the front did to the other paths',
    behaviour: {
      listBody: (store) => ({ items: store }),
      finish: (reply, request) => (/\/(?:pets|store)\//.test(request.path) ? CHALLENGE : reply),
    },
  },
]
