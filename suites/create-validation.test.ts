/** §4.2 rule 1, §5.4, §7: invalid create bodies are answered 400 with an Error record. */
import { documentedErrorChecks } from '../lib/suite-kit/documented-error.ts'
import { once } from '../lib/suite-kit/check.ts'
import { recordPrefix } from '../lib/suite-kit/run-context.ts'
import { VALID_AUTHORIZATION } from './cases/credentials.ts'
import { INVALID_BODIES, postCategory } from './cases/post-probes.ts'

for (const c of INVALID_BODIES) {
  const probe = once(() => postCategory(c.key, c.body(recordPrefix()), VALID_AUTHORIZATION))
  documentedErrorChecks(`POST /categories with ${c.label}`, probe, c.rule, 400)
}
