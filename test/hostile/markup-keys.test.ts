/**
 * A server's HTML error page that writes the key a character or a few an element
 * (`<span>s</span><span>k</span>…`), and keys that are pieces of markup (securehunt13).
 *
 * The first stood in report.html and results.json to anyone reading the page (lib/http/secret-markup.ts):
 * read as shown, no output may hold the key. The second were hidden in the reports' own markup or
 * cut a reference in two (`</testcase>`, whose letters every `<testcase` holds, made junit.xml
 * `<[REDACTED] classname=…`, which no CI parses; `</td><td>` took every table cell of report.html;
 * `lt;script` made the escaped `<script>` of a server's page `&[REDACTED]`): junit.xml must parse,
 * report.html keep its tables, and no reference be cut (lib/reporters/markup-redacted.ts).
 */
import { afterAll, describe, expect, test } from 'vitest'
import { parseXml } from '../reporters/xml.ts'
import { runConform, type ConformRun } from '../helpers/run-conform.ts'
import { httpServer, type HostileServer } from './hostile-servers.ts'
import { RUN_TIMEOUT_MS } from './expect-run.ts'

const servers: HostileServer[] = []
const runs: ConformRun[] = []
afterAll(async () => {
  runs.forEach((run) => run.cleanup())
  await Promise.all(servers.map((server) => server.close()))
})

const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
/** The key in pieces of `size`, each in an element, as an error page colours or wraps it. */
const inElements = (key: string, size: number, tag: string) => (key.match(new RegExp(`[^]{1,${size}}`, 'g')) ?? []).map((piece) => `<${tag}>${escaped(piece)}</${tag.split(' ')[0]}>`).join('')

/** Every request answered 500 with an HTML page: the key (the token of its Authorization) in elements, plain, and a `<script>` of the page's own. */
const pageServer = (body: (token: string) => string) =>
  httpServer((_req, res, seen) => {
    const token = String(seen.headers.authorization ?? '').replace(/^\S+\s+/, '')
    res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' })
    res.end(`<!doctype html><html><body><h1>500</h1><script>var x = 1 && 2;</script>${body(token)}</body></html>`)
  })

/** What a reader of `text` sees: markup taken out, references read, and the markup the text quotes taken out too (report.html shows a server's page as text). */
function asShown(text: string): string {
  const tags = (t: string) => t.replace(/<[^<>]*>/g, '')
  const references = (t: string) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&')
  return tags(references(tags(text)).replace(/\\u003c/gi, '<').replace(/\\u003e/gi, '>'))
}

async function run(key: string, server: HostileServer): Promise<ConformRun> {
  servers.push(server)
  const done = await runConform(['--base-url', server.baseUrl, '--timeout', '5000'], { env: { CONFORM_API_KEY: key }, killAfterMs: 100_000 })
  runs.push(done)
  expect(done.code, done.stderr).toBe(1)
  expect(server.requests.some((r) => r.headers.authorization === `Bearer ${key}`)).toBe(true)
  expect(Object.keys(done.files)).toEqual(expect.arrayContaining(['results.json', 'junit.xml', 'report.html', 'summary.md']))
  return done
}

describe.concurrent('the key a few characters an element of an HTML error page', { timeout: RUN_TIMEOUT_MS }, () => {
  test.each([
    ['a character a <span>', 1, 'span'],
    ['three characters a <b class>', 3, 'b class="k"'],
  ])('%s: no output shows it, read as shown', async (_form, size, tag) => {
    const key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'
    const done = await run(key, await pageServer((token) => `<p>Invalid key: ${inElements(token, size, tag)}</p>`))
    const texts: Record<string, string> = { stdout: done.stdout, stderr: done.stderr, ...done.files }
    for (const [where, text] of Object.entries(texts)) {
      const shown = asShown(text)
      for (let at = 0; at + 8 <= key.length; at++) expect(shown.includes(key.slice(at, at + 8)), `${where} shows the key's characters ${at}..${at + 8}`).toBe(false)
    }
    expect(asShown(done.files['report.html']!)).toContain('Invalid key: [REDACTED]')
  })
})

describe.concurrent('a key that is a piece of markup, echoed by the server', { timeout: RUN_TIMEOUT_MS }, () => {
  test.each(['</testcase>', '</td><td>', 'lt;script', ']]>abcdefgh'])('key %s: junit.xml parses, report.html keeps its tables, no reference cut', async (key) => {
    const done = await run(key, await pageServer((token) => `<p>Invalid key: ${escaped(token)}</p>`))
    const junit = done.files['junit.xml']!
    expect(() => parseXml(junit)).not.toThrow()
    expect(parseXml(junit).children.filter((c) => c.name === 'testsuite').length).toBeGreaterThan(10)
    const html = done.files['report.html']!
    expect(html.match(/<td[\s>]/g)?.length).toBe(html.match(/<\/td>/g)?.length)
    expect(html.match(/<tr[\s>]/g)?.length).toBe(html.match(/<\/tr>/g)?.length)
    expect(html.match(/<td[\s>]/g)?.length).toBeGreaterThan(100)
    for (const text of [junit, html]) expect(text).not.toMatch(/<[^<>]*\[REDACTED\][^<>"]*>|&\[REDACTED\]|&(?![a-zA-Z][a-zA-Z0-9]*;|#[0-9]+;|#x[0-9a-fA-F]+;)/)
    // the echo is hidden where it stood, and the page's own <script> shows as it was
    expect(asShown(html)).toContain('Invalid key: [REDACTED]')
    expect(asShown(html)).not.toContain(key)
    expect(html).toContain('&lt;script&gt;var x = 1 &amp;&amp; 2;&lt;/script&gt;')
  })
})
