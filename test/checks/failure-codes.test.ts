/** The failure codes are declared once and each one is in use: no dead code, no code without a meaning. */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { FAILURE_CODES } from '../../lib/spec/failure-codes.ts'
import { ROOT } from '../helpers/run-conform.ts'

const sources = ['lib', 'suites']
  .flatMap((dir) =>
    readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && e.name !== 'failure-codes.ts' && !e.parentPath.includes('server'))
      .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8')),
  )
  .join('\n')

test('every failure code is SCREAMING_SNAKE_CASE, says what it means, and is given by some check', () => {
  for (const [code, meaning] of Object.entries(FAILURE_CODES)) {
    expect(code).toMatch(/^[A-Z]+(_[A-Z0-9]+)*$/)
    expect(meaning.length, code).toBeGreaterThan(15)
    expect(sources, `${code} is declared but no check gives it`).toContain(`'${code}'`)
  }
})
