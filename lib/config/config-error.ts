/** What is wrong with the options, files or environment a run was given: one line, exit 2, before any request. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ConfigError'
  }
}
