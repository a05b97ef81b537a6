/**
 * The conformance suite: every area of the interface, each a suite() of checks (lib/suite-kit/check.ts).
 * A run collects them all and starts every check at once, so every probe that waits for nothing goes
 * out at once, and a slow server costs its critical chain (creations, the list after them).
 */
import type { Suite } from '../lib/suite-kit/check.ts'
import { authentication } from './areas/authentication.ts'
import { categories } from './areas/categories.ts'
import { transport } from './areas/transport.ts'
import { versioning } from './areas/versioning.ts'

// categories first: its creates and the lists after them are the run's critical path, and the
// requests of checks declared first are sent first
export const SUITES: readonly Suite[] = [categories, authentication, transport, versioning]
