/**
 * lib/config/client-tls.ts with files that are not what the flags ask for: each is one line naming
 * the file and what is wrong with it, never its contents, and none sends the user after a
 * passphrase a file does not need.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { ConfigError } from '../../lib/config/config-error.ts'
import { readClientTls } from '../../lib/config/client-tls.ts'
import { loadConfig } from '../../lib/config/config.ts'
import { opensslMissing } from '../hostile/hostile-servers.ts'
import { makePki } from '../hostile/mutual-tls.ts'

const dir = mkdtempSync(join(tmpdir(), 'client-tls-files-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const refusal = (files: Parameters<typeof readClientTls>[0], passphrase?: string): string => {
  try {
    readClientTls(files, dir, passphrase)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return (error as Error).message
  }
  throw new Error('not refused')
}

describe('odd files', () => {
  test('an empty --client-cert is said to be empty, not a PKCS#12 file that wants a passphrase', () => {
    writeFileSync(join(dir, 'empty.pem'), '')
    expect(refusal({ clientCert: 'empty.pem' })).toBe(`--client-cert ${join(dir, 'empty.pem')} is empty: give the PEM certificate (or PKCS#12 file) of the client`)
  })

  test('a directory, a device past the bound, bytes that are no PKCS#12 file: one line each, no contents', () => {
    mkdirSync(join(dir, 'certs'))
    expect(refusal({ clientCert: 'certs' })).toMatch(/cannot be read: it is a directory$/)
    expect(refusal({ caCert: '/dev/zero' })).toMatch(/^--ca-cert \/dev\/zero cannot be read: it holds more than 1 MiB$/)
    writeFileSync(join(dir, 'noise.p12'), Buffer.from('secret-looking bytes \x00\x01\x02'))
    const message = refusal({ clientCert: 'noise.p12' }, 'a-passphrase')
    expect(message).toMatch(/is neither PEM nor a PKCS#12 file that the passphrase in CONFORM_CLIENT_KEY_PASSPHRASE opens$/)
    expect(message).not.toMatch(/secret-looking|a-passphrase/)
  })
})

describe.skipIf(opensslMissing() !== undefined)('CONFORM_CLIENT_KEY_PASSPHRASE', () => {
  test('set but empty (a CI secret that is not set) is none: an encrypted key asks for its passphrase, not "cannot be decrypted"', () => {
    const pki = makePki()
    try {
      const load = (env: NodeJS.ProcessEnv) => () => loadConfig(['--base-url', 'https://conform.example/v1', '--client-cert', pki.clientCertFile, '--client-key', pki.encryptedKeyFile], { CONFORM_API_KEY: 'client-tls-files-key-5be1', ...env }, pki.dir)
      const encrypted = `the key in ${pki.encryptedKeyFile} is encrypted: give its passphrase in CONFORM_CLIENT_KEY_PASSPHRASE`
      expect(load({})).toThrow(encrypted)
      expect(load({ CONFORM_CLIENT_KEY_PASSPHRASE: '' })).toThrow(encrypted)
    } finally {
      pki.cleanup()
    }
  })
})
