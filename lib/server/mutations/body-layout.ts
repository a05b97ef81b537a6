/**
 * Mutations that only the layout of a valid body catches: JSON that its readers' own clients never
 * write. JSON.stringify writes no whitespace between tokens and the keys in the order they were
 * set (name first, as NewCategory declares them), so a reader written for that text passes every
 * body the suite sent, unless one is written as other clients write it (Python's json.dumps puts a
 * space after each colon and comma; a dict or a map may hold description before name). RFC 8259 §2
 * allows whitespace around every structural character, and §4 makes an object an unordered
 * collection of members. suites/cases/valid-creates.ts says which create is written so.
 */
import { conformingBehaviour } from '../reference-server.ts'
import type { Mutation } from '../server-cases.ts'

/** Whitespace between JSON tokens, outside strings. */
function spacedOutsideStrings(text: string): boolean {
  return /[ \t\r\n]/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""').trim())
}

export const BODY_LAYOUT_MUTATIONS: readonly Mutation[] = [
  {
    name: 'compact-json-only',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'the body is read with regular expressions written for compact JSON ("name":"…", nothing between a colon and its value), as readers written by hand in a shell CGI, ' +
      "an nginx Lua handler or a C service's sscanf do: a valid body with a space after a colon or a comma (Python's json.dumps, Jackson's pretty printer, any JSON formatted for reading) reads as no name and is refused with 400",
    behaviour: {
      parseBody(text) {
        if (spacedOutsideStrings(text)) throw new SyntaxError('no "name":"…" in the body')
        return JSON.parse(text) as unknown
      },
    },
  },
  {
    name: 'tab-and-carriage-return-not-skipped',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description:
      "the body is read by a tokenizer written by hand that skips spaces and line feeds between tokens and nothing else (while (c == ' ' || c == '\\n')), as bodies written on Unix have them: " +
      'a body indented with tabs and ended with CRLF, as a body file written on Windows is, is refused with 400, though RFC 8259 §2 counts the tab and the carriage return as whitespace',
    behaviour: {
      parseBody(text) {
        if (/[\t\r]/.test(text.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) throw new SyntaxError('unexpected character between tokens')
        return JSON.parse(text) as unknown
      },
    },
  },
  {
    name: 'whitespace-after-the-value-refused',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      'the body is read by a parser written by hand that refuses anything after the value, whitespace too (it checks that it stopped at the end of the text without skipping whitespace first): ' +
      'a body that ends in a line break, as a file ends (curl --data-binary @body.json), is refused with 400, though RFC 8259 §2 allows whitespace after the value',
    behaviour: {
      parseBody(text) {
        if (/[ \t\r\n]$/.test(text)) throw new SyntaxError('unexpected text after the value')
        return JSON.parse(text) as unknown
      },
    },
  },
  {
    name: 'whitespace-before-the-value-refused',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      "the body is checked to be an object by its first character before it is parsed (if (text[0] !== '{') answer 400 \"the body must be a JSON object\"), whitespace not skipped: " +
      'a body that begins with a line break, as one written in a template literal, a triple-quoted string or a heredoc does, is refused with 400, though RFC 8259 §2 allows whitespace before the value',
    behaviour: {
      parseBody(text) {
        if (!text.startsWith('{')) throw new SyntaxError('the body must be a JSON object')
        return JSON.parse(text) as unknown
      },
    },
  },
  {
    name: 'body-read-as-its-first-line',
    breaks: 'create-returns-201',
    code: 'UNEXPECTED_STATUS',
    description:
      "the body is read with one readLine() (Java's request.getReader().readLine(), a servlet's classic shortcut): a body written on one line passes, " +
      'one written over several (indented, as Python\'s json.dumps(indent=2), JSON.stringify(body, null, 2) and jq write it) is read as "{" and refused with 400',
    behaviour: {
      decodeBody: (bytes, pieces) => conformingBehaviour.decodeBody(bytes, pieces).split(/\r\n|\r|\n/)[0] as string,
    },
  },
  {
    name: 'fields-bound-in-body-order',
    breaks: 'create-echoes-fields',
    code: 'FIELD_CHANGED',
    description:
      "the body's values are bound to the columns in the order its keys came, once the fields NewCategory does not name are stripped: " +
      "db.run('INSERT INTO categories (name, description) VALUES (?, ?)', Object.values(body)) after a validator's stripUnknown or whitelist; " +
      'a body that sends description before name (a Python dict, a map in any order: RFC 8259 §4, an object is unordered) is stored with the two swapped',
    behaviour: {
      toRecord(body, id) {
        const values = Object.keys(body).filter((key) => key === 'name' || key === 'description').map((key) => (body as Record<string, string>)[key])
        return { id, name: values[0], ...(values[1] !== undefined ? { description: values[1] } : {}) }
      },
    },
  },
]
