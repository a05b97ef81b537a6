/**
 * TLS of the user's own (--ca-cert, --client-cert, --client-key): a CA the run trusts beside the
 * system's, and the client certificate a service behind mutual TLS asks for (an API gateway's
 * mTLS, nginx's `ssl_verify_client on`), as curl's --cacert, --cert and --key and Schemathesis'
 * --request-cert give them. The files are PEM, read under a bound and checked before any request:
 * a certificate that does not parse, a key that does not, or does not belong to the certificate, or
 * one encrypted without CONFORM_CLIENT_KEY_PASSPHRASE, is one line and exit 2, naming the file,
 * never its contents. The key and its passphrase go only into the TLS handshakes with the base
 * URL's origin (lib/http/agent.ts), never to a proxy, and no report holds them: a report names the
 * files and the certificate's subject, issuer, expiry and SHA-256 fingerprint (`described`).
 */
import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto'
import { resolve } from 'node:path'
import { ConfigError } from './config-error.ts'
import * as tlsModule from 'node:tls'
import { createSecureContext } from 'node:tls'
import { readUserBytes, whyUnreadable } from './user-file.ts'

/** A PEM file of certificates or a key is small; a bundle of every public CA is about 200 KiB. */
const PEM_MAX_BYTES = 1024 * 1024

/** The variable the passphrase of an encrypted --client-key is read from (never a flag: a flag shows in ps). */
export const PASSPHRASE_VARIABLE = 'CONFORM_CLIENT_KEY_PASSPHRASE'

/** What the handshakes use: PEM texts, and the passphrase of an encrypted key. */
export interface TlsMaterial {
  ca?: string[]
  cert?: string
  key?: string
  /** A PKCS#12 file's bytes (.p12, .pfx: a certificate and its key in one, as Java's keystores and Windows export them). */
  pfx?: Buffer
  passphrase?: string
  /**
   * The server's certificate checked as Node's NODE_TLS_REJECT_UNAUTHORIZED says (0: not at all),
   * with --allow-insecure-http only; without it, always (lib/http/origin-tls.ts).
   */
  nodeDecidesCheck?: true
}

/**
 * The material of the run's handshakes with the origin (`originTls`): the user's files, and whether
 * NODE_TLS_REJECT_UNAUTHORIZED=0 may turn the check of the server's certificate off. A CI job that
 * sets it for the whole process (for a tool behind a TLS-inspecting proxy) sent the key to
 * whoever answered for the host, with Node's one warning line; it now takes --allow-insecure-http,
 * the flag that already says the key may go where it can be read.
 */
export function originMaterial(config: { tls?: ClientTls | undefined; allowInsecureHttp?: boolean }): TlsMaterial | undefined {
  return config.allowInsecureHttp ? { ...config.tls?.material, nodeDecidesCheck: true } : config.tls?.material
}

/** A certificate as a report shows it: nothing secret. */
export interface CertificateFacts {
  file: string
  /** Where its key was read: --client-key, or the certificate's own file. */
  keyFile: string
  /** 'pkcs12' for a .p12 or .pfx file (curl's --cert-type P12); absent for PEM. */
  format?: 'pkcs12'
  subject: string
  issuer: string
  validTo: string
  fingerprint256: string
}

/** The user's TLS settings: the files and the facts reports show, and (not enumerable: JSON and inspect leave it out) the material. */
export interface ClientTls {
  caCert?: { file: string; certificates: number }
  clientCertificate?: CertificateFacts
  readonly material: TlsMaterial
}

