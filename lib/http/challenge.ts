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
 * A front's firewall refuses a request with a block page of its own, which no header names: Cloudflare's
 * "Sorry, you have been blocked" (title "Attention Required! | Cloudflare", a WAF rule's Block action or a
 * blocked address) and Akamai's "Access Denied … Reference #18.…" (its Edge WAF and Bot Manager).
 */
const BLOCK_PAGES = [
  { front: 'Cloudflare', words: /Sorry, you have been blocked|Attention Required! \| Cloudflare/ },
  { front: 'Akamai', words: /You don't have permission to access[\s\S]*Reference(?:&#32;| )(?:&#35;|#)\d/ },
] as const

/** The front whose block page an answer is, or undefined. */
export const blockPageOf = (response: { status: number; body: string }): { front: string } | undefined =>
  response.status === 403 ? BLOCK_PAGES.find(({ words }) => words.test(response.body)) : undefined
