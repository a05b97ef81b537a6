/**
 * The options of a TLS handshake with the base URL's origin from the user's files
 * (lib/config/client-tls.ts), for the client's connections and the preflight's alike. Node's `ca`
 * replaces the trusted CAs; --ca-cert adds to them, as NODE_EXTRA_CA_CERTS does, so the CAs Node
 * trusts by default (and, where Node can say, those NODE_EXTRA_CA_CERTS added) come first.
 */
import * as tls from 'node:tls'
import type { TlsMaterial } from '../config/client-tls.ts'

/** Node 22.15 and 23.5 give the CAs Node trusts, NODE_EXTRA_CA_CERTS included; Node 20 only its bundled ones. */
const defaultCas = (): readonly string[] => (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates?.('default') ?? tls.rootCertificates

/** Whether the material holds a client certificate (PEM or PKCS#12). */
export const hasClientCertificate = (material: TlsMaterial | undefined): boolean => material?.cert !== undefined || material?.pfx !== undefined

type OriginTls = { rejectUnauthorized?: true; ca?: string[]; cert?: string; key?: string; pfx?: Buffer; passphrase?: string; secureContext?: tls.SecureContext }

/**
 * One secure context for the run's material: given as options, every connection made its own, reading the ~140 CAs Node
 * trusts and the user's beside them, the key (its passphrase's derivation for an encrypted one, PKCS#12's for a .p12)
 * again; about 50 ms of CPU a handshake (measured), and a run with a client certificate (no session resumed) took 4 to 6 times as
 * long as one without (hostile12: test/hostile/mutual-tls.test.ts timed out at 120 s under load).
 */
const contexts = new WeakMap<TlsMaterial, OriginTls>()

export function originTls(material: TlsMaterial | undefined): OriginTls {
  // the certificate checked whatever NODE_TLS_REJECT_UNAUTHORIZED says, unless the user allowed it (originMaterial)
  const check = material?.nodeDecidesCheck ? {} : { rejectUnauthorized: true as const }
  if (material === undefined) return check
  const made = contexts.get(material)
  if (made) return made
  const options = {
    ...(material.ca ? { ca: [...defaultCas(), ...material.ca] } : {}),
    ...(material.cert !== undefined && material.key !== undefined ? { cert: material.cert, key: material.key } : {}),
    ...(material.pfx !== undefined ? { pfx: material.pfx } : {}),
    ...(material.passphrase !== undefined ? { passphrase: material.passphrase } : {}),
  }
  let once: OriginTls
  try {
    once = Object.keys(options).length === 0 ? check : { ...check, secureContext: tls.createSecureContext(options) }
  } catch {
    // material Node refuses (lib/runner/client-certificate.ts names it before any request): each handshake fails as it did
    once = { ...check, ...options }
  }
  contexts.set(material, once)
  return once
}
