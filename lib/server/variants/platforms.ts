/**
 * A conforming service behind a platform's front (or a server refusing what it cannot read), as measured against emulations of them
 * (docs/adoption.md, "Behind AWS API Gateway, Envoy, Kong, Cloudflare or Cloud Run"): the
 * headers the front adds and renames kept. The suite must pass it.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { Variant } from '../server-cases.ts'

/** A request whose Authorization holds a character outside ASCII (suites/cases/credentials.ts's token-outside-ascii). */
const outsideAscii = (authorization: string | undefined) => /[^\x00-\x7f]/.test(authorization ?? '')

/** The headers of a reply that goes unanswered: its connection closed instead. */
const CLOSED: Readonly<Record<string, string>> = { 'x-reference-closed': '1' }

/** nginx's own page for a status it answers itself (a refusal in front of the service, a gateway's 502). */
const nginxPage = (status: number, reason: string) => ({
  status,
  headers: { 'content-type': 'text/html', server: 'nginx' },
  body: `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
})

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
      finish: (reply, request) => (outsideAscii(request.authorization) ? { status: 400, headers: { 'content-type': '' }, body: '' } : reply),
    },
  },
  {
    name: 'header-outside-ascii-refused-403',
    description:
      "ModSecurity's OWASP Core Rule Set at paranoia level 3 in front of the service, in nginx: rule 920272 allows only the bytes 32-36 and 38-126 in a request's headers (CRITICAL, " +
      "the inbound anomaly threshold at once), so a header value outside ASCII is answered 403 with nginx's page before the service sees it; RFC 9110 §5.5 lets a field value hold such bytes",
    behaviour: {
      finish: (reply, request) =>
        outsideAscii(request.authorization)
          ? nginxPage(403, 'Forbidden')
          : reply,
    },
  },
  {
    name: 'header-outside-ascii-gateway-502',
    description:
      "a gateway in front of an HTTP server that closes the connection, unanswered, on a header byte outside ASCII (FusionAuth's java-http did, FusionAuth/fusionauth-issues#2774): " +
      "the gateway answers 502 with a page of its own (nginx's here); the service behind never saw the request",
    behaviour: {
      finish: (reply, request) =>
        outsideAscii(request.authorization)
          ? nginxPage(502, 'Bad Gateway')
          : reply,
    },
  },
  {
    name: 'header-outside-ascii-connection-closed',
    description:
      "an HTTP server that closes the connection without an answer on a header byte outside ASCII, as FusionAuth's java-http did (FusionAuth/fusionauth-issues#2774): " +
      'the service never saw the request; RFC 9110 §5.5 lets a field value hold such bytes, which the document does not mention',
    behaviour: {
      finish: (reply, request) => (outsideAscii(request.authorization) ? { status: 400, headers: CLOSED, body: '' } : reply),
      transport: { delayMs: 0, chunked: false, connectionClose: false, dropAnswer: (reply) => reply.headers === CLOSED },
    },
  },
]
