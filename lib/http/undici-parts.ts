/**
 * The parts of undici the client uses (Agent, EnvHttpProxyAgent, request, errors), loaded without
 * the rest of undici's index (fetch, WebSocket, cache, mock agents …): 20 ms instead of 70 in the
 * worker of every run (README, Performance). undici has no `exports` map, so its files can be
 * required one by one; test/http/undici-parts.test.ts proves these are the very classes undici's
 * index exports and that request() sends what undici's own request() sends, so an update of undici
 * that moves a file fails there, not in a user's run.
 */
import { createRequire } from 'node:module'
import type * as Undici from 'undici'

const require = createRequire(import.meta.url)

const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher
const api = require('undici/lib/api/index.js') as { request: (this: Undici.Dispatcher, options: Undici.Dispatcher.RequestOptions) => Promise<Undici.Dispatcher.ResponseData> }
const { parseURL } = require('undici/lib/core/util.js') as { parseURL: (url: string | URL) => URL }
// what undici's index does: every dispatcher gets request(), stream(), pipeline() …
Object.assign(Dispatcher.prototype, api)

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent
export const EnvHttpProxyAgent = require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent
export const errors = require('undici/lib/core/errors.js') as typeof Undici.errors

type RequestOptions = Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path' | 'method'> & { dispatcher: Undici.Dispatcher; method: Undici.Dispatcher.HttpMethod }

/** undici's request(url, options) for an absolute URL and an explicit dispatcher (its index's makeDispatcher, without the forms the client does not use). */
export function request(url: string, { dispatcher, ...options }: RequestOptions): Promise<Undici.Dispatcher.ResponseData> {
  const parsed = parseURL(url)
  return api.request.call(dispatcher, { ...options, origin: parsed.origin, path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname })
}
