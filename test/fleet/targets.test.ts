/**
 * A fleet that cannot be run as asked stops before any request, with exit 2 and one line on stderr
 * that names the entry at fault (issue 29): a variable that is not set, a label used twice, a base
 * URL that is not one or that the single run's rules refuse, a field the file does not know. The
 * servers of the good entries receive nothing, and no key is printed. Labels by default are host,
 * port and path made safe for a folder name.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { defaultLabel, fleetConfigs, labelProblem, readTargetsFile } from '../../lib/fleet/targets.ts'
import { runConformInProcess, type ConformRun } from '../helpers/run-conform.ts'
import { canaryKey, fleetServer, type FleetServer } from './fleet-servers.ts'
import { filesUnder, keyLeaks } from '../helpers/key-leaks.ts'

const scratch = mkdtempSync(join(tmpdir(), 'conform-targets-'))
const runs: ConformRun[] = []
let good: FleetServer
const otherKey = canaryKey()
/** A key made of a label's characters, pasted as its entry's label. */
const labelKey = `sk_live_${otherKey.slice(6, 30)}`
beforeAll(async () => {
  good = await fleetServer()
})
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  rmSync(scratch, { recursive: true, force: true })
  await good.server.close()
})

/** A targets file: the good deployment first, then `second` (YAML lines of the second entry). */
function targetsFile(name: string, second: string): string {
  const path = join(scratch, `${name}.yaml`)
  writeFileSync(path, `deployments:\n  - label: eu\n    baseUrl: ${good.server.baseUrl}\n    apiKeyEnv: GOOD_KEY\n  - ${second.trim().replace(/\n/g, '\n    ')}\n`)
  return path
}

/** A report folder in which a file stands where deployment "us" would have its folder. */
function blockedReportDir(): string {
  mkdirSync(join(scratch, 'blocked'), { recursive: true })
  writeFileSync(join(scratch, 'blocked', 'us'), 'not a folder')
  return join(scratch, 'blocked')
}

