/**
 * compare's arguments: two runs and at most --output FILE. A variable that is not set after
 * --output (`--output $SUMMARY A B`, the shell leaving `--output A B`) took run A as the file to
 * write and left one run: said so, naming the variable, not only "give two runs". An --output that
 * names a run's results.json is refused before anything is read.
 */
import { existsSync, statSync } from 'node:fs'
import { basename, resolve } from 'node:path'
import { flagHint, optionName } from '../config/closest-name.ts'

export type CompareArgs = { help: true } | { problem: string } | { paths: [string, string]; output: string | undefined }

export function compareArgs(argv: readonly string[], cwd: string): CompareArgs {
  const paths: string[] = []
  let output: string | undefined
  let onlyRuns = false // after `--` (POSIX: the end of the options), every argument is a run, as `npm run conform -- compare -- A B` leaves it
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (onlyRuns || arg === '--') {
      if (onlyRuns) paths.push(arg)
      onlyRuns = true
      continue
    }
    if (arg === '--help' || arg === '-h') return { help: true }
    if (arg === '--output') output = argv[++i] ?? '' // last, with nothing after it (`--output $SUMMARY`, the variable not set): named below, not left out
    else if (arg.startsWith('--output=')) output = arg.slice('--output='.length)
    else if (arg.startsWith('-')) return { problem: `unknown option ${JSON.stringify(optionName(arg))}${flagHint(arg, ['output', 'help'])}; see compare --help` }
    else paths.push(arg)
  }
  if (output === '') return { problem: '--output names no file (a variable that is not set?): --output FILE writes the comparison as Markdown' }
  if (paths.length === 1 && output !== undefined && isRun(resolve(cwd, output))) {
    return { problem: `--output took ${JSON.stringify(output)}, a run, as the file to write, and left one run (--output "$VARIABLE" with the variable not set?): give the two runs, then --output FILE` }
  }
  if (paths.length !== 2) return { problem: 'give two runs, A and B (report folders or results.json files), and at most --output FILE' }
  const replaced = output === undefined ? undefined : runReplaced(resolve(cwd, output), paths.map((p) => resolve(cwd, p)))
  if (replaced !== undefined) return { problem: `--output ${JSON.stringify(output)} is ${replaced}: the comparison's Markdown would replace it; give another file, such as --output comparison.md` }
  return { paths: [paths[0] as string, paths[1] as string], output }
}

/**
 * The run `output` would write over: A's or B's results.json, or another run's (`compare A B --output
 * B/results.json` replaced run B's record with Markdown, which no compare or merge could read again).
 */
function runReplaced(output: string, runs: readonly string[]): string | undefined {
  const files = runs.map((run) => (isFolder(run) ? resolve(run, 'results.json') : run))
  const which = files.indexOf(output)
  if (which >= 0) return `run ${which === 0 ? 'A' : 'B'}'s ${basename(output)}`
  return basename(output) === 'results.json' && existsSync(output) ? "a run's results.json" : undefined
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory()
  } catch {
    return false
  }
}

/** A report folder (holding results.json) or a results.json file. */
function isRun(path: string): boolean {
  try {
    return statSync(path).isDirectory() ? existsSync(resolve(path, 'results.json')) : basename(path).endsWith('.json')
  } catch {
    return false
  }
}
