/**
 * Text that reads as a date and time, given back as another form of that moment, names the reader
 * that took it for a date (lib/checks/date-text-answers.ts): Json.NET's DateParseHandling.DateTime
 * (its default, as issues JamesNK/Newtonsoft.Json#862 and #1233 show: "2017-01-17T17:24:12.9538487Z"
 * read into a string as "01/17/2017 17:24:12"), or a JSON.parse reviver. The words only.
 */
import { describe, expect, test } from 'vitest'
import { firstDifference } from '../../lib/checks/category.ts'

const SENT = '2024-02-29T23:59:59.1234567Z'

describe('text that reads as a date, given back as another text of a date', () => {
  test("DateTime.ToString() in the invariant culture: Json.NET's reader took it for a DateTime", () => {
    expect(firstDifference(SENT, '02/29/2024 23:59:59')).toMatch(/^; first difference at character 0: .*; text that reads as a date and time came back as DateTime\.ToString\(\) writes one: Json\.NET's reader .*DateParseHandling\.None/)
  })

  test('the same moment to the millisecond, in UTC: a reviver made it a Date', () => {
    expect(firstDifference(SENT, '2024-02-29T23:59:59.123Z')).toMatch(/came back as another form of the same moment: the body was parsed with a reviver .*toISOString\(\)/)
    expect(firstDifference('2024-02-29T23:59:59+01:00', '2024-02-29T22:59:59.000Z')).toMatch(/a reviver/)
  })

  test('another moment, text that is no date, or a date sent only as a date: no such words', () => {
    expect(firstDifference(SENT, '2024-03-01T00:00:00.000Z')).not.toMatch(/date and time/)
    expect(firstDifference(SENT, '2024-02-29T23:59:59.1234567')).not.toMatch(/reviver|Json\.NET/)
    expect(firstDifference('cf-x-plain', '02/29/2024 23:59:59')).not.toMatch(/date and time/)
    expect(firstDifference('2024-02-29', '02/29/2024 00:00:00')).not.toMatch(/date and time/)
  })
})
