/**
 * `petstore-conform merge DIR... --report-dir OUT`: the report folders of runs made apart (one CI
 * job per deployment, a matrix) joined into one fleet page and one exit code, exactly as a fleet
 * run of those deployments writes them (lib/fleet/): fleet.json, fleet.md, fleet.html and
 * junit.xml in OUT. A folder's name is its deployment's label; a fleet's folder (fleet.json)
 * brings its deployments. Exit 1 when any deployment failed, 2 when none failed but one could not
 * be judged or an input cannot be read, 0 otherwise.
 */
import { existsSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { createRedactor } from '../http/redact.ts'
import { redactorOfRuns } from '../reporters/reproduce-key.ts'
import { toolVersion } from '../project-root.ts'
import { FLEET_FILES } from '../fleet/fleet-files.ts'
import { deploymentOf, fleetOf, readRunFolder, unreadRun, type FleetDeployment, type FleetResult, type RunFile } from '../fleet/fleet-result.ts'
import { writeFleetReports } from '../fleet/fleet-reports.ts'
import { noteOtherVersions, noteStaleRuns } from '../fleet/stale-runs.ts'
import { labelProblem, MAX_DEPLOYMENTS, tooManyDeployments } from '../fleet/targets.ts'
import { visibleLine } from '../reporters/visible-text.ts'
import { plural } from '../reporters/wording.ts'
import { journalBaseUrl } from '../fleet/run-folder-words.ts'
import { readReportJson, whyUnreadable } from '../config/user-file.ts'
import { JOURNAL_FILE } from '../runner/report-files.ts'
import { flagHint, optionName } from '../config/closest-name.ts'

export const MERGE_USAGE = `Usage: petstore-conform merge DIR... --report-dir OUT [--expect N]      (npm run conform -- merge …)

Joins the report folders of runs made apart (one CI job per deployment) into one fleet page:
fleet.json, fleet.md, fleet.html (a deployment × rule matrix linking each report.html) and
junit.xml (one testsuite per deployment) in OUT. Each DIR holds a run's results.json, and its
folder name is the deployment's label; a DIR holding a fleet.json brings each of its deployments,
and, if that fleet had no verdict (it could not be run), its reason: the merge then has none.
Exit 1 when any deployment failed, 2 when none failed but one could not be judged, or an input
cannot be read; 0 otherwise. --expect N: the folders must hold N deployments, or (a CI job that
wrote no reports) the fleet has no verdict: exit 2 unless one failed. Under GitHub Actions the fleet's summary goes to the job summary.
With OUT the folder the DIRs are in, the page's links work wherever the folder is copied, and
the files a merge writes there are skipped when given: merge OUT/* --report-dir OUT runs again.
OUT is never a run's own report folder (one holding results.json, or the journal.ndjson of a run
stopped before its reports): the page would remove them.`

interface Input {
  label: string
  dir: string
  /** The base URL as a fleet run was given it; else the run's own. */
  baseUrl?: string
}

/**
 * The deployments a DIR brings: itself (results.json), or each of a fleet's (fleet.json), with
 * why that fleet had no verdict of its own (it could not be run, or was not whole), if it had none.
 */
function inputsOf(dir: string, given: string): { inputs: Input[]; error?: string } {
  if (!existsSync(join(dir, 'results.json')) && existsSync(join(dir, 'fleet.json'))) {
    const file = join(dir, 'fleet.json')
    let fleet: Partial<FleetResult> | null
    try {
      fleet = readReportJson(file) as Partial<FleetResult> | null
    } catch (error) {
      throw new Error(`cannot read ${file}: ${whyUnreadable(error)}`)
    }
    if (!Array.isArray(fleet?.deployments) || !fleet.deployments.every((d) => typeof d === 'object' && d !== null)) throw new Error(`${file} is not a fleet's`)
    // a fleet judges one deployment at least, or says why it could not (its error): an emptied list would bring nothing, and a failed fleet pass
    if (fleet.deployments.length === 0 && fleet.error === undefined) throw new Error(`${file} lists no deployment and no reason: every fleet has a deployment, or says why it could not be run (a file edited by hand or cut short?)`)
    // a fleet writes only labels that are folder names: another (../x) is a file edited by hand, and names no folder of it
    const edited = fleet.deployments.find((d: FleetDeployment) => labelProblem(String(d.label)) !== undefined)
    if (edited) throw new Error(`${file} lists a deployment whose ${labelProblem(String(edited.label))}`)
    const inputs = fleet.deployments.map((d: FleetDeployment) => ({ label: String(d.label), dir: join(dir, String(d.label)), baseUrl: String(d.baseUrl) }))
    // a fleet that could not be run has no deployment to bring: its reason must not vanish from the gate
    return { inputs, ...(fleet.error !== undefined ? { error: `the fleet of ${given} had no verdict: ${String(fleet.error)}` } : {}) }
  }
  return { inputs: [{ label: basename(dir), dir }] }
}

/** A folder's stat, or undefined when nothing is there; a symbolic link in a loop is said in words, not as Node's ELOOP. */
function folderStat(dir: string, given: string) {
  try {
    return statSync(dir, { throwIfNoEntry: false })
  } catch (error) {
    throw new Error(`${given} is no folder: ${whyUnreadable(error)}`)
  }
}

/** Runs `merge`; returns the exit code. Never throws. */
export function mergeMain(argv: string[], io: { out(text: string): void; err(text: string): void }, cwd: string, env: NodeJS.ProcessEnv): number {
  const dirs: string[] = []
  let out: string | undefined
  let expect: string | undefined
  let onlyFolders = false // after `--` (POSIX: the end of the options), every argument is a folder
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string
    if (onlyFolders || arg === '--') {
      if (onlyFolders) dirs.push(arg)
      onlyFolders = true
      continue
    }
    if (arg === '--help' || arg === '-h') return io.out(MERGE_USAGE + '\n'), 0
    if (arg === '--report-dir') out = argv[++i] ?? '' // last, with nothing after it (`--report-dir $OUT`, the variable not set): named below
    else if (arg.startsWith('--report-dir=')) out = arg.slice('--report-dir='.length)
    else if (arg === '--expect') expect = argv[++i] ?? ''
    else if (arg.startsWith('--expect=')) expect = arg.slice('--expect='.length)
    else if (arg.startsWith('-')) return io.err(`conform merge: unknown option ${JSON.stringify(visibleLine(optionName(arg)).slice(0, 40))}${flagHint(arg, ['report-dir', 'expect', 'help'])}; see merge --help\n`), 2
    else dirs.push(arg)
  }
  if (out === '') return io.err('conform merge: --report-dir names no folder (a variable that is not set?): --report-dir OUT is where the fleet page goes\n'), 2
  if (dirs.length === 0 || !out) return io.err('conform merge: give the report folders to join and --report-dir OUT, where the fleet page goes\n'), 2
  if (expect !== undefined && (!/^[1-9]\d{0,3}$/.test(expect) || Number(expect) > MAX_DEPLOYMENTS)) return io.err(`conform merge: --expect takes the number of deployments the folders must hold, such as --expect 3 (at most ${MAX_DEPLOYMENTS})\n`), 2
  const outDir = resolve(cwd, out)
  const redact = createRedactor(env.CONFORM_API_KEY)
  // a run's own report folder: the fleet page would remove its results.json, report.html and journal
  // a run killed before its reports left its journal alone there: the only record of the writes it may have made
  const ownFile = ['results.json', JOURNAL_FILE].find((name) => existsSync(join(outDir, name)))
  if (ownFile) return io.err(`conform merge: ${redact(visibleLine(out))} holds a run's ${ownFile === 'results.json' ? 'reports (results.json)' : `journal (${JOURNAL_FILE}, of a run stopped before its reports)`}, which the fleet page would remove; give --report-dir the folder the report folders are in, or a new one\n`), 2
  const tool = { name: 'petstore-categories-conformance', version: toolVersion() }
  const runs: RunFile[] = []
  const deployments: FleetDeployment[] = []
  const seen = new Map<string, string>()
  const errors: string[] = []
  try {
    for (const given of dirs) {
      const dir = resolve(cwd, given)
      // `merge OUT/* --report-dir OUT` again: the files the last merge wrote are not report folders
      if (dirname(dir) === outDir && (FLEET_FILES as readonly string[]).includes(basename(dir)) && statSync(dir, { throwIfNoEntry: false })?.isFile()) continue
      if (dir === outDir) throw new Error(`${given} is the --report-dir too: the fleet's junit.xml would replace its own; give OUT as the folder the report folders are in`)
      // a shell pattern that matched nothing comes as it was written (fleet/*/): say so, not that its name is no label
      const stat = folderStat(dir, given)
      // a run's results.json given (as compare takes one): its folder is the deployment, and its name the label
      const file = stat?.isFile() ? `: a file; give the folder that holds it${basename(dir) === 'results.json' ? `, ${dirname(given) || '.'} (its name is the deployment's label)` : ''}` : ''
      const pattern = /[*?[]/.test(given) ? ' (a pattern that matched nothing: did the jobs upload their reports?)' : undefined
      if (!stat?.isDirectory()) throw new Error(`${given} is no folder${pattern ?? (stat === undefined ? ' (nothing is there)' : file)}`)
      const { inputs, error } = inputsOf(dir, given)
      if (error !== undefined) errors.push(error)
      // a fleet.json another job wrote may list any number: each is a row, a file read and a testsuite
      if (deployments.length + inputs.length > MAX_DEPLOYMENTS) throw new Error(`the folders hold ${tooManyDeployments('at least', deployments.length + inputs.length)}`)
      for (const input of inputs) {
        // a folder whose name is no label (a matrix label with a space) is a deployment not judged,
        // as a fleet run refuses that label: the others still count, and the page is written
        const problem = labelProblem(input.label)
        // as it is (its first 80 characters): every page and line marks what is invisible in a label, once
        if (problem) input.label = [...input.label].slice(0, 80).join('')
        const earlier = seen.get(input.label.toLowerCase())
        if (earlier === input.dir) throw new Error(`${input.dir} is given twice: each deployment's folder once`)
        if (earlier !== undefined) throw new Error(`${input.dir} and ${earlier} have the same name, "${input.label}": a folder's name is its deployment's label, and each deployment needs its own; give one of them (the run to judge), or rename the other's folder`)
        seen.set(input.label.toLowerCase(), input.dir)
        let run: RunFile
        if (problem) run = unreadRun(tool, new Date().toISOString(), redact(`its folder name is its deployment's label, and that ${problem}; rename the folder (in a CI matrix, the job's label)`))
        else {
          try {
            run = readRunFolder(input.dir)
          } catch (error) {
            // missing or not a run's (a job killed before its reports, a file edited by hand): that
            // deployment is not judged, as a fleet run says of a folder it cannot read; the others count
            run = unreadRun(tool, new Date().toISOString(), redact(`its reports could not be read: ${(error as Error).message}`))
          }
        }
        // a job killed before its reports left only its journal, an upload may have left report.html out: the page links what is there
        const page = ['report.html', JOURNAL_FILE, 'results.json'].find((name) => existsSync(join(input.dir, name))) ?? 'report.html'
        const report = relative(outDir, join(input.dir, page)).split(sep).join('/')
        runs.push(run)
        deployments.push(deploymentOf(input.label, input.baseUrl ?? run.baseUrl ?? journalBaseUrl(input.dir) ?? '(not recorded)', report, run))
      }
    }
  } catch (error) {
    return io.err(`conform merge: ${redact(visibleLine((error as Error).message))}\n`), 2
  }
  // a folder left from an older run keeps its verdict, and the page says how old it is
  noteStaleRuns(deployments, runs)
  // a folder of another version of the suite: its verdict is of another gate
  noteOtherVersions(deployments, runs, tool.version)
  // a job that wrote no reports is missing from the folders, not failed: --expect makes that no verdict
  // one job's reports downloaded under two names (two artifact patterns that both match it) are one run, not two deployments
  const twice = copiedRuns(deployments, runs)
  const found = deployments.length - twice.length
  const copies = twice.length > 0 ? ` (${twice.map(([a, b]) => `${a} and ${b}`).join(', ')} hold the same run, one job's reports under two names)` : ''
  // more than expected is no job missing: a folder of another run (an earlier workflow's, left in the workspace) or of a deployment outside the matrix
  const why = found < Number(expect) ? 'a job whose reports are missing was not judged' : 'a folder of another run (a workspace that keeps its files, an entry dropped from the matrix) or a deployment outside the matrix is among them; give only the folders of this run\'s jobs'
  const missing = expect !== undefined && found !== Number(expect) ? `${plural(Number(expect), 'deployment')} expected (--expect), ${found} found${copies}: ${why}` : undefined
  if (missing !== undefined) errors.push(missing)
  const fleet = fleetOf(deployments, runs, tool, errors.length > 0 ? errors.join('; ') : undefined)
  // and the keys of the variables the runs name (a fleet's apiKeyEnv), where this job has them: whole, of variables named like keys
  const redactAll = redactorOfRuns(runs, env)
  try {
    io.out(writeFleetReports(outDir, cwd, fleet, runs, redactAll, env).stdout)
  } catch (error) {
    return io.err(`conform merge: cannot write the fleet's reports to ${out}: ${redact((error as Error).message)}\n`), 2
  }
  return fleet.exitCode
}

/** The labels of deployments whose run is one another deployment's folder holds too (the same runId and start), each pair once. */
function copiedRuns(deployments: readonly FleetDeployment[], runs: readonly RunFile[]): [string, string][] {
  const first = new Map<string, string>()
  const pairs: [string, string][] = []
  runs.forEach((run, i) => {
    // a folder not read (unreadRun) holds no run of its own
    const runId = 'runId' in run ? run.runId : undefined
    if (typeof runId !== 'string' || runId === '') return
    const key = `${runId} ${run.startedAt}`
    const earlier = first.get(key)
    if (earlier === undefined) first.set(key, deployments[i]!.label)
    else pairs.push([earlier, deployments[i]!.label])
  })
  return pairs
}
