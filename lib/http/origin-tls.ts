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

export function originTls(material: TlsMaterial | undefined): { rejectUnauthorized?: true; ca?: string[]; cert?: string; key?: string; pfx?: Buffer; passphrase?: string } {
  // the certificate checked whatever NODE_TLS_REJECT_UNAUTHORIZED says, unless the user allowed it (originMaterial)
  const check = material?.nodeDecidesCheck ? {} : { rejectUnauthorized: true as const }
  if (material === undefined) return check
  return {
    ...check,
    ...(material.ca ? { ca: [...defaultCas(), ...material.ca] } : {}),
    ...(material.cert !== undefined && material.key !== undefined ? { cert: material.cert, key: material.key } : {}),
    ...(material.pfx !== undefined ? { pfx: material.pfx } : {}),
    ...(material.passphrase !== undefined ? { passphrase: material.passphrase } : {}),
  }
}
