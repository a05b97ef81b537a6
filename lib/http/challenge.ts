/**
 * A front's bot check answers a client that runs no JavaScript with a challenge page, and says so in
 * a header of its own: Cloudflare's `cf-mitigated: challenge` (403, "Just a moment..."), the header
 * its documentation gives for telling a challenge from the site's answer; Vercel's
 * `x-vercel-mitigated: challenge` (429); AWS WAF's `x-amzn-waf-action: challenge` (202) and
 * `captcha` (405). Only a browser passes one, so a challenge is not waited out as a rate limit is
 * (lib/http/client.ts), and its answers judge nothing of the service (lib/result/front-answered.ts).
 */

/** The fronts whose challenges say so in a header, and the header. */
const CHALLENGE_HEADERS = [
  { front: 'Cloudflare', header: 'cf-mitigated', value: /^challenge$/i },
  { front: 'Vercel', header: 'x-vercel-mitigated', value: /^challenge$/i },
  { front: 'AWS WAF', header: 'x-amzn-waf-action', value: /^(challenge|captcha)$/i },
] as const

/** The front whose challenge an answer with these (lower-cased) headers is, and its header; undefined for any other answer. */
export const challengeOf = (headers: Readonly<Record<string, string | undefined>>): { front: string; header: string } | undefined =>
  CHALLENGE_HEADERS.find(({ header, value }) => value.test(headers[header] ?? ''))

/**
 * A front refuses a request with a page of its own, which no header names: its firewall's block page,
 * Cloudflare's "Sorry, you have been blocked" (title "Attention Required! | Cloudflare", a WAF rule's
 * Block action or a blocked address) and Akamai's "Access Denied … Reference #18.…" (its Edge WAF
 * and Bot Manager); and Azure API Management's 401 for want of its subscription key
 * (`Ocp-Apim-Subscription-Key`), which it asks of every request before any policy, the service's key
 * in Authorization or not (measured against an emulation: "the server refused the key"); and Cloud Run's
 * 401 or 403 where the service requires authentication (IAM), which reads Authorization as its own.
 */
export interface FrontRefusal {
  front: string
  statuses: readonly number[]
  words: RegExp
  /** What the answer is, after the front's name ("Cloudflare's block page"). */
  refusal: string
  /** Why the front gave it. */
  why: string
  /** How the suite's requests get past it. */
  through: string
}

const FRONT_REFUSALS: readonly FrontRefusal[] = [
  {
    front: 'Cloudflare', statuses: [403], words: /Sorry, you have been blocked|Attention Required! \| Cloudflare/, refusal: 'block page',
    why: "its firewall refused the request before the service saw it (a managed rule that matched the body's markup, quotes or SQL words, a rate rule, a blocked address)",
    through: 'a WAF custom rule with the Skip action for the User-Agent petstore-conform/, or a header given with --header, or its address',
  },
  {
    front: 'Akamai', statuses: [403], words: /You don't have permission to access[\s\S]*Reference(?:&#32;| )(?:&#35;|#)\d/, refusal: 'block page',
    why: "its firewall refused the request before the service saw it (a managed rule that matched the body's markup, quotes or SQL words, a rate rule, a blocked address)",
    through: 'an exception of its security configuration for the User-Agent petstore-conform/, or a header given with --header, or its address',
  },
  {
    front: 'Azure API Management', statuses: [401], words: /Access denied due to (?:missing|invalid) subscription key/, refusal: 'refusal for want of its subscription key',
    why: 'it asks every request for its subscription key (the Ocp-Apim-Subscription-Key header) before the service sees it, whatever Authorization holds',
    through: "give it with --header 'Ocp-Apim-Subscription-Key: <subscription key>' (redacted in every output, as the key is), or turn off Subscription required for the API",
  },
  {
    front: 'Google Cloud Run', statuses: [401, 403], words: /Your client does not have permission to (?:get URL|the requested URL)/, refusal: 'refusal of the invoker (IAM)',
    why: "a service that requires authentication takes Authorization for a Google identity token, so the service's own key never gets past it",
    through: "allow unauthenticated invocations (--allow-unauthenticated) and keep the key check in the service, or give an identity token with --header 'X-Serverless-Authorization: Bearer <token>', which Cloud Run reads first",
  },
]

/** The front whose own refusal an answer is, or undefined. */
export const blockPageOf = (response: { status: number; body: string }): FrontRefusal | undefined =>
  FRONT_REFUSALS.find(({ statuses, words }) => statuses.includes(response.status) && words.test(response.body))
