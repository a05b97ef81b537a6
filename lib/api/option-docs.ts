// Written by `npm run docs` from lib/config/conform-options.ts and spec/rules.yaml: edit those, not this file.

/** The id of a rule of the catalogue (docs/rules.md). */
export type KnownRuleId =
  | 'list-returns-200'
  | 'list-returns-category-array'
  | 'create-returns-201'
  | 'create-returns-category'
  | 'create-echoes-fields'
  | 'ids-unique'
  | 'created-in-list'
  | 'create-rejects-missing-name'
  | 'create-rejects-invalid-values'
  | 'create-rejects-invalid-json'
  | 'create-rejects-missing-body'
  | 'auth-missing-key-401'
  | 'auth-invalid-key-401'
  | 'error-body-is-error-record'
  | 'error-status-matches-http'
  | 'json-content-type'
  | 'base-url-ends-v1'
  | 'advisory-www-authenticate'
  | 'advisory-deprecation-headers'
  | 'advisory-identity-encoding'
  | 'advisory-unique-member-names'

/**
 * The options of the command line a run from code takes, with their help. lib/api/options.ts
 * gives each its type, from the same table, and fails to compile when the names here differ.
 */
export interface OptionDocs {
  /**
   * The API key (prefer the environment: a flag shows in ps, and npm prints the command line it runs, the flag with it); surrounding whitespace is trimmed.
   * Takes a string. Not given: read from CONFORM_API_KEY, else none. The command line's --api-key.
   */
  apiKey: unknown
  /**
   * Also read .env.NAME (.env is always read).
   * Takes a string. Not given: none. The command line's --env.
   */
  env: unknown
  /**
   * Where reports are written.
   * Takes a string, or false. Not given, or false: no report files (CONFORM_REPORT_DIR is not read). The command line's --report-dir, whose default is reports.
   */
  reportDir: unknown
  /**
   * Deadline of each request, from when it is written to a connection or from the server's latest answer to any request (or its latest 16 KiB of a body still coming), whichever is later; an operation that misses it sends no more requests, but for the second probe of its failures (confirm); also how long the server may refuse every connection (a restart) before it is taken as gone, at least 5 s.
   * Takes a whole number of milliseconds, at least 10. Not given: read from CONFORM_TIMEOUT_MS, else 10000. The command line's --timeout.
   */
  timeout: unknown
  /**
   * Deadline of the whole run, from the command's start: it then ends by this plus about a second.
   * Takes a whole number of milliseconds, at least 100. Not given: read from CONFORM_DEADLINE_MS, else 120000. The command line's --deadline.
   */
  deadline: unknown
  /**
   * How long a created record may take to appear in the list (a read replica, a search index): while one is missing, the list is read again, with growing waits adding up to this and ending before deadline; 0: the first list is judged. A list that shows them at once is read once more (a balancer sends it to another replica): at once, or as long after the first as the last write was answered after the last create (a refused create stored all the same may lag as the creates could), or this long after the last create when one create took far longer than the others (1 s, and 4 times their median: a front may have sent it again, and its first attempt stored it later).
   * Takes a whole number of milliseconds, at least 0, at most 60000. Not given: read from CONFORM_LIST_LAG_MS, else 5000. The command line's --list-lag.
   */
  listLag: unknown
  /**
   * Largest response body read.
   * Takes a whole number of bytes, at least 1. Not given: read from CONFORM_MAX_RESPONSE_BYTES, else 67108864. The command line's --max-response-bytes.
   */
  maxResponseBytes: unknown
  /**
   * Probe a failed check again up to N times (a create with a fresh name) before the verdict, and say whether it fails every time (deterministic) or not (intermittent); 0: off. A passing run sends nothing more.
   * Takes a whole number, at least 0, at most 10. Not given: read from CONFORM_CONFIRM, else 2. The command line's --confirm.
   */
  confirm: unknown
  /**
   * Production acceptance behind a load balancer: the reads and the create-then-list round trip N times over fresh connections (one create a round); every rule then says in how many rounds it failed.
   * Takes a whole number, at least 1, at most 100. Not given: read from CONFORM_REPEAT, else 1. The command line's --repeat.
   */
  repeat: unknown
  /**
   * Send no POST at all.
   * Takes true or false. Not given: read from CONFORM_READ_ONLY, else false. The command line's --read-only.
   */
  readOnly: unknown
  /**
   * Send at most N POSTs, each on a connection of its own; one left unanswered, or answered 429 or 503, is never sent again (it may have been stored).
   * Takes a whole number, at least 0. Not given: read from CONFORM_MAX_WRITES, else every POST the suite declares. The command line's --max-writes.
   */
  maxWrites: unknown
  /**
   * Send at most N requests a second (a gateway's plan): the run takes longer instead of meeting 429s.
   * Takes a whole number of requests a second, at least 1. Not given: read from CONFORM_RATE_LIMIT, else none. The command line's --rate-limit.
   */
  rateLimit: unknown
  /**
   * At most N requests in flight at once, one connection each, opened six at a time as long as the server is slow to answer (a run sends about 170: three or four round trips at 48 to a far server); lower spares a fragile deployment, at the cost of round trips.
   * Takes a whole number of requests, at least 1, at most 64. Not given: read from CONFORM_CONCURRENCY, else 48. The command line's --concurrency.
   */
  concurrency: unknown
  /**
   * Add a header to every request (repeatable; the variable: one per line), for a gateway; never Authorization; values of names with auth, cookie, token, key, secret, passw, credential, jwt, assertion, signature or session, and values of 16 or more letters and digits mixed (a token; not a UUID, a dated version or a host name), are redacted in every output (a secret: prefer the variable, as npm prints the command line it runs).
   * Takes a string or a list of them. Not given: read from CONFORM_HEADERS, else none. The command line's --header.
   */
  header: unknown
  /**
   * Trust the CA certificates of this PEM file too, beside the system's (NODE_EXTRA_CA_CERTS does the same for the whole process).
   * Takes a string. Not given: read from CONFORM_CA_CERT, else the system's CAs. The command line's --ca-cert.
   */
  caCert: unknown
  /**
   * Present this client certificate (PEM, with its chain; or a PKCS#12 .p12/.pfx file) to a service behind mutual TLS, only in the handshakes with the base URL's origin; its key from clientKey, else from this file.
   * Takes a string. Not given: read from CONFORM_CLIENT_CERT, else none. The command line's --client-cert.
   */
  clientCert: unknown
  /**
   * The client certificate's private key (PEM); an encrypted one's passphrase comes from CONFORM_CLIENT_KEY_PASSPHRASE, never a flag.
   * Takes a string. Not given: read from CONFORM_CLIENT_KEY, else the --client-cert file. The command line's --client-key.
   */
  clientKey: unknown
  /**
   * Known failures (JSON: rule, code, check (left out: any check of the rule), observed, reason, expires; and knownProblems: stray answers, problem stray-answer): a failure it names, showing what it observed, is shown apart and does not fail the run; any other does.
   * Takes a string. Not given: read from CONFORM_BASELINE, else none. The command line's --baseline.
   */
  baseline: unknown
  /**
   * Write the run's failures into the baseline FILE (keeping reasons and expiry dates) and exit 0, its verdict RECORDED (not PASS) when it wrote any; intermittent failures (confirm) are left out, and an expired entry kept as it is: the run fails on them.
   * Takes true or false. Not given: false. The command line's --update-baseline.
   */
  updateBaseline: unknown
  /**
   * The seed of the generated inputs: every report prints it, and the same seed sends the same values again.
   * Takes a whole number, at least 0. Not given: read from CONFORM_SEED, else a new one per run. The command line's --seed.
   */
  seed: unknown
  /**
   * Run only this rule (repeatable).
   * Takes a string or a list of them. Not given: all. The command line's --rule.
   */
  rule: unknown
  /**
   * Allow http:// to a host that is not loopback, and NODE_TLS_REJECT_UNAUTHORIZED=0 to turn off the check of an https:// server's certificate (without it, the certificate is checked whatever that variable says): either way the key may be read on its way.
   * Takes true or false. Not given: false. The command line's --allow-insecure-http.
   */
  allowInsecureHttp: unknown
  /**
   * Run although the path does not end in /v1 (that rule then fails).
   * Takes true or false. Not given: false. The command line's --allow-any-base-path.
   */
  allowAnyBasePath: unknown
}
