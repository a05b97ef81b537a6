/**
 * The command line (runAsProgram) and a fault outside any run that quotes the key spelled out,
 * where redacting that fault fails too (BREAK_REDACTOR: every replace or split of a text that holds the key
 * throws, as V8 threw on a pattern too large, its message the key spelled out): for
 * test/cli/last-resort-redactor-fault.test.ts.
 */
import { runAsProgram } from '../../lib/cli/conform.ts'

const key = process.env.CONFORM_API_KEY as string
runAsProgram(() => new Promise(() => {}), ['--help'])
process.nextTick(() => {
  if (process.env.BREAK_REDACTOR) {
    for (const name of ['replace', 'split'] as const) {
      const own = String.prototype[name] as (...args: unknown[]) => unknown
      Object.defineProperty(String.prototype, name, {
        value(this: string, ...args: unknown[]) {
          if (String(this).includes(key)) throw new SyntaxError(`Invalid regular expression: /${key}/: Regular expression too large`)
          return own.apply(this, args)
        },
      })
    }
  }
  throw new Error(`no answer (Authorization: Bearer ${key})`)
})
