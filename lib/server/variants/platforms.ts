/**
 * A conforming service behind a platform's front (or a server refusing what it cannot read), as measured against emulations of them
 * (docs/adoption.md, "Behind AWS API Gateway, Envoy, Kong, Cloudflare or Cloud Run"): the
 * headers the front adds and renames kept. The suite must pass it.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { Variant } from '../server-cases.ts'

export const PLATFORM_VARIANTS: readonly Variant[] = [
  {
    name: 'aws-api-gateway-lambda-proxy',
    description:
      "a Lambda function behind an AWS API Gateway REST API (stage v1, {proxy+}, Lambda proxy integration): the gateway renames the function's WWW-Authenticate " +
      'to x-amzn-Remapped-WWW-Authenticate (and Server, Date, Connection alike), adds x-amzn-RequestId, x-amz-apigw-id and X-Amzn-Trace-Id, and answers with a Content-Length',
    behaviour: {
      finish: (reply) => {
        const { 'www-authenticate': challenge, ...headers } = reply.headers
        const renamed: Record<string, string | string[]> = typeof challenge === 'string' && challenge !== '' ? { 'x-amzn-remapped-www-authenticate': challenge } : {}
        const trace = `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomBytes(12).toString('hex')}`
        return { ...reply, headers: { ...headers, ...renamed, 'x-amzn-requestid': randomUUID(), 'x-amz-apigw-id': `${randomBytes(6).toString('base64')}=`, 'x-amzn-trace-id': trace } }
      },
    },
  },
  {
    name: 'header-outside-ascii-refused-400',
    description:
      "ASP.NET Core's Kestrel as it comes: a request whose header value holds a character outside ASCII is answered 400 with no body before the service sees it " +
      '(Content-Length: 0, dotnet/aspnetcore#61189; RequestHeaderEncodingSelector unset); RFC 9110 §5.5 lets a field value hold such bytes, so the key is judged only where the service read it',
    behaviour: {
      finish: (reply, request) => (/[^\x00-\x7f]/.test(request.authorization ?? '') ? { status: 400, headers: { 'content-type': '' }, body: '' } : reply),
    },
  },
]
