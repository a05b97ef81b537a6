/**
 * Mutations that only a request without the headers the suite's own client always sends catches
 * (a User-Agent naming the run, and Accept): the document asks clients for the Authorization
 * header alone (§5.2), and some send no other (.NET's HttpClient sends no User-Agent and no Accept
 * unless told to). suites/categories/probes.ts sends the list so, once.
 */
import { errorReply, type Mutation } from '../server-cases.ts'

export const REQUEST_HEADER_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the list asked for with the key and no User-Agent or Accept (suites/categories/probes.ts, bareList)
    name: 'user-agent-required-403',
    breaks: 'list-returns-200',
    code: 'UNEXPECTED_STATUS',
    description:
      "a web application firewall in front refuses a request without a User-Agent with 403 before the service sees it (AWS WAF's core rule set, AWSManagedRulesCommonRuleSet, blocks on its NoUserAgent_HEADER rule by default), " +
      "so every client of .NET's HttpClient, which sends none unless told to, gets 403 with the key",
    behaviour: {
      finish: (reply, request) => (request.userAgent === undefined || request.userAgent === '' ? errorReply(403, 'forbidden', 'Request blocked.') : reply),
    },
  },
]
