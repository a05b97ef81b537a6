/**
 * The `./vitest` entry's peer range admits every vitest a service's team may have: the current
 * major and the two before it, from 3.0 (3.0 and 3.1 have no `context.annotate`: the notes go to
 * the test's console output). A range that left out the service's vitest failed its install, and
 * not with a peer-conflict message: npm 11 (11.19.1) stopped with "Cannot read properties of null
 * (reading 'children')" when a service on vitest 5, or on vitest 3.0.9 (the range began at 3.2),
 * installed the tarball. The versions below were each installed beside the packed tarball in an
 * Express or a Fastify service, whose own vitest then ran the suite, and refused
 * defineConformance() in a hook, in a test and twice in one describe (vitest 5 on Node 22.12 or
 * later, which it needs).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ROOT } from '../helpers/run-conform.ts'

/** vitest versions the entry was tried on: each major it supports, and 3's first minors. */
const TRIED = ['3.0.0', '3.0.9', '3.1.4', '3.2.7', '4.1.12', '5.1.1']

const numbers = (version: string) => version.split('.').map(Number) as [number, number, number]

/** Whether `version` satisfies `range`, a set of caret ranges joined by `||` (the only form the peer range uses). */
function admits(range: string, version: string): boolean {
  const [major, minor, patch] = numbers(version)
  return range.split('||').some((part) => {
    const caret = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part)
    if (!caret) throw new Error(`not a caret range: ${part}`)
    const [low, lowMinor, lowPatch] = caret.slice(1).map(Number) as [number, number, number]
    return major === low && (minor > lowMinor || (minor === lowMinor && patch >= lowPatch))
  })
}

test('the vitest peer range admits the vitest majors the entry was tried on, in package.json and its lockfile', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { peerDependencies: Record<string, string> }
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { peerDependencies?: Record<string, string> }> }
  const range = pkg.peerDependencies.vitest ?? ''
  expect(lock.packages['']?.peerDependencies?.vitest).toBe(range)
  for (const version of TRIED) expect(admits(range, version), `${version} in ${range}`).toBe(true)
  // and the vitest the project's own tests run on
  const installed = (JSON.parse(readFileSync(join(ROOT, 'node_modules/vitest/package.json'), 'utf8')) as { version: string }).version
  expect(admits(range, installed), `${installed} in ${range}`).toBe(true)
})
