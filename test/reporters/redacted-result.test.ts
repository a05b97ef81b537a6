// redactedResult copies only what a secret was found in (and the objects above it), once per object
import { describe, expect, it } from 'vitest'
import { createRedactor, REDACTED } from '../../lib/http/redact.ts'
import { redactedResult, type RunResult } from '../../lib/result/run-result.ts'

const KEY = 'k3y-that-must-never-show'
const redact = createRedactor(KEY)

describe('redactedResult', () => {
  it('hides the key in every string and every property name, deep in shared evidence too', () => {
    const leaked = { request: { headers: { authorization: `Bearer ${KEY}` } }, response: { body: `{"echo":"${KEY}"}`, headers: { [KEY]: 'x' } } }
    const result = { rules: [{ checks: [{ exchanges: [leaked] }, { exchanges: [leaked] }] }], runId: 'r', list: [1, `${KEY}!`, null] } as unknown as RunResult
    const shown = redactedResult(result, redact)
    const text = JSON.stringify(shown)
    expect(text).not.toContain(KEY)
    expect(text).toContain(REDACTED)
    // the original is left as it was
    expect(JSON.stringify(result)).toContain(KEY)
    // an exchange shared by two checks is shown once, the same object in both
    const [first, second] = (shown as unknown as { rules: { checks: { exchanges: unknown[] }[] }[] }).rules[0]!.checks
    expect(first!.exchanges[0]).toBe(second!.exchanges[0])
    expect((shown as unknown as { list: unknown[] }).list).toEqual([1, `${REDACTED}!`, null])
  })

  it('copies nothing that held no secret, and keeps the order of properties', () => {
    const clean = { a: { b: ['one', 'two'] }, c: 'three' }
    const result = { clean, dirty: { x: 1, y: KEY, z: 2 } } as unknown as RunResult
    const shown = redactedResult(result, redact) as unknown as { clean: unknown; dirty: Record<string, unknown> }
    expect(shown.clean).toBe(clean)
    expect(Object.keys(shown.dirty)).toEqual(['x', 'y', 'z'])
    expect(shown.dirty).toEqual({ x: 1, y: REDACTED, z: 2 })
    expect(redactedResult(clean as unknown as RunResult, redact)).toBe(clean)
  })
})
