/**
 * A package registry on loopback that serves exactly the versions of the project's lockfile, with
 * the tarballs read from npm's local cache (filled by the `npm ci` that runs before the tests).
 *
 * Why not `npx --offline`: npm 11 resolves the dependencies of a tarball from full registry
 * metadata, and `npm ci` caches only the tarballs (and, for a lockfile without `resolved` URLs,
 * the abbreviated metadata), so an offline `npx ./tool.tgz` fails with ENOTCACHED on a machine
 * that has everything it needs. Served from here, npm runs its ordinary resolution and install,
 * the tests never reach the internet, and the versions installed are the ones the project tests.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

interface LockEntry {
  name?: string
  version?: string
  integrity?: string
  link?: boolean
  [field: string]: unknown
}

/** The fields of a lock entry that are also fields of a version in registry metadata. */
const MANIFEST_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
  'bin',
  'engines',
  'os',
  'cpu',
  'libc',
  'license',
  'hasInstallScript',
]

export interface LockfileRegistry {
  /** Ends in a slash, as npm's `registry` setting expects. */
  url: string
  /** name@version of every tarball npm asked for that the cache does not hold. */
  missing: string[]
  close(): Promise<void>
}

/** npm's cache folder: the one `npm test` was started with, else what npm says. */
export function npmCacheDir(): string {
  if (process.env.npm_config_cache) return process.env.npm_config_cache
  const answer = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' })
  return answer.stdout.trim()
}

/** Where cacache keeps the bytes whose Subresource Integrity is `integrity`. */
function cachedContentPath(cacheDir: string, integrity: string): string {
  const [algorithm, base64] = integrity.split(/\s+/)[0].split('-', 2) as [string, string]
  const hex = Buffer.from(base64, 'base64').toString('hex')
  return join(cacheDir, '_cacache', 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4))
}

export async function startLockfileRegistry(lockfilePath: string, cacheDir = npmCacheDir()): Promise<LockfileRegistry> {
  const lock = JSON.parse(readFileSync(lockfilePath, 'utf8')) as { packages: Record<string, LockEntry> }
  const packuments = new Map<string, { name: string; versions: Record<string, Record<string, unknown>> }>()
  const tarballs = new Map<string, { id: string; integrity: string }>()
  const server: Server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://registry').pathname.slice(1))
    const tarball = tarballs.get(path)
    if (tarball) {
      const file = cachedContentPath(cacheDir, tarball.integrity)
      if (!existsSync(file)) {
        registry.missing.push(tarball.id)
        response.writeHead(404).end()
        return
      }
      response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file))
      return
    }
    const packument = packuments.get(path)
    if (!packument) {
      response.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}')
      return
    }
    const latest = Object.keys(packument.versions).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).at(-1) as string
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...packument, 'dist-tags': { latest } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`

  for (const [location, entry] of Object.entries(lock.packages)) {
    if (location === '' || entry.link || !entry.version || !entry.integrity) continue
    const name = entry.name ?? location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length)
    const file = `${name}/-/${name.split('/').pop()}-${entry.version}.tgz`
    tarballs.set(file, { id: `${name}@${entry.version}`, integrity: entry.integrity })
    const manifest: Record<string, unknown> = { name, version: entry.version, dist: { tarball: url + file, integrity: entry.integrity } }
    for (const field of MANIFEST_FIELDS) if (entry[field] !== undefined) manifest[field] = entry[field]
    const packument = packuments.get(name) ?? { name, versions: {} }
    packument.versions[entry.version] = manifest
    packuments.set(name, packument)
  }

  const registry: LockfileRegistry = {
    url,
    missing: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  return registry
}
