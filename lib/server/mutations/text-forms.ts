/**
 * Mutations that only forms of JSON text and characters no other case sends catch: a key written
 * with an escape, which a reader that matches keys as written misses, and tag characters, which a
 * filter strips (create-echoes-fields). suites/cases/valid-creates.ts sends each; docs/inputs.md
 * says which create.
 */
import type { Mutation } from '../server-cases.ts'
import { CHANGED, storedAs } from './inputs.ts'

export const TEXT_FORM_MUTATIONS: readonly Mutation[] = [
  {
    // caught by the create whose description key goes out escaped (create-json-escapes: "descr\u0069ption")
    name: 'escaped-keys-read-as-written',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      'object keys are matched as written, escapes and all (simdjson On-Demand compares raw keys; so do regex-based readers): "descr\\u0069ption" is not taken for description (RFC 8259 §8.3 compares names once unescaped), so the record is stored without it',
    // every string token in turn (a value's quotes and colons stay inside it); a key with an escape keeps its backslashes
    behaviour: { parseBody: (text) => JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"(\s*:)?/g, (token, colon?: string) => (colon && token.includes('\\') ? token.replaceAll('\\', '\\\\') : token))) as unknown },
  },
  {
    // caught by create-unicode's description: a flag of a subdivision (🏴 and tag characters), and a cancel tag in its short form
    name: 'tag-characters-stripped',
    ...CHANGED,
    description:
      "Unicode tag characters (U+E0000 to U+E007F) are stripped, as filters against ASCII smuggling (instructions hidden from the reader in tags) do: the flags of Scotland, Wales and England lose their tags and read as a black flag",
    behaviour: storedAs((text) => text.replace(/[\u{e0000}-\u{e007f}]/gu, '')),
  },
]
