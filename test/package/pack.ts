/** `npm pack` of the project, as a user's `npx ./<tarball>` or a release would get it. */
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { ROOT } from '../helpers/run-conform.ts'

/** npm installs and whole runs on a shared 2-core machine: generous, the child processes have their own limits. */
export const SLOW = 240_000

export interface PackedFile {
  path: string
  mode: number
}

export interface Packed {
  tarball: string
  files: PackedFile[]
}

/** Packs the project into `destination` (running its prepack step, if any) and lists what went in. */
export function packProject(destination: string): Packed {
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // a prepack step may print before npm's JSON
  const [packed] = JSON.parse(output.slice(output.indexOf('\n[') + 1 || output.indexOf('['))) as [{ filename: string; files: PackedFile[] }]
  return { tarball: join(destination, packed.filename), files: packed.files }
}
