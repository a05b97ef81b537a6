/**
 * Every request of the run to /categories: the list as the run finds it, every declared POST
 * (valid bodies of each input class, invalid bodies, malformed JSON, wrong types generated from the
 * schema, bad credentials), and the list that follows them. One file, because the whole-run checks
 * compare these requests with each other, and vitest may run separate files in workers that share
 * no memory (suites/categories/probes.ts says more).
 */
import { createChecks } from '../categories/create-checks.ts'
import { listChecks, stillListedCheck } from '../categories/list-checks.ts'
import { categoryProbes } from '../categories/probes.ts'
import { refusalChecks } from '../categories/refusal-checks.ts'

const probes = categoryProbes()

listChecks(probes)
createChecks(probes.creates)
refusalChecks(probes)
stillListedCheck(probes)
