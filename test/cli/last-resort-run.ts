/**
 * The command line (runAsProgram) with a suite that throws outside any run, quoting the key of
 * the .env file of INIT_CWD, as a fault no run caught would: for test/cli/last-resort.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'dotenv'
import { runAsProgram } from '../../lib/cli/conform.ts'

const key = parse(readFileSync(join(process.env.INIT_CWD as string, '.env'), 'utf8')).CONFORM_API_KEY
runAsProgram(() => {
  setTimeout(() => {
    throw new Error(`no answer to GET /v1/categories (Authorization: Bearer ${key})`)
  }, 0)
  return new Promise(() => {})
})
