/**
 * `npm run build`, also run by npm as `prepare` (on `npm install` in a clone, and
 * before `npm pack`): compiles lib/, suites/ and entry/ to JavaScript and type declarations in dist/ (tsconfig.build.json), copies
 * their other files beside it, writes spec/*.yaml as JSON beside them (lib/spec/spec-files.ts) and the
 * schemas' validators as code (lib/spec/schema-registry.ts), then records the digest of the sources
 * (build/source-digest.mjs). A run then loads plain JavaScript and JSON: no TypeScript transform and
 * no YAML parser at start-up, and vitest imports the suites natively (lib/runner/conform-run.ts).
 * Types are checked by `npm run typecheck`, not here, so that an install never fails on them.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { BUILD_CONFIG, DIGEST_NAME, DIST_DIR, sourceDigest, sourceFiles } from './source-digest.mjs'

const root = fileURLToPath(new URL('../', import.meta.url))
const outDir = join(root, DIST_DIR)
const require = createRequire(import.meta.url)

let tsc
try {
  tsc = join(require.resolve('typescript/package.json'), '../bin/tsc')
} catch {
  // an install without devDependencies: nothing to compile with; runs use the sources through tsx
  process.stderr.write('build: typescript (a devDependency) is not installed; runs use the sources through tsx\n')
  process.exit(0)
}
// taken before compiling: a source edited meanwhile leaves dist/ marked stale, never the reverse
const digest = sourceDigest(root)
// built beside dist/ and swapped in at the end, so that runs going on meanwhile (npm test, npm pack
// while tests run) never see a half-written dist/
const building = `${outDir}.building-${process.pid}`
rmSync(building, { recursive: true, force: true })
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, BUILD_CONFIG), '--outDir', building], { cwd: root, stdio: 'inherit' })
if (compiled.status !== 0) {
  rmSync(building, { recursive: true, force: true })
  process.stderr.write(`build: tsc exited ${compiled.status ?? compiled.signal}; ${outDir} is left as it was\n`)
  process.exit(1)
}
// what the code reads beside itself (a stylesheet …): copied, since tsc emits only JavaScript
for (const dir of ['lib', 'suites', 'entry']) {
  for (const file of sourceFiles(root, dir).filter((name) => !name.endsWith('.ts'))) {
    mkdirSync(dirname(join(building, dir, file)), { recursive: true })
    copyFileSync(join(root, dir, file), join(building, dir, file))
  }
}
// the declarations keep the sources' import paths (tsc rewrites them in JavaScript only): they name
// the .d.ts beside them, as a consumer's TypeScript resolves .js to it
for (const dir of ['lib', 'suites', 'entry']) {
  for (const file of sourceFiles(building, dir).filter((name) => name.endsWith('.d.ts'))) {
    const path = join(building, dir, file)
    writeFileSync(path, readFileSync(path, 'utf8').replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]+)\.ts\2/g, '$1$2$3.js$2'))
  }
}
const { parse } = require('yaml')
mkdirSync(join(building, 'spec'), { recursive: true })
for (const file of readdirSync(join(root, 'spec')).filter((name) => name.endsWith('.yaml'))) {
  const data = parse(readFileSync(join(root, 'spec', file), 'utf8'))
  writeFileSync(join(building, 'spec', file.replace(/\.yaml$/, '.json')), JSON.stringify(data))
}
// the schema validators, generated once here instead of compiled by every run (lib/spec/schema-registry.ts)
const { standaloneValidators, GENERATED_ALL_ERRORS } = await import(pathToFileURL(join(building, 'lib/spec/schema-registry.js')).href)
writeFileSync(join(building, 'spec', 'schema-validators.cjs'), standaloneValidators())
writeFileSync(join(building, 'spec', GENERATED_ALL_ERRORS), standaloneValidators(true))
writeFileSync(join(building, DIGEST_NAME), digest + '\n')
const replaced = `${outDir}.replaced-${process.pid}`
if (existsSync(outDir)) renameSync(outDir, replaced)
renameSync(building, outDir)
rmSync(replaced, { recursive: true, force: true })
