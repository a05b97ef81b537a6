/**
 * A real failing run for report tests: the reference server made to accept invalid bodies (so the
 * create-rejects rules fail and the ledger holds records it should not), to trim the spaces off
 * names and to say status 400 in every Error record (the two failures of issue 11: a difference
 * only whitespace shows, and one cause met by many checks), to send hostile text in a header of
 * every answer, and to echo the API key back in a header and a cookie (so the reports prove they
 * never show it).
 */
import { randomBytes } from 'node:crypto'
import { conformingBehaviour, startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import { runConformInProcess, type ConformRun, type RunOptions } from '../helpers/run-conform.ts'

export const HOSTILE_HEADER = '<script>alert(1)</script><img src=x onerror=alert(2)> ::error title=forged::x'

export interface FailingRun {
  server: RunningServer
  run: ConformRun
  key: string
  close(): Promise<void>
}

export async function failingRun(options: Pick<RunOptions, 'env'> = {}, args: string[] = []): Promise<FailingRun> {
  const key = `report-${randomBytes(16).toString('base64url')}`
  const server = await startReferenceServer({
    apiKey: key,
    behaviour: {
      validate: () => null,
      toRecord: (body, id) => conformingBehaviour.toRecord({ ...body, ...(typeof body.name === 'string' ? { name: body.name.trim() } : {}) }, id),
      errorBody: (_status, code, message) => ({ code, message, status: 400 }),
      finish: (reply, request) => ({
        ...reply,
        headers: { ...reply.headers, 'x-hostile': HOSTILE_HEADER, 'x-echo-authorization': request.authorization ?? '', 'set-cookie': `session=${key}` },
      }),
    },
  })
  const run = await runConformInProcess(['--base-url', server.baseUrl, ...args], { ...options, env: { CONFORM_API_KEY: key, ...options.env } })
  return {
    server,
    run,
    key,
    close: async () => {
      run.cleanup()
      await server.close()
    },
  }
}
