/**
 * The conformance suite: one vitest file that imports every area of the interface, each of which
 * registers its checks (`check()` in lib/suite-kit/check.ts) as it is imported. One file, because
 * vitest runs the files of a worker one after another: four files made four waves of requests (and
 * on Node 20 a pause for its module hooks between them), where one file sends every probe that waits
 * for nothing at once, and a slow server costs its critical chain (list, creations, the list after).
 */
import './areas/authentication.ts'
import './areas/categories.ts'
import './areas/transport.ts'
import './areas/versioning.ts'
