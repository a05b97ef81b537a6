/**
 * `npm run serve`: the reference server on a port of your choice, conforming or running one of the
 * mutations (lib/server/mutations/) or conforming variants (lib/server/variants.ts), until
 * Ctrl-C. Prints its base URL, its key (the server's own, random unless --api-key) and the command
 * that checks it. Exit 2 on bad arguments.
 */
import { randomBytes } from 'node:crypto'
import { pathToFileURL } from 'node:url'
import { apiKeyInArgv } from '../config/config.ts'
import { optionsHelp, readCommandLine, type OptionSpec } from '../config/options.ts'
import { createRedactor } from '../http/redact.ts'
import { MUTATIONS } from '../server/mutations.ts'
import type { RunningServer } from '../server/reference-server.ts'
import { findCase, startCase, type ServerCase } from '../server/server-cases.ts'
import { CombinationConflict, COMBINATION_JOIN, variantOrCombination } from '../server/variant-combinations.ts'
import { VARIANTS } from '../server/variants.ts'

const SERVE_OPTIONS = [
  { flag: 'port', kind: 'integer', value: 'N', min: 0, max: 65535, defaultText: 'a free one', help: 'port to listen on' },
  { flag: 'api-key', kind: 'string', value: 'KEY', env: 'CONFORM_API_KEY', defaultText: 'a random one, printed', help: 'the key the server accepts (given, it is never printed; prefer the environment: a flag shows in ps)' },
  { flag: 'mutation', kind: 'string', value: 'NAME', help: `misbehave as this mutation (breaks one rule on purpose); several joined with ${COMBINATION_JOIN} (a${COMBINATION_JOIN}b) break theirs at once` },
  { flag: 'variant', kind: 'string', value: 'NAME', help: `behave as this conforming variant; several joined with ${COMBINATION_JOIN} (a${COMBINATION_JOIN}b) behave as all of them at once` },
  { flag: 'list-mutations', kind: 'boolean', help: 'print the mutations and variants, and exit' },
  { flag: 'help', short: 'h', kind: 'boolean', help: 'this text' },
] as const satisfies readonly OptionSpec[]

export const SERVE_USAGE = `Usage: npm run serve -- [options]

Starts the reference server of the Pet Store categories interface and keeps it up until Ctrl-C.

${optionsHelp(SERVE_OPTIONS)}`

export interface ServeIo {
  out(text: string): void
  err(text: string): void
}

function caseTable(title: string, cases: readonly (ServerCase & { breaks?: string })[]): string {
  const width = Math.max(...cases.map((c) => c.name.length))
  const lines = cases.map((c) => `  ${c.name.padEnd(width)}  ${c.breaks ? `[${c.breaks}] ` : ''}${c.description}`)
  return `${title}\n${lines.join('\n')}\n`
}

export function listCases(): string {
  return `${caseTable('Mutations (--mutation NAME; the rule each must fail in brackets):', MUTATIONS)}\n${caseTable('Conforming variants (--variant NAME):', VARIANTS)}`
}

/** Parses the arguments and starts the server; returns it, or an exit code when there is nothing to serve. */
export async function serve(argv: string[], printTo: ServeIo, env: NodeJS.ProcessEnv = {}): Promise<RunningServer | number> {
  // a name it does not know is said back (--mutation a+"$CONFORM_API_KEY", the key pasted in the wrong place): never the key
  const redact = createRedactor(env.CONFORM_API_KEY, apiKeyInArgv(argv))
  const io: ServeIo = { out: printTo.out, err: (text) => printTo.err(redact(text)) }
  const values = readCommandLine({ name: 'serve', usage: SERVE_USAGE, options: SERVE_OPTIONS }, argv, io, env)
  if (typeof values === 'number') return values
  if (values['list-mutations']) {
    io.out(listCases())
    return 0
  }
  const port = (values.port as number | undefined) ?? 0
  const mutation = values.mutation as string | undefined
  const variant = values.variant as string | undefined
  if (mutation !== undefined && variant !== undefined) {
    io.err('serve: give --mutation or --variant, not both\n')
    return 2
  }
  // mutations join as variants do: a team trying a baseline of two known deviations wants one server with both
  const asked = mutation !== undefined ? { kind: 'mutation', table: MUTATIONS, name: mutation } : variant !== undefined ? { kind: 'variant', table: VARIANTS, name: variant } : undefined
  let chosen: (ServerCase & { breaks?: string }) | undefined
  if (asked !== undefined) {
    const { kind, table, name } = asked
    try {
      chosen = variantOrCombination(table, name, { statusLast: kind === 'mutation' })
    } catch (error) {
      if (!(error instanceof CombinationConflict)) throw error
      io.err(`serve: the ${kind}s ${name.split(COMBINATION_JOIN).join(', ')} cannot be combined: ${error.message}\n`)
      return 2
    }
    if (!chosen) {
      const unknown = name.split(COMBINATION_JOIN).find((part) => !findCase(table, part)) ?? name
      io.err(`serve: unknown ${kind} "${unknown}"; the ${kind}s are:\n${table.map((v) => `  ${v.name}`).join('\n')}\n`)
      return 2
    }
    const parts = name.split(COMBINATION_JOIN).map((part) => findCase<ServerCase & { breaks?: string }>(table, part)?.breaks)
    if (kind === 'mutation') chosen = { ...chosen, breaks: [...new Set(parts)].join(', ') }
  }
  const given = values['api-key'] !== undefined
  const apiKey = (values['api-key'] as string | undefined) ?? randomBytes(24).toString('base64url')
  let server: RunningServer
  try {
    server = await startCase(chosen ?? { name: 'conforming', description: 'the conforming reference server', behaviour: {} }, { apiKey, port })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
    io.err(`serve: port ${port} is in use (another server, or an npm run serve still running?); give another --port, or leave it out for a free one\n`)
    return 2
  }

  const what = chosen === undefined ? 'conforming' : chosen.breaks ? `mutation ${chosen.name}, breaks ${chosen.breaks}` : `variant ${chosen.name}`
  const extra = chosen?.args?.length ? ` ${chosen.args.join(' ')}` : ''
  io.out(
    [
      `Reference server (${what}) listening`,
      ...(chosen ? [`  ${chosen.description}`] : []),
      `  base URL: ${server.baseUrl}`,
      // its own random key is printed, to be used; a key the user gave is theirs, and never shown
      given ? '  API key:  the one you gave (CONFORM_API_KEY or --api-key)' : `  API key:  ${apiKey}   (this server's own key, random)`,
      '',
      'Check it from another terminal:',
      `  ${given ? '' : `CONFORM_API_KEY='${apiKey}' `}npm run conform -- --base-url ${server.baseUrl}${extra}`,
      '',
      'Ctrl-C stops it.',
      '',
    ].join('\n'),
  )
  return server
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const io: ServeIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t) }
  // `--list-mutations | head`: a reader that stopped reading ends nothing (it was a stack trace and exit 1)
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error
  })
  serve(process.argv.slice(2), io, process.env).then(
    (result) => {
      if (typeof result === 'number') {
        process.exitCode = result
        return
      }
      const stop = () => {
        io.out('\nStopping.\n')
        void result.close().then(() => process.exit(0))
      }
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    },
    (error: unknown) => {
      io.err(`serve: ${(error as Error).message}\n`)
      process.exitCode = 2
    },
  )
}