/** The files as given (relative to `cwd`), or undefined when none is. Throws ConfigError. */
export function readClientTls(files: { caCert?: string; clientCert?: string; clientKey?: string }, cwd: string, passphrase: string | undefined): ClientTls | undefined {
  const { caCert, clientCert, clientKey } = files
  if (caCert === undefined && clientCert === undefined && clientKey === undefined) return undefined
  if (clientKey !== undefined && clientCert === undefined) throw new ConfigError('--client-key needs --client-cert FILE: the certificate the key belongs to')
  const material: TlsMaterial = {}
  const tls: ClientTls = { material }
  Object.defineProperty(tls, 'material', { enumerable: false })
  if (caCert !== undefined) {
    const file = resolve(cwd, caCert)
    const pems = pemBlocks(readPem(file, '--ca-cert'), 'CERTIFICATE')
    if (pems.length === 0) throw new ConfigError(`--ca-cert ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`)
    pems.forEach((pem) => certificate(pem, file, '--ca-cert'))
    material.ca = [...pems, ...extraCasNodeForgets()]
    tls.caCert = { file, certificates: pems.length }
  }
  if (clientCert !== undefined) {
    const certFile = resolve(cwd, clientCert)
    const bytes = readBytes(certFile, '--client-cert')
    // an empty file (a secret not written, a heredoc gone wrong) is no PKCS#12 file that wants a passphrase
    if (bytes.length === 0) throw new ConfigError(`--client-cert ${certFile} is empty: give the PEM certificate (or PKCS#12 file) of the client`)
    // no PEM block at all: a PKCS#12 file, which holds the key with the certificate
    if (!bytes.includes('-----BEGIN ')) {
      if (clientKey !== undefined) throw new ConfigError(`--client-cert ${certFile} is a PKCS#12 file, which holds its key: leave out --client-key`)
      tls.clientCertificate = pkcs12(bytes, certFile, passphrase)
      material.pfx = bytes
      if (passphrase !== undefined) material.passphrase = passphrase
      return tls
    }
    const certText = bytes.toString('utf8')
    const chain = pemBlocks(certText, 'CERTIFICATE')
    if (chain.length === 0) throw new ConfigError(`--client-cert ${certFile} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`)
    const leaf = certificate(chain[0] as string, certFile, '--client-cert')
    // curl's --cert takes a file holding the key too; without --client-key, the key is looked for there
    const keyFile = clientKey === undefined ? certFile : resolve(cwd, clientKey)
    const keyText = clientKey === undefined ? certText : readPem(keyFile, '--client-key')
    const keyPem = pemBlocks(keyText, 'PRIVATE KEY')[0]
    if (keyPem === undefined) {
      throw new ConfigError(clientKey === undefined ? `--client-cert ${certFile} holds no private key: give it with --client-key FILE` : `--client-key ${keyFile} holds no PEM private key (-----BEGIN … PRIVATE KEY-----)`)
    }
    const key = privateKey(keyPem, keyFile, passphrase)
    if (!leaf.checkPrivateKey(key)) throw new ConfigError(`--client-key ${keyFile} is not the key of the certificate in --client-cert ${certFile} (${oneLine(leaf.subject)})`)
    material.cert = chain.join('\n')
    material.key = keyPem
    if (passphrase !== undefined) material.passphrase = passphrase
    tls.clientCertificate = { file: certFile, keyFile, ...namedBy(leaf) }
  }
  return tls
}

/** Why --ca-cert or --client-cert cannot be used with the base URL (plain http, or none: the embedded server speaks plain http), or undefined. */
export function tlsWithoutHttps(config: { tls?: ClientTls | undefined; baseUrl?: string | undefined }, embedded = false): string | undefined {
  if (!config.tls || (config.baseUrl === undefined && !embedded) || config.baseUrl?.startsWith('https:')) return undefined
  return `--ca-cert, --client-cert and --client-key are for an https:// base URL${config.baseUrl ? `, not ${new URL(config.baseUrl).protocol}//` : ' (the embedded server speaks plain http)'}`
}

/** The TLS settings in words, for the run's first lines and its reports: files, subject, issuer, expiry, fingerprint; nothing secret. */
export function tlsWords(tls: Pick<ClientTls, 'caCert' | 'clientCertificate'>): string {
  const parts: string[] = []
  const cert = tls.clientCertificate
  // a PKCS#12 file whose certificate Node could not read out is named by its file alone
  const named = cert?.fingerprint256 ? `${cert.subject} (issued by ${cert.issuer}, valid to ${cert.validTo.slice(0, 10)}, SHA-256 ${cert.fingerprint256}) ` : ''
  if (cert) parts.push(`client certificate ${named}from ${cert.format === 'pkcs12' ? 'the PKCS#12 file ' : ''}${cert.file}, presented only to the base URL's origin`)
  if (tls.caCert) parts.push(`the ${tls.caCert.certificates === 1 ? 'CA' : `${tls.caCert.certificates} CAs`} of ${tls.caCert.file} trusted beside the system's`)
  return `TLS: ${parts.join('; ')}`
}

/**
 * The CAs NODE_EXTRA_CA_CERTS added, where Node cannot give them back (before 22.15 and 23.5: no
 * tls.getCACertificates): `ca` replaces what Node trusts, and lib/http/origin-tls.ts can only add
 * the bundled CAs to it. Read from the process's environment, as Node read it at its start; a
 * file Node could not read either adds nothing (Node warned of it then).
 */
