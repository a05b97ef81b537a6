/**
 * The parts of undici a run uses, each loaded from its own file. undici's index loads all of
 * undici (fetch, WebSocket, EventSource, caches, mocks, interceptors): measured on this project's
 * machine, 150 ms and 18 MiB before a run's first request, against 35 ms and 10 MiB for these six
 * files. The types are undici's own (a type import loads nothing).
 *
 * The paths are undici's files, not its documented entry: read against undici 7.30
 * (package-lock.json), which declares no `exports` map, so Node resolves them. Should a later
 * undici move one, loading this module fails, and so does every test that makes a request.
 */
import { createRequire } from 'node:module'
import type * as Undici from 'undici'

const require = createRequire(import.meta.url)

// what undici's index does first: the dispatchers' request() and stream() (lib/api) put on their
// base class. The same functions whoever does it, so a process that also loads undici's index
// (a library caller's) sees no difference.
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js') as object)

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent
export const Client = require('undici/lib/dispatcher/client.js') as typeof Undici.Client
export const Pool = require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool
export declare namespace Pool {
  export type Options = Undici.Pool.Options
}
export const ProxyAgent = require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent
export const buildConnector = require('undici/lib/core/connect.js') as typeof Undici.buildConnector
// the types that come with it (buildConnector.BuildOptions …), as undici declares them
export declare namespace buildConnector {
  export type BuildOptions = Undici.buildConnector.BuildOptions
  export type connector = Undici.buildConnector.connector
}
export const errors = require('undici/lib/core/errors.js') as typeof Undici.errors
/** The mark of a socket undici closes once its answers have ended, and writes no request on meanwhile (client-h1.js: busy, onMessageComplete). */
export const { kReset } = require('undici/lib/core/symbols.js') as { kReset: symbol }
export type { Dispatcher } from 'undici'
