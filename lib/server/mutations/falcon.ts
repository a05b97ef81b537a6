/**
 * Mutations written as a Python service on Falcon 3.1 gets them wrong with its defaults (measured
 * on Debian 12's python3-falcon 3.1.1 under gunicorn): the default error serializer.
 */
import type { Mutation } from '../server-cases.ts'

/** Falcon's to_xml: the error's title and description, whatever to_dict gives the JSON. */
const falconXml = (status: number) =>
  `<?xml version="1.0" encoding="UTF-8"?><error><title>${status === 401 ? 'Unauthorized' : 'Error'}</title><description>The API key is missing or invalid.</description></error>`

/** A client that prefers XML to JSON, as mimeparse weighs it: application/xml with a q above the one that JSON, application/\* or any type gets. */
function prefersXml(accept: string | undefined): boolean {
  if (accept === undefined) return false
  const q = (pattern: RegExp) => {
    const entry = accept.split(',').map((e) => e.trim()).find((e) => pattern.test(e.split(';')[0]!.trim()))
    if (entry === undefined) return undefined
    const weight = /;\s*q=([0-9.]+)/.exec(entry)?.[1]
    return weight === undefined ? 1 : Number(weight)
  }
  const xml = q(/^(application|text)\/xml$/i)
  const json = q(/^application\/json$/i) ?? q(/^application\/\*$/i) ?? q(/^\*\/\*$/)
  return xml !== undefined && xml > (json ?? 0)
}

export const FALCON_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the list asked for with no key and a browser's Accept (suites/areas/authentication.ts)
    name: 'xml-errors-when-xml-preferred',
    breaks: 'json-content-type',
    code: 'WRONG_CONTENT_TYPE',
    description:
      "errors go through Falcon's default error serializer, with their JSON made the Error record (HTTPError.to_dict): it negotiates, and a client that prefers " +
      "application/xml, as a browser's Accept does (application/xml;q=0.9 over any type at q=0.8), gets HTTPError.to_xml(), which reads no to_dict",
    behaviour: {
      finish: (reply, request) =>
        reply.status >= 400 && prefersXml(request.accept)
          ? { status: reply.status, headers: { ...reply.headers, 'content-type': 'application/xml', vary: 'Accept' }, body: falconXml(reply.status) }
          : reply,
    },
  },
]
