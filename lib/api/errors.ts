/**
 * What the command line answers with exit 2 (no verdict: the run could not be made as asked),
 * thrown by the programmatic API instead (lib/api/run-conformance.ts). The message is the line
 * the command line prints after `conform: `, redacted as it is.
 */

/** A run that could not be made as asked: the command line's exit 2. */
export class ConformanceError extends Error {
  /** The command line's exit code for the same problem. */
  readonly exitCode = 2
  /** `options.cause`: the error of the caller's code behind it (a baseUrl function that threw), which vitest prints under it. */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'ConformanceError'
  }
}

/** An option or setting the command line refuses (a bad value, an unknown rule, a key that cannot be sent). */
export class ConformanceConfigError extends ConformanceError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'ConformanceConfigError'
  }
}

/** The options were good but the run could not start: the service unreachable, the report folder unwritable, an interrupt. */
export class ConformanceRunError extends ConformanceError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'ConformanceRunError'
  }
}
