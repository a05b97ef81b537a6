/**
 * Server text on the terminal is never a log command of a CI system: the Azure Pipelines agent acts
 * on `##vso[` anywhere in a line of a step's output (a pipeline variable set, a path prepended, a
 * step marked succeeded), TeamCity on `##teamcity[`. GitHub's workflow commands are held off by
 * ::stop-commands:: (github-actions.test.ts); these have no such switch, so the text is made inert.
 */
import { afterAll, describe, expect, test } from 'vitest'
import { ConformanceCheckFailure } from '../../lib/api/define-conformance.ts'
import { inertLogCommands, referencedLogCommands } from '../../lib/reporters/ci-log-commands.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

describe('inertLogCommands', () => {
  test.each([
    ['##vso[task.setvariable variable=x]1', '⟨U+0023⟩#vso[task.setvariable variable=x]1'],
    ['name: "##VSO[task.prependpath]/tmp"', 'name: "⟨U+0023⟩#VSO[task.prependpath]/tmp"'],
    ['###vso[x]', '#⟨U+0023⟩#vso[x]'],
    ["##teamcity[buildStatus text='ok']", "⟨U+0023⟩#teamcity[buildStatus text='ok']"],
    // GitHub's runner reads its older form, ##[command], anywhere in a line (ActionCommand.TryParse:
    // IndexOf("##["), then a registered command: error, add-mask, set-output, save-state …)
    ['name: "x ##[error]forged"', 'name: "x ⟨U+0023⟩#[error]forged"'],
    ['##[set-output name=verdict;]pass', '⟨U+0023⟩#[set-output name=verdict;]pass'],
  ])('%j → no command left', (text, inert) => {
    expect(inertLogCommands(text)).toBe(inert)
    expect(inertLogCommands(text).toLowerCase()).not.toMatch(/##(vso|teamcity)?\[/)
  })

  test('text without such a prefix is left as it is', () => {
    for (const text of ['## heading', '#vso[x]', '#[group]', 'a # b ## c', '']) expect(inertLogCommands(text)).toBe(text)
  })

  test('in markup (junit.xml, report.html) the first # of each is a character reference', () => {
    expect(referencedLogCommands('a ##[add-mask]x ##vso[y]')).toBe('a &#35;#[add-mask]x &#35;#vso[y]')
    // a workflow command after any space GitHub's runner trims from a line's start: the first colon a reference
    for (const space of [' \t', '\u00a0', '\u2003', '\u3000', '\u2028', '\u0085', '\ufeff']) {
      expect(referencedLogCommands(`x\n${space}::error::forged`)).toBe(`x\n${space}&#58;:error::forged`)
    }
  })
})

test("a failed check in the service's own vitest (defineConformance), which vitest prints, holds no command either", () => {
  const failure = new ConformanceCheckFailure('actual:   name: "##vso[task.setvariable variable=PWNED]yes"')
  expect(failure.message).toBe('actual:   name: "⟨U+0023⟩#vso[task.setvariable variable=PWNED]yes"')
  expect(failure.stack).not.toContain('##vso[')
})

describe('a server whose records are named with Azure Pipelines and TeamCity commands, and terminal controls', { timeout: RUN_TIMEOUT_MS }, () => {
  test('the terminal quotes the names, and no line of stdout or stderr holds a command, nor of junit.xml or report.html printed', async () => {
    // GitHub's runner takes a line for a workflow command after TrimStart(), which drops every Unicode
    // space (.NET's Char.IsWhiteSpace: U+00A0, U+2028, U+3000, U+0085 …), not only blanks and tabs
    const command = '##vso[task.setvariable variable=PWNED]yes ##teamcity[buildStatus status=\'SUCCESS\'] ##[set-output name=verdict;]pass\n::error::PWNED\n  ::warning::PWNED\n\u00a0::error::NBSP\n\u2028::error::LSEP\n\u3000\u2003::error::IDEOGRAPHIC\n\u0085::error::NEL \u009b31mCSI \u202eRLO'
    const server = await httpServer((req, res) => {
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' })
      res.end(req.method === 'POST' ? JSON.stringify({ id: 1, name: command }) : '[]')
    })
    servers.push(server)
    const run = await runConform(['--base-url', server.baseUrl, '--confirm', '0'], { env: { CONFORM_API_KEY: 'ci-log-commands-key-7d1c', TF_BUILD: 'True' }, killAfterMs: 100_000 })
    runs.push(run)
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).toContain('⟨U+0023⟩#vso[task.setvariable variable=PWNED]yes')
    for (const output of [run.stdout, run.stderr]) expect(output.toLowerCase()).not.toMatch(/##(vso|teamcity)?\[/)
    // the files a step may print (cat junit.xml): the first character of each command is a
    // character reference, which the file's parsers read as the server's text
    for (const file of ['junit.xml', 'report.html']) {
      const text = run.files[file] ?? ''
      expect(text, file).toContain('&#35;#vso[task.setvariable variable=PWNED]yes')
      expect(text.toLowerCase(), file).not.toMatch(/##(vso|teamcity)?\[/)
      expect(text, file).not.toMatch(/^[ \t]*::/m)
      for (const line of text.split('\n')) expect(line.trimStart().startsWith('::') || /^[\s\u0085]*::/u.test(line), `${file}: ${JSON.stringify(line)}`).toBe(false)
    }
    // and the JSON files (`cat results.json`, `tail journal.ndjson`): the # as \u0023, the same string to a parser
    for (const file of ['results.json', 'journal.ndjson']) {
      const text = run.files[file] ?? ''
      expect(text, file).toContain('\\u0023#vso[task.setvariable variable=PWNED]yes')
      expect(text.toLowerCase(), file).not.toMatch(/##(vso|teamcity)?\[/)
    }
    expect(run.results?.ledger.some((r) => r.name?.startsWith('##vso[task.setvariable'))).toBe(true)
    // and no terminal control: C1's CSI (U+009B, which JSON.stringify leaves raw) nor a bidi override, in any output or file
    for (const [where, text] of Object.entries({ stdout: run.stdout, stderr: run.stderr, ...run.files })) expect(text, where).not.toMatch(/[\u001b\u0080-\u009f\u202a-\u202e\u2066-\u2069]/)
  })
})
