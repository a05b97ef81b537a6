/**
 * The command line (runAsProgram) with a suite that throws outside any run, quoting the key of
 * the .env file of INIT_CWD and a server's text, as a fault no run caught would: for test/cli/last-resort.test.ts.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'dotenv'
import { runAsProgram } from '../../lib/cli/conform.ts'

const key = parse(readFileSync(join(process.env.INIT_CWD as string, '.env'), 'utf8')).CONFORM_API_KEY
runAsProgram(() => {
  setTimeout(() => {
    // with a server's text quoted: a terminal link, a screen clear and a carriage return before a workflow command
    throw new Error(`no answer to GET /v1/categories (Authorization: Bearer ${key}): "\u001b]8;;https://evil.example/\u0007x\u001b[2J\r::error::forged"\nsecond line`)
  }, 0)
  return new Promise(() => {})
})
