/** The options of `npm run conform`, declared once: parsing, --help and the README table read them. */
import type { OptionSpec } from './options.ts'

export const CONFORM_OPTIONS = [
  { flag: 'base-url', kind: 'string', value: 'URL', env: 'CONFORM_BASE_URL', defaultText: 'embedded server', help: 'base address, ending in /v1' },
  { flag: 'api-key', kind: 'string', value: 'KEY', env: 'CONFORM_API_KEY', help: 'the API key (prefer the environment: a flag shows in ps); surrounding whitespace is trimmed' },
  { flag: 'env', kind: 'string', value: 'NAME', help: 'also read .env.NAME (.env is always read)' },
  { flag: 'report-dir', kind: 'string', value: 'DIR', env: 'CONFORM_REPORT_DIR', default: 'reports', help: 'where reports are written' },
  { flag: 'timeout', kind: 'integer', value: 'MS', env: 'CONFORM_TIMEOUT_MS', default: 10_000, min: 10, unit: 'milliseconds', help: 'deadline of each request, from when it is written to a connection; an operation that misses it sends no more requests' },
  { flag: 'deadline', kind: 'integer', value: 'MS', env: 'CONFORM_DEADLINE_MS', default: 120_000, min: 100, unit: 'milliseconds', help: 'deadline of the whole run, from the command\'s start: it then ends by this plus about a second' },
  {
    flag: 'max-response-bytes',
    kind: 'integer',
    value: 'N',
    env: 'CONFORM_MAX_RESPONSE_BYTES',
    default: 64 * 1024 * 1024,
    min: 1,
    unit: 'bytes',
    help: 'largest response body read',
  },
  { flag: 'read-only', kind: 'boolean', env: 'CONFORM_READ_ONLY', help: 'send no POST at all' },
  { flag: 'max-writes', kind: 'integer', value: 'N', env: 'CONFORM_MAX_WRITES', min: 0, defaultText: 'every POST the suite declares', help: 'send at most N POSTs (one answered 429, or 503 with Retry-After, is sent again: it was not processed)' },
  {
    flag: 'rate-limit',
    kind: 'integer',
    value: 'N',
    env: 'CONFORM_RATE_LIMIT',
    min: 1,
    unit: 'requests a second',
    defaultText: 'none',
    help: "send at most N requests a second (a gateway's plan): the run takes longer instead of meeting 429s",
  },
  {
    flag: 'header',
    kind: 'list',
    value: "'NAME: VALUE'",
    env: 'CONFORM_HEADERS',
    defaultText: 'none',
    help: 'add a header to every request (repeatable; the variable: one per line), for a gateway; never Authorization; values of names with auth, cookie, token, key or secret are redacted in every output',
  },
  {
    flag: 'baseline',
    kind: 'string',
    value: 'FILE',
    env: 'CONFORM_BASELINE',
    defaultText: 'none',
    help: 'known failures (JSON: rule, code, check, reason, expires): a failure it names is shown apart and does not fail the run; any other does',
  },
  { flag: 'update-baseline', kind: 'boolean', help: "write the run's failures into the --baseline FILE (keeping reasons and expiry dates) and exit 0" },
  { flag: 'seed', kind: 'integer', value: 'N', env: 'CONFORM_SEED', min: 0, defaultText: 'a new one per run', help: 'the seed of the generated inputs: every report prints it, and the same seed sends the same values again' },
  { flag: 'rule', kind: 'list', value: 'ID', defaultText: 'all', help: 'run only this rule (repeatable)' },
  { flag: 'list-rules', kind: 'boolean', help: 'print the rule catalogue and exit' },
  { flag: 'allow-insecure-http', kind: 'boolean', help: 'allow http:// to a host that is not loopback' },
  { flag: 'allow-any-base-path', kind: 'boolean', help: 'run although the path does not end in /v1 (that rule then fails)' },
  { flag: 'version', kind: 'boolean', help: 'print the version and exit' },
  { flag: 'help', short: 'h', kind: 'boolean', help: 'this text' },
] as const satisfies readonly OptionSpec[]

export type ConformFlag = (typeof CONFORM_OPTIONS)[number]['flag']
