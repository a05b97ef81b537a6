/**
 * A Java service on the JDK alone configured to conform, as measured (Java 17's
 * com.sun.net.httpserver, a JSON parser written by hand and made strict, a ConcurrentHashMap):
 * the freedoms such a stack uses kept. The suite must pass it.
 */
import { conformingBehaviour } from '../reference-server.ts'
import { columnLimits } from './inputs.ts'
import { SPRING_VARIANTS } from './spring.ts'
import type { Variant } from '../server-cases.ts'

const JDK_VARIANTS: readonly Variant[] = [
  {
    name: 'jdk-http-server-configured',
    description:
      "the JDK's own HttpServer configured to conform: sendResponseHeaders(status, 0), so every answer is chunked, " +
      'application/json written twice in two field lines (Headers.add in a Filter and again in the handler), and a name of at most 32 UTF-16 units (String.length()) refused with 400 beyond',
    behaviour: {
      ...columnLimits(32, 1000, 'utf16'),
      finish: (reply) => ({ ...reply, headers: { ...reply.headers, 'content-type': ['application/json', 'application/json'] } }),
      transport: { ...conformingBehaviour.transport, chunked: true },
    },
  },
]

/** The Java services' variants: Spring Boot's (spring.ts) and the JDK's own. */
export const JAVA_VARIANTS: readonly Variant[] = [...SPRING_VARIANTS, ...JDK_VARIANTS]