function extraCasNodeForgets(): string[] {
  const file = process.env.NODE_EXTRA_CA_CERTS
  if (!file || 'getCACertificates' in tlsModule) return []
  try {
    return pemBlocks(readUserBytes(file, PEM_MAX_BYTES).toString('utf8'), 'CERTIFICATE')
  } catch {
    return []
  }
}

function readPem(file: string, flag: string): string {
  return readBytes(file, flag).toString('utf8')
}

function readBytes(file: string, flag: string): Buffer {
  try {
    return readUserBytes(file, PEM_MAX_BYTES)
  } catch (error) {
    throw new ConfigError(`${flag} ${file} cannot be read: ${whyUnreadable(error)}`)
  }
}

/**
 * A PKCS#12 file opened as the handshakes will open it, and its certificate's facts. Node reads
 * no PKCS#12 but through a TLS context; the certificate comes from the context's own
 * getCertificate() (what TLSSocket.getCertificate() reads), and is named by file alone where a
 * version of Node has it not.
 */
function pkcs12(bytes: Buffer, file: string, passphrase: string | undefined): CertificateFacts {
  let context: { context?: { getCertificate?: () => Buffer | undefined } }
  try {
    context = createSecureContext({ pfx: bytes, ...(passphrase !== undefined ? { passphrase } : {}) }) as typeof context
  } catch {
    // OpenSSL says "mac verify failure" for a wrong or missing passphrase, and a file that is not PKCS#12 fails otherwise
    throw new ConfigError(passphrase === undefined ? `--client-cert ${file} is neither PEM nor a PKCS#12 file that opens without a passphrase: give its passphrase in ${PASSPHRASE_VARIABLE}` : `--client-cert ${file} is neither PEM nor a PKCS#12 file that the passphrase in ${PASSPHRASE_VARIABLE} opens`)
  }
  const der = context.context?.getCertificate?.()
  const facts = { file, keyFile: file, format: 'pkcs12' as const }
  return der ? { ...facts, ...namedBy(new X509Certificate(der)) } : { ...facts, subject: '(not read)', issuer: '(not read)', validTo: '', fingerprint256: '' }
}

/** What names a certificate in the reports: subject, issuer, expiry, SHA-256 fingerprint. */
const namedBy = (leaf: X509Certificate): Pick<CertificateFacts, 'subject' | 'issuer' | 'validTo' | 'fingerprint256'> => ({
  subject: oneLine(leaf.subject),
  issuer: oneLine(leaf.issuer),
  validTo: new Date(leaf.validTo).toISOString(),
  fingerprint256: leaf.fingerprint256,
})

/** The PEM blocks of a kind in a text (`PRIVATE KEY` matches RSA, EC and ENCRYPTED ones too). */
function pemBlocks(text: string, kind: 'CERTIFICATE' | 'PRIVATE KEY'): string[] {
  const label = kind === 'CERTIFICATE' ? 'CERTIFICATE' : '(?:RSA |EC |ENCRYPTED )?PRIVATE KEY'
  return [...text.matchAll(new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----`, 'g'))].map((m) => `${m[0]}\n`)
}

function certificate(pem: string, file: string, flag: string): X509Certificate {
  try {
    return new X509Certificate(pem)
  } catch {
    throw new ConfigError(`${flag} ${file} holds a certificate that does not parse`)
  }
}

function privateKey(pem: string, file: string, passphrase: string | undefined): KeyObject {
  const encrypted = /ENCRYPTED/.test(pem.slice(0, 40)) || /Proc-Type: 4,ENCRYPTED/.test(pem)
  if (encrypted && passphrase === undefined) throw new ConfigError(`the key in ${file} is encrypted: give its passphrase in ${PASSPHRASE_VARIABLE}`)
  try {
    return createPrivateKey(passphrase === undefined ? pem : { key: pem, passphrase })
  } catch {
    // OpenSSL's words may say which step failed; they never hold the passphrase, but nothing of them is needed
    throw new ConfigError(encrypted ? `the key in ${file} cannot be decrypted with the passphrase in ${PASSPHRASE_VARIABLE}` : `the key in ${file} does not parse`)
  }
}

const oneLine = (name: string) => name.split('\n').join(', ')
