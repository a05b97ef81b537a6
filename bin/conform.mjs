#!/usr/bin/env node
// Entry of `npm run conform`. It runs dist/, the project compiled to JavaScript by `npm run build`
// (run by npm on install), while dist/ matches the sources; otherwise (never built, or a source
// edited since) it runs the sources themselves through tsx, slower to start but never stale.
import { fileURLToPath } from 'node:url'
import { distIsCurrent } from '../build/source-digest.mjs'

performance.mark('conform:entry')
const root = fileURLToPath(new URL('../', import.meta.url))
let cli
// the suites are loaded by path, here: lib/ never imports suites/ (ARCHITECTURE.md)
let loadSuite
if (distIsCurrent(root)) {
  cli = await import('../dist/lib/cli/conform.js')
  loadSuite = () => import('../dist/suites/manifest.js').then((m) => m.manifest)
} else {
  if (process.stderr.isTTY) process.stderr.write('conform: dist/ does not match the sources (npm run build compiles them); running the sources through tsx\n')
  // the packages first, by plain Node: on Node 20 tsx's loader would otherwise pass every module
  // of them through its transform
  await Promise.all(['undici', 'ajv', 'ajv-formats', 'yaml', 'dotenv', 'lossless-json'].map((name) => import(name)))
  const { register } = await import('tsx/esm/api')
  register()
  cli = await import('../lib/cli/conform.ts')
  loadSuite = () => import('../suites/manifest.ts').then((m) => m.manifest)
}
performance.mark('conform:loaded')
cli.runAsProgram(loadSuite)
