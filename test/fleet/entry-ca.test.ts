/**
 * A fleet deployment behind TLS with a certificate no CA of the machine signed: its line says to
 * give its CA in its entry of the targets file (caCert:), where a single run's says --ca-cert.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startReferenceServer, type RunningServer } from '../../lib/server/reference-server.ts'
import type { FleetResult } from '../../lib/fleet/fleet-result.ts'
import { runConformInProcess } from '../helpers/run-conform.ts'
import { opensslMissing, selfSignedCert, tlsFront, type HostileServer, type SelfSignedCert } from '../hostile/hostile-servers.ts'

const KEY = 'entry-ca-key-0123456789abcdef'
const noOpenssl = opensslMissing()

describe.skipIf(noOpenssl !== undefined)(`a targets entry behind a self-signed certificate${noOpenssl ? ` (skipped: ${noOpenssl})` : ''}`, () => {
  let cert: SelfSignedCert
  let reference: RunningServer
  let front: HostileServer
  beforeAll(async () => {
    cert = selfSignedCert()
    reference = await startReferenceServer({ apiKey: KEY })
    front = await tlsFront(cert, Number(new URL(reference.baseUrl).port))
  })
  afterAll(async () => {
    await Promise.all([front?.close(), reference?.close()])
    cert?.cleanup()
  })

  test('not judged, and its line names caCert: in its entry; with caCert: it passes', async () => {
    const targets = join(cert.certFile, '..', 'targets.yaml')
    writeFileSync(targets, `deployments:\n  - label: eu\n    baseUrl: ${front.baseUrl}\n    apiKeyEnv: EU_KEY\n`)
    const untrusted = await runConformInProcess(['--targets', targets, '--rule', 'list-returns-200'], { env: { EU_KEY: KEY } })
    untrusted.cleanup()
    expect(untrusted.code).toBe(2)
    expect(untrusted.stdout).toMatch(/^NOT JUDGED {2}eu .* is not trusted \(.+\); add its CA with caCert: FILE in its entry of the targets file \(or --ca-cert FILE for every deployment\)$/m)
    writeFileSync(targets, `deployments:\n  - label: eu\n    baseUrl: ${front.baseUrl}\n    apiKeyEnv: EU_KEY\n    caCert: cert.pem\n`)
    const trusted = await runConformInProcess(['--targets', targets, '--rule', 'list-returns-200'], { env: { EU_KEY: KEY } })
    const fleet = JSON.parse(readFileSync(join(trusted.reportDir, 'fleet.json'), 'utf8')) as FleetResult
    trusted.cleanup()
    expect([trusted.code, fleet.verdict]).toEqual([0, 'pass'])
  })
})
