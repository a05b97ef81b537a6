#!/usr/bin/env node
// Entry of `npm run conform`. It runs dist/, the project compiled to JavaScript by `npm run build`
// (run by npm on install), while dist/ matches the sources; otherwise (never built, or a source
// edited since) it runs the sources themselves through tsx, slower to start but never stale.
import { fileURLToPath } from 'node:url'
import { setFlagsFromString } from 'node:v8'
import { distIsCurrent } from '../build/source-digest.mjs'

performance.mark('conform:entry')
// A signal while the program loads (half a second, several on a loaded machine) killed it without a
// word, leaving an earlier run's reports in the folder as if they were this one's. Until the
// program's own handler takes over (lib/cli/signal-exit.ts), the signal is held here: said at once,
// then handed over, and the run writes reports that say it was interrupted before it started. A
// second signal, or a program still loading 3 s on, exits at once, saying that nothing was sent.
const EXITS = { SIGINT: 130, SIGTERM: 143 }
const early = { signal: undefined, at: 0, timer: undefined }
const onEarlySignal = (signal) => {
  const leave = (why) => {
    process.stderr.write(`conform: ${why}: exiting now, without the reports; no request was sent\n`)
    process.exit(EXITS[signal] ?? 2)
  }
  if (early.signal !== undefined) return leave(early.signal === signal ? `${signal} again` : `${signal} after ${early.signal}`)
  early.signal = signal
  early.at = performance.now()
  process.stderr.write(`conform: ${signal} while starting: stopping before any request; the reports will say so (${signal} again: exit at once, without them)\n`)
  early.timer = setTimeout(() => leave(`still starting 3 s after ${signal}`), 3_000)
}
process.on('SIGINT', onEarlySignal)
process.on('SIGTERM', onEarlySignal)
// --api-key KEY shows in ps (/proc/PID/cmdline, which every user of the machine may read) for as
// long as the process lives: a title written in its place wipes it, as libuv writes the title over
// the memory of the arguments, after Node copied them into process.argv. A parent that started
// this one (npm, a shell's sh -c) still shows it: CONFORM_API_KEY is the way that shows nowhere.
// --header too: its value may be a gateway's own secret (a subscription key, a signed assertion)
// whatever its name says, and CONFORM_HEADERS is the way that shows nowhere.
if (process.argv.some((arg) => /^--(api-key|header)(=|$)/.test(arg))) process.title = 'petstore-conform'
// The one WebAssembly of a run is undici's HTTP parser (llhttp). V8 compiles it at once with its
// baseline compiler (Liftoff), then again with its optimising one (TurboFan) in a background
// thread once it is hot: that second compile of llhttp's state machine took ~30 MiB of memory for
// a moment, the peak of a whole run (122 MiB against 97 MiB), and ~0.05 s of CPU, for a parser
// that reads the headers of ~130 answers. Set here, before the first connection compiles it, and
// only for the program: a library caller's process keeps its own flags (docs/performance.md).
setFlagsFromString('--liftoff-only')
const root = fileURLToPath(new URL('../', import.meta.url))
let cli
// the suites are loaded by path, here: lib/ never imports suites/ (ARCHITECTURE.md)
let loadSuite
try {
  if (distIsCurrent(root)) {
    cli = await import('../dist/lib/cli/conform.js')
    loadSuite = () => import('../dist/suites/manifest.js').then((m) => m.manifest)
  } else {
    if (process.stderr.isTTY) process.stderr.write('conform: dist/ does not match the sources (npm run build compiles them); running the sources through tsx\n')
    // the packages first, by plain Node: on Node 20 tsx's loader would otherwise pass every module
    // of them through its transform (undici's files are required by lib/http/undici-parts.ts, past it)
    await Promise.all(['ajv', 'ajv-formats', 'yaml', 'dotenv', 'lossless-json'].map((name) => import(name)))
    const { register } = await import('tsx/esm/api')
    register()
    cli = await import('../lib/cli/conform.ts')
    loadSuite = () => import('../suites/manifest.ts').then((m) => m.manifest)
  }
} catch (error) {
  // a clone whose packages were never installed (`npm install` skipped): one line, not a stack
  const missing = error?.code === 'ERR_MODULE_NOT_FOUND' && /^Cannot find package '([^']+)'/.exec(error.message)
  if (!missing) throw error
  process.stderr.write(`conform: the package ${missing[1]} is not installed: run npm install (or npm ci) in ${root.replace(/[\\/]+$/, '')}, then the command again\n`)
  process.exit(2)
}
performance.mark('conform:loaded')
process.off('SIGINT', onEarlySignal)
process.off('SIGTERM', onEarlySignal)
clearTimeout(early.timer)
cli.runAsProgram(loadSuite, undefined, early.signal === undefined ? undefined : { signal: early.signal, sinceMs: performance.now() - early.at })
