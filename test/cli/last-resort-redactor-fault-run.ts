/**
 * The command line (runAsProgram) and a fault outside any run that quotes the key spelled out,
 * where redacting that fault fails too: for test/cli/last-resort-redactor-fault.test.ts.
 */
import { runAsProgram } from '../../lib/cli/conform.ts'

const key = process.env.CONFORM_API_KEY as string
runAsProgram(() => new Promise(() => {}), ['--help'])
process.nextTick(() => {
  throw new Error(`no answer (Authorization: Bearer ${key})`)
})
