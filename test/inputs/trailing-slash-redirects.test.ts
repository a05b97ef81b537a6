/**
 * The collection declared with a trailing slash in FastAPI (@router.get("/categories/")) and in
 * Flask (@app.route("/categories/")), measured by stackhunt10 on FastAPI 0.92 (Starlette 0.26,
 * uvicorn 0.17) and Flask 2.2 (Werkzeug 2.2): the path §4 gives is redirected before the key check,
 * 307 with no body by Starlette's redirect_slashes, 308 with Werkzeug's "Redirecting..." page. The
 * suite named FastAPI's by no framework and Flask's as Django's APPEND_SLASH (which answers 301);
 * each is named as its own now, and stays one finding.
 */
import { describe, expect, test } from 'vitest'
import { expectStatus } from '../../lib/checks/response.ts'
import { ConformanceFailure } from '../../lib/checks/failure.ts'
import { makeResponse } from '../checks/make-response.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'trailing-slash-redirects-key-0123456789'
const { serve, conform } = runsWithKey(KEY)

describe('a route declared with its trailing slash, redirected before the key check', () => {
  test.each([
    ['fastapi-route-with-trailing-slash-redirects', 307, /Starlette's Router \(FastAPI\) answers 307/],
    ['flask-route-with-trailing-slash-redirects', 308, /Werkzeug \(Flask\) answers 308/],
  ])('%s: every rule the redirect fails names the framework, never APPEND_SLASH, and it is one finding', async (name, status, words) => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === name)!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const failed = run.results!.rules.filter((r) => r.status === 'fail')
    expect(failed.map((r) => r.id)).toEqual(expect.arrayContaining(['list-returns-200', 'create-returns-201', 'create-rejects-invalid-json']))
    for (const rule of failed) {
      const messages = rule.checks.filter((c) => c.status === 'fail').map((c) => c.failure!.message)
      expect(messages.some((m) => words.test(m)), `${rule.id}: ${messages[0]}`).toBe(true)
      expect(messages.filter((m) => /APPEND_SLASH|ServeMux/.test(m)), rule.id).toEqual([])
    }
    expect(run.stdout).toMatch(new RegExp(`✗ deterministic: \\d+ checks met requests redirected \\(${status} to http://127\\.0\\.0\\.1:\\d+/v1/categories/\\)`))
    expect(run.stdout.match(/^✗ /gm), run.stdout).toHaveLength(1)
  }, 60_000)
})

/** The message a 307 to the collection with its slash gets where 201 was asked. */
function messageOf(location: string): string {
  const redirect = makeResponse({ status: 307, method: 'POST', headers: { location, 'content-length': '0' }, body: '' })
  try {
    expectStatus(redirect, 201)
  } catch (error) {
    if (error instanceof ConformanceFailure) return error.message
    throw error
  }
  throw new Error('a 307 passed')
}

// review48: Gin's RedirectTrailingSlash answers a POST 307 with no body too (http.Redirect, the path alone as its Location); Starlette writes an absolute URL
test("a 307 with no body whose Location is the path alone is Gin's, not Starlette's; an absolute one is Starlette's", () => {
  const gin = messageOf('/v1/categories/')
  expect(gin).toMatch(/Gin's router answers a path without its trailing slash 307/)
  expect(gin).not.toMatch(/Starlette|FastAPI/)
  const starlette = messageOf('http://127.0.0.1:1/v1/categories/')
  expect(starlette).toMatch(/Starlette's Router \(FastAPI\) answers 307/)
  expect(starlette).not.toMatch(/Gin/)
})
