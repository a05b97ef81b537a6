/**
 * Each option declared once (lib/config/conform-options.ts): parsing, --help and the README table
 * come from the same table, and a value comes from the flag, else the environment, else a .env
 * file, else the default. In-process: no child is needed to prove what loadConfig does.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { CONFORM_OPTIONS } from '../../lib/config/conform-options.ts'
import { ConfigError, loadConfig, USAGE } from '../../lib/config/config.ts'
import { optionsMarkdown } from '../../lib/config/options.ts'
import { ROOT } from '../helpers/run-conform.ts'

const dir = mkdtempSync(join(tmpdir(), 'conform-options-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const KEY = { CONFORM_API_KEY: 'options-test-key-0123456789' }

describe('the options table', () => {
  test('README.md has the table the declarations make', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8'), 'npm run docs writes it').toContain(optionsMarkdown(CONFORM_OPTIONS))
  })

  test('--help names every flag, its environment variable and its default', () => {
    for (const option of CONFORM_OPTIONS) {
      const line = USAGE.split('\n').find((l) => new RegExp(`^  (-\\w, )?--${option.flag}\\b`).test(l))
      expect(line, option.flag).toBeDefined()
      if ('env' in option) expect(line).toContain(option.env)
      if ('default' in option && typeof option.default === 'number') expect(line).toContain(String(option.default))
    }
  })

  test('--help says where the reports go, which files they are, and where to read more: a newcomer\'s next questions', () => {
    const head = USAGE.slice(0, USAGE.indexOf('Options ('))
    expect(head).toContain('Reports (--report-dir, default reports/): report.html, junit.xml, results.json, summary.md, journal.ndjson (every request sent).')
    expect(head).toContain('README.md says more: in CI, against production (--read-only, --max-writes, --dry-run), in the service\'s own vitest.')
    // every report file a run writes is named
    for (const file of ['report.html', 'junit.xml', 'results.json', 'summary.md', 'journal.ndjson']) expect(head).toContain(file)
  })
})

describe('where a value comes from', () => {
  test('flag over environment over .env file over default', () => {
    writeFileSync(join(dir, '.env'), 'CONFORM_TIMEOUT_MS=3000\nCONFORM_DEADLINE_MS=4000\n')
    const config = loadConfig(['--timeout', '1000'], { ...KEY, CONFORM_TIMEOUT_MS: '2000', CONFORM_DEADLINE_MS: '5000' }, dir)
    expect(config.timeoutMs).toBe(1000)
    expect(config.deadlineMs).toBe(5000)
    expect(loadConfig([], KEY, dir).timeoutMs).toBe(3000)
    expect(loadConfig([], KEY, join(dir, 'nowhere')).timeoutMs).toBe(10_000)
  })

  test('a .env file PowerShell 5.1 wrote (`"CONFORM_API_KEY=…" > .env`: UTF-16LE with its byte order mark) is read: its settings were never found', () => {
    const own = mkdtempSync(join(tmpdir(), 'conform-options-utf16-'))
    try {
      writeFileSync(join(own, '.env'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('CONFORM_API_KEY=utf16-key-123456\r\nCONFORM_TIMEOUT_MS=3000\r\n', 'utf16le')]))
      const config = loadConfig(['--base-url', 'http://127.0.0.1:9/v1'], {}, own)
      expect([config.apiKey, config.timeoutMs]).toEqual(['utf16-key-123456', 3000])
    } finally {
      rmSync(own, { recursive: true, force: true })
    }
  })

  // the environment comes first, so an empty variable in the shell hides .env's key: the words of CI secrets alone sent the developer looking for one
  test('an empty CONFORM_API_KEY in the environment, beside a .env that sets it, says that it hides that key', () => {
    const own = mkdtempSync(join(tmpdir(), 'conform-options-empty-key-'))
    try {
      writeFileSync(join(own, '.env'), 'CONFORM_API_KEY=dotenv-key-123456\n')
      expect(() => loadConfig(['--base-url', 'http://127.0.0.1:9/v1'], { CONFORM_API_KEY: '' }, own)).toThrow(
        'no API key: CONFORM_API_KEY is set, but empty, in the environment, which comes before .env: the key .env sets is not read. Unset the variable (unset CONFORM_API_KEY), or give it the key',
      )
      expect(() => loadConfig(['--base-url', 'http://127.0.0.1:9/v1'], { CONFORM_API_KEY: '' }, join(own, 'nowhere'))).toThrow(/is set, but empty\. A CI secret that does not exist/)
    } finally {
      rmSync(own, { recursive: true, force: true })
    }
  })

  // `--api-key "$PETSTORE_API_KEY"` of a variable not set: "set CONFORM_API_KEY" told a user whose CONFORM_API_KEY was set nothing (userplay10)
  test('--api-key given empty says so, and that it hides CONFORM_API_KEY when that is set', () => {
    const nowhere = join(tmpdir(), 'conform-options-no-such-folder')
    expect(() => loadConfig(['--base-url', 'http://127.0.0.1:9/v1', '--api-key', ''], { CONFORM_API_KEY: 'env-key-123456789' }, nowhere)).toThrow(
      'no API key: --api-key was given an empty value (`--api-key "$VARIABLE"` of a variable that is not set?), and a flag comes before the environment: the key CONFORM_API_KEY holds is not read (leave --api-key out to use it); give the key issued for the account, best in CONFORM_API_KEY',
    )
    expect(() => loadConfig(['--base-url', 'http://127.0.0.1:9/v1', '--api-key='], {}, nowhere)).toThrow(/^no API key: --api-key was given an empty value \(`--api-key "\$VARIABLE"` of a variable that is not set\?\); give the key/)
  })

  test('a switch from the environment takes 1, true, yes or on, and 0, false, no, off or nothing', () => {
    const words = [['true', true], ['YES', true], ['1', true], ['on', true], [' On ', true], ['false', false], ['0', false], ['no', false], ['OFF', false], ['', false]] as const
    for (const [value, readOnly] of words) {
      expect(loadConfig([], { ...KEY, CONFORM_READ_ONLY: value }, dir).readOnly, value).toBe(readOnly)
    }
  })

  test('any other word stops the run (a read-only asked for must never be read as a full run)', () => {
    for (const value of ['enabled', 'y', 't', 'ture', 'read-only']) {
      expect(() => loadConfig([], { ...KEY, CONFORM_READ_ONLY: value }, dir), value).toThrow(/CONFORM_READ_ONLY takes true or false \(also 1, yes, on \/ 0, no, off\), got "/)
    }
    writeFileSync(join(dir, '.env'), 'CONFORM_READ_ONLY=enabled\n')
    try {
      expect(() => loadConfig([], KEY, dir)).toThrow(ConfigError)
    } finally {
      rmSync(join(dir, '.env'))
    }
  })

  test('a bad whole number is named as the user wrote it: the flag, or the variable', () => {
    expect(() => loadConfig(['--max-writes=-3'], KEY, dir)).toThrow(/--max-writes takes a whole number of at least 0, got "-3"; e\.g\. --max-writes 0/)
    expect(() => loadConfig([], { ...KEY, CONFORM_MAX_WRITES: 'lots' }, dir)).toThrow(/CONFORM_MAX_WRITES takes a whole number of at least 0, got "lots"; e\.g\. CONFORM_MAX_WRITES=0/)
    expect(() => loadConfig(['--timeout', '9'], KEY, dir)).toThrow(ConfigError)
  })

  test('--list-lag: 5000 ms unless given, 0 judges the first list, a minute at most', () => {
    expect(loadConfig([], KEY, dir).listLagMs).toBe(5_000)
    expect(loadConfig(['--list-lag', '0'], KEY, dir).listLagMs).toBe(0)
    expect(loadConfig([], { ...KEY, CONFORM_LIST_LAG_MS: '12000' }, dir).listLagMs).toBe(12_000)
    expect(() => loadConfig(['--list-lag', '60001'], KEY, dir)).toThrow(/--list-lag takes a whole number of milliseconds from 0 to 60000, got "60001"; e\.g\. --list-lag 5000/)
    expect(() => loadConfig([], { ...KEY, CONFORM_LIST_LAG_MS: '3s' }, dir)).toThrow(/CONFORM_LIST_LAG_MS takes a whole number of milliseconds from 0 to 60000, got "3s"/)
  })

  test('--rule is repeatable and must name a catalogued rule', () => {
    expect(loadConfig(['--rule', 'ids-unique', '--rule', 'list-returns-200'], KEY, dir).rules).toEqual(['ids-unique', 'list-returns-200'])
    expect(() => loadConfig(['--rule', 'no-such-rule'], KEY, dir)).toThrow(/unknown rule "no-such-rule"; --list-rules prints the catalogue/)
  })

  test('an IPv6 address without brackets (as server.address() gives it) is named with them', () => {
    expect(() => loadConfig(['--base-url', 'http://::1:35067/v1'], KEY, dir)).toThrow('--base-url "http://::1:35067/v1" is not a valid URL: an IPv6 address goes in brackets, http://[::1]:35067/v1 (Node\'s server.address() gives it without them)')
    expect(() => loadConfig(['--base-url', 'http://fe80::1:8080/v1'], KEY, dir)).toThrow('goes in brackets, http://[fe80::1]:8080/v1 (')
    expect(() => loadConfig(['--base-url', 'http://[::1]:99999/v1'], KEY, dir)).toThrow('--base-url "http://[::1]:99999/v1" is not a valid URL (its host or port?)')
  })

  test('two addresses in one value (an action input of two lines, a space between them) are refused, not read as a path on the first host', () => {
    const twoLines = 'https://eu.petstore.example/v1\nhttps://us.petstore.example/v1'
    expect(() => loadConfig([], { ...KEY, CONFORM_BASE_URL: twoLines }, dir)).toThrow('CONFORM_BASE_URL holds a space or line break inside it (two addresses in one value?): give one URL; for several deployments, --base-url once for each')
    expect(() => loadConfig(['--base-url', twoLines.replace('\n', ' ')], KEY, dir)).toThrow('--base-url holds a space or line break inside it')
    // a line break after it, as a CI variable pasted with one, is no second address
    expect(loadConfig([], { ...KEY, CONFORM_BASE_URL: 'https://eu.petstore.example/v1\n' }, dir).baseUrl).toBe('https://eu.petstore.example/v1')
  })

  test('a mistyped flag or rule id names the one it was most likely meant to be, and only one near enough', () => {
    const said = (argv: string[]) => { try { loadConfig(argv, KEY, dir) } catch (error) { return (error as Error).message } }
    expect(said(['--max-write', '3'])).toBe("Unknown option '--max-write' (did you mean --max-writes?); see --help")
    expect(said(['--readonly'])).toContain("(did you mean --read-only?)")
    expect(said(['--raed-only'])).toContain("(did you mean --read-only?)")
    expect(said(['--rate', '3'])).toContain("(did you mean --rate-limit?)")
    expect(said(['--apikey=sk_live_3f9a0c1e'])).toBe("Unknown option '--apikey' (did you mean --api-key?); see --help")
    expect(said(['--foo'])).toBe("Unknown option '--foo'; see --help")
    expect(said(['--rule', 'error-status-matches-htp'])).toBe('unknown rule "error-status-matches-htp" (did you mean error-status-matches-http?); --list-rules prints the catalogue')
    expect(said(['--rule', 'auth-invalid-key'])).toContain('(did you mean auth-invalid-key-401?)')
    expect(said(['--rule', 'list'])).toBe('unknown rule "list"; --list-rules prints the catalogue')
    // a comma list, as many CLIs take: it was "unknown rule a value of 35 characters (not shown: it could be a key)" (userplay10)
    expect(said(['--rule', 'list-returns-200,create-returns-201'])).toBe('--rule takes one rule id, and is given again for each: --rule list-returns-200 --rule create-returns-201')
    expect(said(['--rule', 'list-returns-200, create-retruns-201'])).toBe('--rule takes one rule id, and is given again for each: --rule list-returns-200 --rule create-returns-201')
    expect(said(['--rule', 'all'])).toBe('unknown rule "all": leave --rule out to run every rule; --list-rules prints the catalogue')
    // a value of no rule ids is still never printed back (it could be a key)
    expect(said(['--rule', 'sk_live_3f9a0c1e,sk_live_77aa01'])).toMatch(/^unknown rule a value of \d+ characters \(not shown/)
  })

  // a team with two known deviations, gating on the rest, tried --skip and an allowlist: told only "see --help"
  test.each([['--skip', 'create-returns-201'], ['--exclude-rule', 'x'], ['--allowlist', 'a.json'], ['--ignore-rule', 'x'], ['--known-failures', 'k.json']])('%s names --baseline, the way to gate on all but known failures', (...argv) => {
    const said = (() => { try { loadConfig(argv, KEY, dir) } catch (error) { return (error as Error).message } })()
    expect(said).toBe(`Unknown option '${argv[0]}'; known failures are excused by --baseline FILE, which --update-baseline writes (docs/adoption.md), and --rule ID runs only the rules named; see --help`)
  })

  // the hint matched any flag holding "skip", "allow", "ignore" or "disable": a TLS switch from curl or kubectl,
  // --allow-http, --skip-writes or --disable-color was told that known failures go in a baseline
  test.each([['--skip-tls-verify'], ['--ignore-certificate-errors'], ['--disable-tls-verify'], ['--allow-http'], ['--skip-writes'], ['--disable-color'], ['--allow-redirects']])('%s, which skips no rule: not pointed at --baseline', (flag) => {
    const said = (() => { try { loadConfig([flag], KEY, dir) } catch (error) { return (error as Error).message } })()
    expect(said).toBe(`Unknown option '${flag}'; see --help`)
  })
  test.each([['--skipRules'], ['--xfail'], ['--waivers'], ['--skip-checks'], ['--ignore_rules']])('%s, which does: pointed at --baseline', (flag) => {
    const said = (() => { try { loadConfig([flag], KEY, dir) } catch (error) { return (error as Error).message } })()
    expect(said).toMatch(/; known failures are excused by --baseline FILE/)
  })

  // a flag left without its value, last or before another flag (`--rule $RULE --read-only`, the variable not set):
  // Node's "Option '--rule <value>' argument missing", or "needs a value; one that starts with a dash goes after an equals sign"
  test('a flag without its value: refused, naming the flag and what it takes', () => {
    const said = (argv: string[]) => { try { loadConfig(argv, KEY, dir) } catch (error) { return (error as Error).message } }
    expect(said(['--rule'])).toBe('--rule needs a value: --rule ID; see --help')
    expect(said(['--rule', '--read-only'])).toBe('--rule needs a value before --read-only: --rule ID; see --help')
    expect(said(['--max-writes', '--rule', 'list-returns-200'])).toBe('--max-writes needs a value before --rule: --max-writes N; see --help')
    // a repeatable flag given before (--rule A --rule $RULE --read-only): the occurrence without its value is named, not the first one
    expect(said(['--rule', 'list-returns-200', '--rule', '--read-only'])).toBe('--rule needs a value before --read-only: --rule ID; see --help')
    expect(said(['--header', 'X-Tenant: eu', '--header', '--rule', 'list-returns-200'])).toBe("--header needs a value before --rule: --header 'NAME: VALUE'; see --help")
    // a negative number is still told how to be written
    expect(said(['--seed', '-1'])).toBe('--seed needs a value; one that starts with a dash goes after an equals sign: --seed=-…')
  })

  // `--read-only=true` in a production job (or =false to turn it off): Node's "Option '--read-only' does not take an argument" said neither
  test('a switch given a value: refused, saying how a switch is given, without the value', () => {
    const said = (argv: string[]) => { try { loadConfig(argv, KEY, dir) } catch (error) { return (error as Error).message } }
    expect(said(['--read-only=true'])).toBe('--read-only is a switch and takes no value: --read-only alone turns it on, leaving it out turns it off (CONFORM_READ_ONLY takes true or false); see --help')
    expect(said(['--allow-insecure-http=sk_live_3f9a0c1e'])).toBe('--allow-insecure-http is a switch and takes no value: --allow-insecure-http alone turns it on, leaving it out turns it off; see --help')
    // Node names a switch with a short form as '-h, --help': it got Node's words
    expect(said(['--help=yes'])).toBe('--help is a switch and takes no value: --help alone turns it on, leaving it out turns it off; see --help')
  })
})
