/** Credentials that must be refused with 401 (§5.2, §5.3). */
import { KEY_PLACEHOLDER } from '../../lib/http/redact.ts'

export interface CredentialCase {
  key: string
  label: string
  rule: 'auth-missing-key-401' | 'auth-invalid-key-401'
  /** The Authorization header, or undefined for none; $CONFORM_API_KEY stands for the real key. */
  authorization: (runId: string) => string | undefined
}

export const VALID_AUTHORIZATION = `Bearer ${KEY_PLACEHOLDER}`

export const CREDENTIAL_CASES: readonly CredentialCase[] = [
  { key: 'no-header', label: 'no Authorization header', rule: 'auth-missing-key-401', authorization: () => undefined },
  { key: 'empty-token', label: 'an empty bearer token', rule: 'auth-missing-key-401', authorization: () => 'Bearer ' },
  { key: 'wrong-key', label: 'a wrong key', rule: 'auth-invalid-key-401', authorization: (runId) => `Bearer conform-${runId}-not-a-key` },
  { key: 'basic-scheme', label: 'the key under the Basic scheme', rule: 'auth-invalid-key-401', authorization: () => `Basic ${KEY_PLACEHOLDER}` },
  { key: 'no-scheme', label: 'the key without a scheme', rule: 'auth-invalid-key-401', authorization: () => KEY_PLACEHOLDER },
]
