#!/usr/bin/env node
// Entry of `npm run conform`. It runs dist/, the project compiled to JavaScript by `npm run build`
// (run by npm on install), while dist/ matches the sources; otherwise (never built, or a source
// edited since) it runs the sources themselves through tsx, slower to start but never stale.
// the one static import: every other module is loaded after its body holds SIGINT and SIGTERM
// (static imports are all loaded before any body runs)
import { releaseSignals } from './held-signals.mjs'
const { fileURLToPath } = await import('node:url')
const { setFlagsFromString } = await import('node:v8')
const { distIsCurrent } = await import('../build/source-digest.mjs')

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
cli.runAsProgram(loadSuite, undefined, releaseSignals())
