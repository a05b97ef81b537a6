#!/usr/bin/env node
// Entry of `npm run conform`. The packages are loaded by plain Node first, and only then is tsx
// registered for the project's own TypeScript: on Node 20 tsx's loader would otherwise pass every
// module of vitest and vite through its transform, which costs about 0.4 s per run.
import 'vitest/node'
import 'undici'
import 'ajv'
import 'ajv-formats'
import 'yaml'
import 'dotenv'
import 'lossless-json'
import { register } from 'tsx/esm/api'

register()
const { runAsProgram } = await import('../lib/cli/conform.ts')
runAsProgram()