const cases: { name: string; second?: string; args?: (file: string) => string[]; says: RegExp; hidden?: string; reportDir?: () => string }[] = [
  { name: 'its key variable is not set', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: UNSET_KEY', says: /deployment 2 \(us\): no key: the variable UNSET_KEY its apiKeyEnv names is not set/ },
  { name: 'its key variable set, but empty', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: EMPTY_KEY', says: /deployment 2 \(us\): no key: the variable EMPTY_KEY its apiKeyEnv names is set, but empty\. A CI secret that does not exist, or that the job is not given \(GitHub Actions gives none to a pull request from a fork, [^\n]*, reaches the job as an empty variable: give each its deployment's key\. No deployment was judged: a fleet runs once every entry has its key, so that its verdict covers them all \(to judge the others without it, leave that entry out of the file\)\n/ },
  { name: 'credentials in its base URL: the key goes in its variable', second: 'label: us\nbaseUrl: "https://alice:S3cretPassw0rd@petstore.example/v1"\napiKeyEnv: OTHER_KEY', says: /deployment 2 \(us\): baseUrl must not carry credentials; the key goes in the variable its apiKeyEnv names\n/, hidden: 'S3cretPassw0rd' },
  {
    name: 'a key pasted where its variable goes: the name is not shown',
    second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: sk_live_Pasted9KeyValue',
    says: /deployment 2 \(us\): no key: the variable \(its name not shown: .*may be the key itself/,
    hidden: 'sk_live_Pasted9KeyValue',
  },
  {
    name: 'credentials in a base URL that does not parse: not shown',
    second: 'label: us\nbaseUrl: "https//alice:S3cretPassw0rd@petstore.example/v1"\napiKeyEnv: OTHER_KEY',
    says: /deployment 2 \(us\): baseUrl "https\/\/\*\*\*@petstore\.example\/v1" is not a URL with its scheme/,
    hidden: 'S3cretPassw0rd',
  },
  {
    name: 'credentials in a base URL with a bad port: not shown',
    second: 'label: us\nbaseUrl: "https://alice:S3cretPassw0rd@petstore.example:99999/v1"\napiKeyEnv: OTHER_KEY',
    says: /deployment 2 \(us\): baseUrl "https:\/\/\*\*\*@petstore\.example:99999\/v1" is not a valid URL \(its host or port\?\)/,
    hidden: 'S3cretPassw0rd',
  },
  { name: 'its key pasted as its label (the folder name merge and artifacts show as it is)', second: `label: ${labelKey}\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: LABEL_KEY`, says: /deployment 2 \(\[REDACTED\]\): its label holds the key of this deployment: a label names its report folder/, hidden: labelKey },
  // the reports showed such a label as [REDACTED], its folder as it is (securehunt13)
  { name: 'its key upper-cased as its label', second: `label: ${labelKey.toUpperCase()}\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: LABEL_KEY`, says: /deployment 2 \(\[REDACTED\]\): its label holds the key of this deployment/, hidden: labelKey.toUpperCase() },
  { name: 'its key in base64url as its label', second: `label: ${Buffer.from(labelKey).toString('base64url')}\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: LABEL_KEY`, says: /deployment 2 \(\[REDACTED\]\): its label holds the key of this deployment/, hidden: Buffer.from(labelKey).toString('base64url') },
  { name: "its key upper-cased in its base URL's path, its label by default", second: `baseUrl: http://127.0.0.1:9/${otherKey.toUpperCase()}/v1\napiKeyEnv: OTHER_KEY`, says: /deployment 2: its label holds the key of this deployment/, hidden: otherKey.toUpperCase() },
  { name: 'the key in a --base-url path, a character of it escaped', args: () => ['--base-url', good.server.baseUrl, '--base-url', `http://127.0.0.1:9/${good.key.slice(0, 12)}%${good.key.charCodeAt(12).toString(16)}${good.key.slice(13)}/v1`], says: /^conform: --base-url #2: its label holds the key of --base-url #1/ },
  { name: 'a label used twice', second: `label: eu\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY`, says: /deployment 2 \(eu\): label "eu" is also that of .*deployment 1 \(eu\)/ },
  { name: 'the same base URL and key under another label (listed twice: judged twice at once, twice the writes)', second: 'label: us\nbaseUrl: GOOD_URL/\napiKeyEnv: GOOD_KEY_TOO', says: /deployment 2 \(us\): the same base URL and key as .*deployment 1 \(eu\): one deployment listed twice/ },
  { name: 'a base URL that is not one', second: 'label: us\nbaseUrl: petstore.example/v1\napiKeyEnv: OTHER_KEY', says: /deployment 2 \(us\): baseUrl "petstore.example\/v1" is not a URL with a scheme/ },
  { name: 'plain http to a remote host', second: 'label: us\nbaseUrl: http://us.petstore.example/v1\napiKeyEnv: OTHER_KEY', says: /deployment 2 \(us\): refusing to send the API key in clear text to us\.petstore\.example/ },
  { name: 'a path without /v1', second: 'label: us\nbaseUrl: http://127.0.0.1:9/api\napiKeyEnv: OTHER_KEY', says: /deployment 2 \(us\): the base URL path "\/api" does not end in \/v1/ },
  { name: 'a field the file does not know (a key written into it)', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKey: OTHER_KEY', says: /deployment 2 \(us\): unknown field "apiKey" \(did you mean apiKeyEnv\? It names the environment variable that holds the key: a key is never written in the file\); an entry has label, baseUrl, apiKeyEnv/ },
  { name: 'an option of the whole fleet in an entry (a pace of production beside staging)', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nrateLimit: 5', says: /deployment 2 \(us\): unknown field "rateLimit" \(--rate-limit is an option of the whole fleet, on the command line: run the deployments that need another --rate-limit as a fleet of their own, into another --report-dir, and join the two folders with merge\); an entry has/ },
  { name: 'maxWrites given as text (a budget nobody can be sure of)', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nmaxWrites: "5"', says: /deployment 2 \(us\): maxWrites is a whole number, 0 or more \("5" given\): at most that many POSTs to this deployment/ },
  // the key pasted into the wrong field: the line that refuses it quotes what was given, the key hidden
  { name: 'its key pasted as its maxWrites', second: `label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nmaxWrites: "${otherKey}"`, says: /deployment 2 \(us\): maxWrites is a whole number, 0 or more \("\[REDACTED\]" given\)/ },
  { name: "another entry's key pasted as its maxWrites, its own key as its label", second: `label: ${labelKey}\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: LABEL_KEY\nmaxWrites: "GOOD_KEY_VALUE"`, says: /deployment 2 \(\[REDACTED\]\): maxWrites is a whole number, 0 or more \("\[REDACTED\]" given\)/, hidden: labelKey },
  { name: 'maxWrites below 0', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nmaxWrites: -1', says: /deployment 2 \(us\): maxWrites is a whole number, 0 or more \(-1 given\)/ },
  { name: 'maxWrites not whole', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nmaxWrites: 2.5', says: /deployment 2 \(us\): maxWrites is a whole number, 0 or more \(2\.5 given\)/ },
  { name: 'readOnly: true beside maxWrites: 5 (two things said)', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nreadOnly: true\nmaxWrites: 5', says: /deployment 2 \(us\): readOnly: true and maxWrites: 5 say two things/ },
  { name: "the fleet's --max-writes too small for --repeat, as a single run refuses it", second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', args: (file) => ['--targets', file, '--repeat', '3', '--max-writes', '3'], says: /^conform: --max-writes 3 is too small for --repeat 3: / },
  { name: 'maxWrites too small for --repeat', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nmaxWrites: 3', args: (file) => ['--targets', file, '--repeat', '3'], says: /deployment 2 \(us\): maxWrites 3 is too small for --repeat 3: .*Raise maxWrites to / },
  { name: 'readOnly given as text (a production entry that meant no write)', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nreadOnly: "yes"', says: /deployment 2 \(us\): readOnly is true or absent \("yes" given\): true sends this deployment no POST/ },
  { name: 'readOnly: false (an entry cannot undo the fleet\'s --read-only)', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nreadOnly: false', says: /deployment 2 \(us\): readOnly is true or absent \(false given\)/ },
  { name: 'a field mistyped', second: 'label: us\nbaseURL: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', says: /deployment 2 \(us\): unknown field "baseURL" \(did you mean baseUrl\?\); an entry has/ },
  { name: 'a label that is no folder name', second: 'label: ../us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', says: /deployment 2 \(\.\.\/us\): label "\.\.\/us" is not a folder name/ },
  { name: 'a label of letters outside ASCII: the line says which letters a label takes', second: 'label: zürich\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', says: /label "zürich" is not a folder name: use ASCII letters \(A-Z, a-z\), digits/ },
  { name: 'a label that is a file of the fleet', second: 'label: fleet.json\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', says: /label "fleet\.json" is the name of a report file of the fleet/ },
  { name: 'a label that is the journal\'s name (its folder would be removed as a journal)', second: 'label: Journal.ndjson\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', says: /label "Journal\.ndjson" is the name of a report file of the fleet/ },
  { name: '--api-key next to --targets', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', args: (file) => ['--targets', file, '--api-key', otherKey], says: /--api-key does not go with --targets/ },
  { name: '--base-url next to --targets', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', args: (file) => ['--targets', file, '--base-url', good.server.baseUrl], says: /give --targets FILE or --base-url, not both/ },
  // --base-url adds a deployment each time it is given; a second --targets read as the last alone left the first file's deployments out of a passing verdict
  { name: '--targets given twice (as --base-url repeats: the files are not joined)', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', args: (file) => ['--targets', writeTo('first.yaml', `deployments:\n  - label: first\n    baseUrl: ${good.server.baseUrl}\n    apiKeyEnv: GOOD_KEY\n`), `--targets=${file}`], says: /^conform: --targets is given 2 times \(.*first\.yaml, .*\): a fleet reads one targets file; list every deployment in it, or run each file as a fleet of its own/ },
  // read as the last alone, B's key went to A (4 requests of a --rule run, counted at A)
  { name: '--api-key given twice beside repeated --base-url (as if each went with its own)', args: () => ['--base-url', good.server.baseUrl, '--api-key', good.key, '--base-url', 'http://127.0.0.1:9/v1', '--api-key', otherKey], says: /^conform: --api-key is given 2 times: the deployments of repeated --base-url share one key; for a key each, list them in a --targets file/ },
  { name: '--baseline given twice beside repeated --base-url (the last excused its failures on both)', args: () => ['--base-url', good.server.baseUrl, '--baseline', 'staging.json', '--base-url', 'http://127.0.0.1:9/v1', '--baseline=production.json'], says: /^conform: --baseline is given 2 times \(staging\.json, production\.json\): a fleet's --baseline is one file for every deployment; a deployment's own goes in its --targets entry/ },
  { name: '--baseline given twice, the same file and another: the line names each time', args: () => ['--base-url', good.server.baseUrl, '--baseline', 'same.json', '--base-url', 'http://127.0.0.1:9/v1', '--baseline', 'same.json', '--baseline', 'other.json'], says: /^conform: --baseline is given 3 times \(same\.json, same\.json, other\.json\)/ },
  { name: '--env given twice beside repeated --base-url (each profile may set its CONFORM_API_KEY)', args: () => ['--base-url', good.server.baseUrl, '--env', 'eu', '--base-url', 'http://127.0.0.1:9/v1', '--env', 'us'], says: /^conform: --env is given 2 times \(eu, us\): a fleet reads one \.env profile, for every deployment/ },
  { name: '--client-cert given twice beside repeated --base-url', args: () => ['--base-url', good.server.baseUrl, '--client-cert', 'a.pem', '--base-url', 'http://127.0.0.1:9/v1', '--client-cert', 'b.pem'], says: /^conform: --client-cert is given 2 times \(a\.pem, b\.pem\): a fleet's --client-cert is presented to every deployment/ },
  { name: 'a file that is not there', args: () => ['--targets', join(scratch, 'nowhere.yaml')], says: /cannot read the targets file .*nowhere\.yaml \(no such file\)/ },
  { name: 'a file without deployments', args: () => ['--targets', writeTo('empty.json', '{"deployments": []}')], says: /empty\.json lists no deployment: "deployments:" holds none \(docs\/ci\.md\)\n$/ },
  { name: 'a file of entries with no "deployments:" above them', args: () => ['--targets', writeTo('bare-list.json', '[{"label": "eu", "baseUrl": "http://127.0.0.1:9/v1", "apiKeyEnv": "OTHER_KEY"}]')], says: /bare-list\.json holds a list at its top: put it under "deployments:" \(\{"deployments": \[\.\.\.\]\} in JSON\)/ },
  { name: 'a file with no list of deployments', args: () => ['--targets', writeTo('no-list.yaml', 'deployments:\n  eu:\n    baseUrl: http://127.0.0.1:9/v1\n')], says: /no-list\.yaml must hold "deployments:", a list of entries with label, baseUrl and apiKeyEnv/ },
  { name: 'a file that is neither YAML nor JSON', args: () => ['--targets', writeTo('broken.yaml', 'deployments: [\n  {label: "eu"')], says: /cannot be read as YAML \(or JSON, which is YAML\)/ },
  // the parser's first line ends with a colon, before the excerpt of the file the one line leaves out: "at line 3, column 14:" read as cut off
  { name: 'an entry indented one space too far', args: () => ['--targets', writeTo('indented.yaml', 'deployments:\n  - label: eu\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: OTHER_KEY\n     - label: us\n')], says: /cannot be read as YAML \(or JSON, which is YAML\): [^\n]+ at line 4, column \d+\n$/ },
  // JSON.parse would take the last; YAML refuses it, and the line says why, not that the file is no YAML
  { name: 'a field given twice in an entry', second: 'label: us\nlabel: us2\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY', says: /cannot be read as YAML .*: Map keys must be unique at line 6/ },
  {
    name: 'a file where a deployment\'s report folder goes',
    second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY',
    args: (file) => ['--targets', file, '--report-dir', blockedReportDir()],
    says: /^conform: deployment "us": cannot write the reports to .*blocked\/us: a file stands where a folder is needed/,
    reportDir: () => join(scratch, 'blocked'),
  },
  // a targets file names each deployment's baseline: "needs --baseline FILE" came first, and sent its reader to add one
  { name: '--update-baseline with a targets file and no --baseline', second: 'label: us\nbaseUrl: http://127.0.0.1:9/v1\napiKeyEnv: OTHER_KEY\nbaseline: us.json', args: (file) => ['--targets', file, '--update-baseline'], says: /--update-baseline writes the failures of one deployment; run it with one --base-url and that deployment's --baseline FILE \(a targets entry's baseline: names it\)/ },
  { name: '--update-baseline, which writes one deployment\'s failures', args: () => ['--base-url', good.server.baseUrl, '--base-url', 'http://127.0.0.1:9/v1', '--baseline', join(scratch, 'baseline.json'), '--update-baseline'], says: /--update-baseline writes the failures of one deployment; run it with one --base-url/ },
  { name: 'a repeated --base-url that is not a URL', args: () => ['--base-url', good.server.baseUrl, '--base-url', 'ftp://x.example/v1'], says: /^conform: --base-url #2: the base URL must start with https:\/\// },
]

function writeTo(name: string, text: string): string {
  writeFileSync(join(scratch, name), text)
  return join(scratch, name)
}

describe.concurrent('an entry that cannot be run: exit 2, one line naming it, no request', () => {
  for (const c of cases) {
    test(c.name, async () => {
      const file = c.second !== undefined ? targetsFile(c.name.replace(/\W+/g, '-'), c.second.replace('GOOD_URL', good.server.baseUrl).replace('GOOD_KEY_VALUE', good.key)) : ''
      const args = c.args ? c.args(file) : ['--targets', file]
      const run = await runConformInProcess(args, { env: { GOOD_KEY: good.key, GOOD_KEY_TOO: good.key, OTHER_KEY: otherKey, EMPTY_KEY: '', LABEL_KEY: labelKey, CONFORM_API_KEY: good.key } })
      runs.push(run)
      expect(run.code, run.stdout).toBe(2)
      expect(run.stderr).toMatch(/^conform: [^\n]+\n$/)
      expect(run.stderr).toMatch(c.says)
      expect(run.stdout).toBe('')
      // the fleet page says it could not be run, in place of any an earlier fleet left
      const fleet = JSON.parse(readFileSync(join(c.reportDir?.() ?? run.reportDir, 'fleet.json'), 'utf8')) as FleetResult
      expect([fleet.exitCode, fleet.verdict, fleet.deployments]).toEqual([2, 'error', []])
      // its title too: not "0 deployments" of a file that lists some
      const page = readFileSync(join(c.reportDir?.() ?? run.reportDir, 'fleet.md'), 'utf8')
      expect(page.split('\n')[0]).toBe('## ⚠️ Pet Store categories conformance: the fleet could not be run')
      expect(keyLeaks({ stderr: run.stderr, ...filesUnder(run.reportDir) }, [good.key, otherKey, ...(c.hidden ? [c.hidden] : [])])).toEqual([])
    })
  }
})

describe('after every one of them', () => {
  test('the deployment whose entry was good has received no request', () => {
    expect(good.server.requests).toEqual([])
  })
})

describe('YAML anchors', () => {
  test('an x-… key holds what entries merge (<<: *shared), as in Compose and GitLab CI files', () => {
    const path = writeTo('anchors.yaml', 'x-shared: &shared\n  apiKeyEnv: SHARED_KEY\n.hidden: {}\ndeployments:\n  - label: eu\n    baseUrl: http://127.0.0.1:9/v1\n    <<: *shared\n')
    expect(readTargetsFile(path, scratch)).toEqual([{ entry: `${path} deployment 1 (eu)`, label: 'eu', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'SHARED_KEY' }])
  })

  test('a file PowerShell 5.1 wrote (`>`, Out-File: UTF-16LE with its byte order mark) is read: it was refused as a file that "must hold \"deployments:\"", which it holds', () => {
    const path = join(scratch, 'powershell.yaml')
    writeFileSync(path, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('deployments:\r\n  - label: eu\r\n    baseUrl: http://127.0.0.1:9/v1\r\n    apiKeyEnv: SHARED_KEY\r\n', 'utf16le')]))
    expect(readTargetsFile(path, scratch)).toEqual([{ entry: `${path} deployment 1 (eu)`, label: 'eu', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'SHARED_KEY' }])
  })

  test('an entry\'s own note under an x- key is read past (as Compose\'s extension fields); one under another key is refused saying where a note goes', () => {
    const path = writeTo('notes.yaml', 'deployments:\n  - label: eu\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: SHARED_KEY\n    x-owner: platform team\n')
    expect(readTargetsFile(path, scratch)).toEqual([{ entry: `${path} deployment 1 (eu)`, label: 'eu', baseUrl: 'http://127.0.0.1:9/v1', apiKeyEnv: 'SHARED_KEY' }])
    const refused = writeTo('owner.yaml', 'deployments:\n  - label: eu\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: SHARED_KEY\n    owner: platform team\n')
    expect(() => readTargetsFile(refused, scratch)).toThrow(/unknown field "owner" \(a note of your own, an owner or a ticket, goes under a key starting with x-, as x-owner, or in a # comment\); an entry has label/)
  })

  test('another top-level key is still refused', () => {
    expect(() => readTargetsFile(writeTo('extra.yaml', 'shared: {}\ndeployments:\n  - baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: K\n'), scratch)).toThrow(/a field it does not know, "shared"/)
  })
})

describe('labels', () => {
  test.each([
    ['http://127.0.0.1:8080/v1', '127.0.0.1-8080-v1'],
    ['https://eu.petstore.example/v1', 'eu.petstore.example-v1'],
    ['https://petstore.example/tenants/acme/v1/', 'petstore.example-tenants-acme-v1'],
    ['http://[::1]:3000/v1', '__1-3000-v1'],
    ['https://xn--bcher-kva.example/%C3%A9/v1', 'xn--bcher-kva.example-C3-A9-v1'],
  ])('%s → %s, a folder name', (url, label) => {
    expect(defaultLabel(url)).toBe(label)
    expect(labelProblem(label)).toBeUndefined()
  })

  test.each(['console', 'con-eu', 'nullable', 'eu.prod', 'com', 'lpt'])('"%s", no device name, is a label', (label) => {
    expect(labelProblem(label)).toBeUndefined()
  })

  test.each(['', '.', '..', '-x', 'a/b', 'a b', 'x'.repeat(65), 'JUNIT.XML', 'journal.ndjson', 'eu.', 'CON', 'nul', 'aux.eu', 'LPT1', 'com9'])('"%s" is refused', (label) => {
    expect(labelProblem(label)).toBeDefined()
  })

  // the rule alone left the user to work out a label from "eu production": one made of it is named, to copy
  test.each([
    ['eu production', 'eu-production'],
    ['eu/prod', 'eu-prod'],
    ['Zürich prod.', 'Zurich-prod'],
    ['-rf', 'rf'],
  ])('"%s" is refused naming a label made of it, "%s"', (label, safe) => {
    expect(labelProblem(label)).toMatch(new RegExp(`starting with a letter, digit or "_": "${safe}", say$`))
  })

  // a base URL pasted as a label: its query held a token, shown and offered back as a folder name every report would repeat
  test('a URL given as a label names the label its base URL gets, and shows neither its query nor its user info', () => {
    const problem = labelProblem('https://ops:pw-4411@eu.example:8443/v1?access_token=tok-7f3a9c')
    expect(problem).toMatch(/^label "https:\/\/eu\.example:8443\/v1\?…" is not a folder name: .*: "eu\.example-8443-v1", say$/)
    expect(problem).not.toMatch(/tok-7f3a9c|pw-4411|access_token/)
    const file = writeTo('url-label.yaml', 'deployments:\n  - label: https://eu.example/v1?access_token=tok-7f3a9c\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: K\n')
    expect(readTargetsFile(file, scratch)[0].entry).toBe(`${file} deployment 1 (https://eu.example/v1?…)`)
  })

  test.each(['..', 'CON ', '🚀'])('"%s", of which no label is made, names none', (label) => {
    expect(labelProblem(label)).toMatch(/starting with a letter, digit or "_"$/)
  })
})

describe('a key set in a .env file only', () => {
  test("the line says the file sets it, and that a deployment's key is read from the environment only; the key is not shown", () => {
    const cwd = mkdtempSync(join(tmpdir(), 'conform-targets-dotenv-'))
    const key = canaryKey()
    writeFileSync(join(cwd, '.env'), `PETSTORE_EU_KEY=${key}\n`)
    writeFileSync(join(cwd, 'deployments.yaml'), 'deployments:\n  - label: eu\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: PETSTORE_EU_KEY\n')
    const request = { baseUrls: [], targetsFile: 'deployments.yaml', shared: [] }
    let message = ''
    try {
      fleetConfigs(request, {}, cwd, [])
    } catch (error) {
      message = (error as Error).message
    }
    expect(message).toBe("deployments.yaml deployment 1 (eu): no key: the variable PETSTORE_EU_KEY its apiKeyEnv names is not set in the environment (.env sets it, but a deployment's key is read from the environment only: export it, as with set -a; . ./.env; set +a)")
    // exported, it is read
    expect(fleetConfigs(request, { PETSTORE_EU_KEY: key }, cwd, []).deployments[0]?.config.apiKey).toBe(key)
    // no .env that sets it: the line says it is not set, and no more
    rmSync(join(cwd, '.env'))
    // a file of one deployment: no other to judge without it
    expect(() => fleetConfigs(request, {}, cwd, [])).toThrow(/its apiKeyEnv names is not set$/)
    rmSync(cwd, { recursive: true, force: true })
  })
})

describe('tenants of one address', () => {
  test('the same base URL with keys of their own: two deployments', () => {
    const path = writeTo('tenants.yaml', 'deployments:\n  - label: acme\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: ACME_KEY\n  - label: globex\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: GLOBEX_KEY\n')
    const { deployments } = fleetConfigs({ baseUrls: [], targetsFile: path, shared: [] }, { ACME_KEY: canaryKey(), GLOBEX_KEY: canaryKey() }, scratch, [])
    expect(deployments.map((d) => d.label)).toEqual(['acme', 'globex'])
  })
})

describe('production read-only beside staging, in one fleet', () => {
  test("an entry's readOnly: true makes its deployment's run read-only, the others' as the command line says", () => {
    const path = writeTo('read-only.yaml', 'deployments:\n  - label: staging\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: STAGING_KEY\n  - label: production\n    baseUrl: http://127.0.0.1:8/v1\n    apiKeyEnv: PRODUCTION_KEY\n    readOnly: true\n')
    const { deployments } = fleetConfigs({ baseUrls: [], targetsFile: path, shared: [] }, { STAGING_KEY: canaryKey(), PRODUCTION_KEY: canaryKey() }, scratch, [])
    expect(deployments.map((d) => [d.label, d.config.readOnly])).toEqual([['staging', false], ['production', true]])
  })
})

describe("an entry's write budget: it lowers the fleet's --max-writes, never raises it", () => {
  const path = () => writeTo('budget.yaml', 'deployments:\n  - label: staging\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: STAGING_KEY\n  - label: production\n    baseUrl: http://127.0.0.1:8/v1\n    apiKeyEnv: PRODUCTION_KEY\n    maxWrites: 5\n')
  const budgets = (shared: string[]) => fleetConfigs({ baseUrls: [], targetsFile: path(), shared }, { STAGING_KEY: canaryKey(), PRODUCTION_KEY: canaryKey() }, scratch, []).deployments.map((d) => [d.label, d.config.maxWrites])
  test.each([
    [[], [['staging', undefined], ['production', 5]]],
    [['--max-writes', '40'], [['staging', 40], ['production', 5]]],
    [['--max-writes', '2'], [['staging', 2], ['production', 2]]],
  ])('%j', (shared, expected) => {
    expect(budgets(shared)).toEqual(expected)
  })
})

describe('a label YAML does not read as text', () => {
  test.each([
    ['2024.10', /deployment 1: label must be text, and YAML reads this one as the number 2024\.1: quote it, as in label: "eu-2024\.10"$/],
    ['true', /deployment 1: label must be text, and YAML reads this one as the boolean true: quote it/],
    ['', /deployment 1: label is empty: give one, or leave the field out for the default \(host, port and path\)$/],
    ['[eu]', /deployment 1: label must be text, not a list or a mapping$/],
  ])('label: %s says what YAML made of it', (value, says) => {
    const path = writeTo('label-not-text.yaml', `deployments:\n  - label: ${value}\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: K\n`)
    expect(() => readTargetsFile(path, scratch)).toThrow(says)
  })
})

describe('several entries without their key (a CI job missing secrets)', () => {
  test('one line names every entry whose variable is unset or empty, not the first alone', () => {
    const path = writeTo('keyless.yaml', 'deployments:\n  - label: eu\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: EU_KEY\n  - label: us\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: US_KEY\n  - label: ap\n    baseUrl: http://127.0.0.1:9/v1\n    apiKeyEnv: AP_KEY\n')
    const request = { baseUrls: [], targetsFile: path, shared: [] }
    expect(() => fleetConfigs(request, { US_KEY: canaryKey(), AP_KEY: '' }, scratch, [])).toThrow(
      /^2 deployments have no key: \S*keyless\.yaml deployment 1 \(eu\): no key: the variable EU_KEY its apiKeyEnv names is not set; \S*keyless\.yaml deployment 3 \(ap\): no key: the variable AP_KEY its apiKeyEnv names is set, but empty\. A CI secret that does not exist, or that the job is not given .*: give each its deployment's key\. No deployment was judged: a fleet runs once every entry has its key, so that its verdict covers them all \(to judge the others without them, leave those entries out of the file\)$/,
    )
    // a secret of a newline is empty too; every entry without its key: no other to judge without them
    expect(() => fleetConfigs(request, { US_KEY: '\n', AP_KEY: ' ' }, scratch, [])).toThrow(/^3 deployments have no key: .*US_KEY its apiKeyEnv names is set, but empty \(only whitespace\); .*AP_KEY its apiKeyEnv names is set, but empty \(only whitespace\)\. A CI secret that does not exist.*: give each its deployment's key$/)
    // one missing: its line as before
    expect(() => fleetConfigs(request, { US_KEY: canaryKey(), AP_KEY: canaryKey() }, scratch, [])).toThrow(/^\S*keyless\.yaml deployment 1 \(eu\): no key: the variable EU_KEY its apiKeyEnv names is not set\. No deployment was judged: a fleet runs once every entry has its key, so that its verdict covers them all \(to judge the others without it, leave that entry out of the file\)$/)
  })
})
