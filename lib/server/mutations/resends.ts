/**
 * A front that sends a create again when the service has not answered it within its timeout, in
 * front of a service slow on some creates before it stores them: the resend is answered, and the
 * first attempt, still running, stores its record once more after that answer. Measured on
 * 2026-11-27: HAProxy 2.6 with retry-on all-retryable-errors (response-timeout among them), retries 2
 * and timeout server 1s, before a Flask service that slept 2 s before the insert on one create in
 * 10: three records stored twice, after the run's last list, which passed (docs/adoption.md).
 */
import { conformingBehaviour, type StoredCategory } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

/** The front's timeout: the slow create's resend is answered this much after the request came. */
const FRONT_TIMEOUT_MS = 1_000
/** How long after the answer the first attempt stores its record (the service slept 2 s in all). */
const FIRST_ATTEMPT_STORES_AFTER_MS = 1_500
/**
 * The slow create: the one named "0" (suites/cases/valid-creates.ts), chosen by its body and not as
 * one in so many as they arrive, which concurrency orders anew each run: the kill matrix's table
 * (docs/proof.md) quotes the duplicate the suite names, and must read the same on every run.
 */
const SLOW_NAME = '0'

export const RESEND_MUTATIONS: readonly Mutation[] = [
  {
    name: 'front-resends-slow-creates',
    breaks: 'created-in-list',
    code: 'DUPLICATE_CREATE',
    description:
      'a front resends a create the service has not answered within 1 s (HAProxy: retry-on all-retryable-errors, timeout server 1s), and the service is slow on one valid create (the one named "0") before it stores it: ' +
      "the resend's record is answered 1 s after the request, and the first attempt stores the same values once more 1.5 s after that answer, under an id of its own",
    slow: 'the list after the POSTs is read again once --list-lag (5 s) has passed since the last create was answered, as one create took far longer than the others',
    behaviour: {
      finish: (reply, request, store) => {
        if (request.operation !== 'createCategory' || reply.status !== 201) return reply
        const record = reply.body as StoredCategory
        if (record.name !== SLOW_NAME) return reply
        setTimeout(() => store.push({ ...record, id: conformingBehaviour.nextId(store) }), FRONT_TIMEOUT_MS + FIRST_ATTEMPT_STORES_AFTER_MS)
        return { ...reply, laterMs: FRONT_TIMEOUT_MS }
      },
    },
  },
]
