/**
 * RFC 8259 §4, as a note: the objects of the category records the run read name each member once.
 * A record that names one twice is read differently by different clients (most keep the last value,
 * as this suite does; serde's derived Deserialize and Go's encoding/json/v2 refuse the record), and
 * the document says nothing of it: the must-rules judge the record as this suite reads it, and a
 * repeated name is only told (a PostgreSQL row_to_json of a join, a Jackson @JsonAnyGetter whose map
 * holds a declared field, a record written by hand after another serialiser's).
 */
import { NotApplicable } from '../../lib/checks/failure.ts'
import { jsonBodyOf } from '../../lib/checks/response.ts'
import type { HttpResult } from '../../lib/http/client.ts'
import { firstRepeatedName } from '../../lib/json/repeated-names.ts'
import { check, type CheckTools } from '../../lib/suite-kit/check.ts'
import type { CategoryProbes } from './probes.ts'

const RECEIVERS_DIFFER =
  'RFC 8259 §4 asks the names within an object to be unique, and receivers differ: most keep the last value, as this suite reads it (JSON.parse, Python\'s json, Go\'s encoding/json, Jackson by default), ' +
  "serde's derived Deserialize refuses the object (duplicate field), and so does Go's encoding/json/v2 by default"

/** The first answer of `results` with a body whose objects repeat a name, told as a note; how many JSON bodies were read. */
function noteRepeatedName(results: readonly HttpResult[], what: string, t: CheckTools): number {
  let read = 0
  for (const result of results) {
    if (result.exchange.response === undefined || result.text === undefined) continue
    // a run cut short while the last list was read resumes this check on the answers it had: not a pass over each
    t.stillRunning()
    let repeated
    try {
      jsonBodyOf(result)
      repeated = firstRepeatedName(result.text)
    } catch {
      continue // not JSON: other rules report it
    }
    read++
    if (repeated === undefined) continue
    t.note(`${what}: ${repeated.at} names "${repeated.name}" twice; ${RECEIVERS_DIFFER}`)
    return read
  }
  return read
}

export function memberNamesCheck(probes: CategoryProbes): void {
  check('advisory-unique-member-names', "GET /categories, POST /categories answers and GET /categories after the run's POSTs → each object names each of its members once", async (t) => {
    const first = await t.use(probes.firstList)
    const answered = (settled: PromiseSettledResult<HttpResult>[]) => settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []))
    const creates = answered(await Promise.allSettled(probes.creates.map((c) => c.probe())))
    // none after the POSTs when none was sent (--read-only)
    const last = answered(await Promise.allSettled([probes.lastList().then((l) => l.list)]))
    t.evidence(...creates, ...last)
    const read = noteRepeatedName([first], 'the first list', t) + noteRepeatedName(creates, 'a create answer', t) + noteRepeatedName(last, "the list after the run's POSTs", t)
    if (read === 0) throw new NotApplicable('no JSON body to judge: none of these requests was answered with one')
  })
}
