/**
 * What a measured child process used: CPU time and peak memory from process.resourceUsage(), and the
 * phase marks of its performance timeline (lib/runner/run-phases.ts), written on exit by a module
 * preloaded with --import. CPU time is what a busy machine inflates least.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const PROBE = `import { writeFileSync } from 'node:fs'
process.on('exit', () => {
  try {
    const marks = Object.fromEntries(performance.getEntriesByType('mark').map((m) => [m.name, m.startTime]))
    writeFileSync(process.env.BENCH_USAGE_FILE, JSON.stringify({ usage: process.resourceUsage(), marks, timeOrigin: performance.timeOrigin }))
  } catch {}
})
`

export interface ProcessUsage {
  /** User + system CPU time of every thread of the process, ms. */
  cpuMs: number
  peakRssMiB: number
  /** Mark name → epoch ms (performance.timeOrigin of the child + the mark's time). */
  marksAt: Record<string, number>
}

/** Writes the probe into `dir`; returns the node arguments that preload it. */
export function usageProbeArgs(dir: string): string[] {
  const path = join(dir, 'usage-probe.mjs')
  writeFileSync(path, PROBE)
  return ['--import', pathToFileURL(path).href]
}

/** What the probe wrote, or undefined when the process died before its exit handler. */
export function readUsage(file: string): ProcessUsage | undefined {
  try {
    const { usage, marks, timeOrigin } = JSON.parse(readFileSync(file, 'utf8')) as { usage: NodeJS.ResourceUsage; marks: Record<string, number>; timeOrigin: number }
    return {
      cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
      peakRssMiB: usage.maxRSS / 1024,
      marksAt: Object.fromEntries(Object.entries(marks).map(([name, at]) => [name, timeOrigin + at])),
    }
  } catch {
    return undefined
  }
}
