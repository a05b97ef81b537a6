/**
 * A MySQL utf8mb3 column in strict mode whose refusal of an emoji (1366, Incorrect string value)
 * the service leaves unhandled, measured by stackhunt10 on a python3 http.server service answering
 * the store's error as 500: the words of create-returns-201 said a column's length (ORA-12899,
 * 22001, 1406) or a format string, though plain ASCII as long was stored; they name the store's
 * refusal of the characters now, from its words in the answer (lib/checks/sql-store-answers.ts
 * characterFaultWords). The verdict is unchanged.
 */
import { describe, expect, test } from 'vitest'
import { characterFaultWords } from '../../lib/checks/sql-store-answers.ts'
import { MUTATIONS } from '../../lib/server/mutations.ts'
import { startCase } from '../../lib/server/server-cases.ts'
import { runsWithKey } from '../helpers/run-conform.ts'

const KEY = 'store-character-faults-key-0123456789'
const { serve, conform } = runsWithKey(KEY)
const STORE_WORDS = JSON.stringify({ code: 'internal', message: "(1366, \"Incorrect string value: '\\xF0\\x9F\\x90\\x87' for column `name` at row 1\")", status: 500 })

describe("a server fault to a create's characters", () => {
  test("the store's words in the answer: its refusal of the characters, alone, whatever the case's words", () => {
    const words = characterFaultWords('{"name":"cf-x-🐇"}', STORE_WORDS, 'a server fault to values a column may be too short for')
    expect(words).toMatch(/^the answer names the store's refusal of the values' characters, an error left unhandled: they hold characters beyond U\+FFFF \(emoji\): MySQL's and MariaDB's utf8mb3/)
    expect(words).toMatch(/refuses them with 400 \(§4\.2 rule 1\), never with a fault$/)
    expect(words).not.toMatch(/too short/)
  })

  test('characters beyond U+FFFF without the store\'s words: one cause more, after the case\'s', () => {
    expect(characterFaultWords('{"name":"cf-x","description":"🐇"}', 'Internal Server Error', 'a length')).toMatch(/^a length; or if the store is why: the values hold characters beyond U\+FFFF \(emoji\)/)
    expect(characterFaultWords('{"name":"cf-x-🐇"}', '', undefined)).toMatch(/^if the store is why: /)
  })

  test("no character beyond U+00FF, or only some beyond it and no store's words: the case's words alone", () => {
    expect(characterFaultWords('{"name":"cf-x-Ñandú"}', STORE_WORDS, 'the case')).toBe('the case')
    expect(characterFaultWords('{"name":"cf-x-שלום"}', 'Internal Server Error', undefined)).toBeUndefined()
    expect(characterFaultWords('not json', STORE_WORDS, 'the case')).toBe('the case')
  })

  test('a whole run: every 500 to an emoji names utf8mb3, none a column\'s length', async () => {
    const run = await conform(serve(await startCase(MUTATIONS.find((m) => m.name === 'utf8mb3-refusal-unhandled-500')!, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const faults = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.failure?.code === 'SERVER_ERROR')
    expect(faults.length).toBeGreaterThan(1)
    for (const check of faults) {
      expect(check.failure!.message, check.name).toMatch(/the answer names the store's refusal of the values' characters, an error left unhandled: they hold characters beyond U\+FFFF \(emoji\): MySQL's and MariaDB's utf8mb3/)
      expect(check.failure!.message, check.name).not.toMatch(/ORA-12899|a column may be too short/)
    }
  }, 60_000)
})

// review48: a gateway's 504 says the service did not answer in time: neither the case's words nor a store's refusal (answered at once) is why
describe("a gateway's timeout to a create's characters", () => {
  test("a 504 to an emoji's create names the gateway's timeout alone: no case's words, no store's refusal", async () => {
    const utf8mb3 = MUTATIONS.find((m) => m.name === 'utf8mb3-refusal-unhandled-500')!
    const page = '<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n'
    const timedOut = {
      ...utf8mb3,
      name: 'emoji-create-gateway-504',
      behaviour: {
        finish: ((reply, request, store) => {
          const answered = utf8mb3.behaviour.finish!(reply, request, store)
          return answered.status === 500 ? { status: 504, headers: { 'content-type': 'text/html', server: 'nginx' }, body: page } : answered
        }) as NonNullable<typeof utf8mb3.behaviour.finish>,
      },
    }
    const run = await conform(serve(await startCase(timedOut, { apiKey: KEY })))
    expect(run.code, run.stdout).toBe(1)
    const faults = run.results!.rules.find((r) => r.id === 'create-returns-201')!.checks.filter((c) => c.failure?.code === 'SERVER_ERROR')
    expect(faults.length).toBeGreaterThan(1)
    for (const check of faults) {
      expect(check.failure!.message, check.name).toMatch(/did not answer within the gateway's timeout/)
      expect(check.failure!.message, check.name).not.toMatch(/utf8mb3|if the store is why|left unhandled/)
    }
  }, 60_000)
})
