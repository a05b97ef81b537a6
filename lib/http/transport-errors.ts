/**
 * One classifier of network errors, shared by the HTTP client (lib/http/client.ts) and the
 * preflight handshake (lib/runner/preflight.ts), so a refused connection or an untrusted
 * certificate is named the same way wherever it happens. It matches on error codes (Node's errno
 * names and undici's UND_ERR_*), never on message text, as undici's documentation asks.
 */
import { errors as undiciErrors } from 'undici'
import type { TransportErrorCode } from './exchange.ts'

export interface ClassifiedError {
  code: TransportErrorCode
  /** The code the error carried (ECONNREFUSED, UND_ERR_SOCKET …), '' when none. */
  errno: string
  /** The error's own words, for the detail in brackets (not yet redacted). */
  detail: string
}

/** Why a run's request was aborted: the request's own --timeout, or the run's --deadline. */
export class RunDeadlineReached extends Error {
  readonly code = 'DEADLINE'
  constructor() {
    super("the run's deadline (--deadline) passed")
    this.name = 'RunDeadlineReached'
  }
}

export function isTlsErrno(errno: string, message = ''): boolean {
  return /^ERR_TLS|^CERT_|SELF_SIGNED|^UNABLE_TO|HOSTNAME|^DEPTH_ZERO/.test(errno) || /certificate/i.test(message)
}

export function classifyNetworkError(error: unknown): ClassifiedError {
  const err = error as { code?: string; message?: string; cause?: { code?: string; message?: string } }
  const errno = err?.code ?? err?.cause?.code ?? ''
  const detail = err?.cause?.message ?? err?.message ?? String(error)
  const is = (code: TransportErrorCode): ClassifiedError => ({ code, errno, detail })
  if (error instanceof undiciErrors.ResponseExceededMaxSizeError || errno === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return is('RESPONSE_TOO_LARGE')
  if (errno === 'ETIMEDOUT' || errno === 'UND_ERR_CONNECT_TIMEOUT' || errno === 'UND_ERR_HEADERS_TIMEOUT' || errno === 'UND_ERR_BODY_TIMEOUT') return is('TIMEOUT')
  if (errno === 'ECONNREFUSED') return is('CONNECTION_REFUSED')
  if (errno === 'ECONNRESET' || errno === 'UND_ERR_SOCKET' || errno === 'EPIPE' || errno === 'UND_ERR_CLOSED') return is('CONNECTION_RESET')
  if (errno === 'ENOTFOUND' || errno === 'EAI_AGAIN') return is('DNS_FAILURE')
  if (isTlsErrno(errno, detail)) return is('TLS_FAILURE')
  // undici's parser errors do not always carry an HPE_ code (a reply that is not HTTP at all)
  if (error instanceof undiciErrors.HTTPParserError || errno.startsWith('HPE_') || errno === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH' || errno === 'UND_ERR_INFO')
    return is('PROTOCOL_ERROR')
  if (errno.startsWith('Z_') || errno === 'ERR_BROTLI' || errno === 'ERR__ERROR_FORMAT_PADDING_1') return is('UNDECODABLE_BODY')
  return is('NETWORK_ERROR')
}
