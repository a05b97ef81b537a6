/**
 * Mutations where a value is read as a pattern of some language, not as text: a name put into a
 * regular expression (a case-insensitive uniqueness lookup), into a format pattern with braces
 * (java.text.MessageFormat, .NET's string.Format, Python's str.format), and a body tokenized by a
 * scanner that takes a quote after a backslash for an escaped one. Each passes every value that
 * holds none of the pattern's own characters in the form that breaks it: an unclosed parenthesis,
 * bracket or brace, and a value that ends in a backslash (suites/cases/valid-creates.ts sends them).
 */
import { conformingBehaviour, type Behaviour } from '../reference-server.ts'
import { errorReply, type Mutation } from '../server-cases.ts'
import { columnLimits } from '../variants/inputs.ts'

/** A name looked up as a regular expression (name-looked-up-as-regular-expression) once it fits `limit` characters. */
const regexLookupWithin = (limit: number): Pick<Behaviour, 'validate'> => ({
  validate(body) {
    const problem = columnLimits(limit, Number.POSITIVE_INFINITY).validate!(body)
    if (problem !== null) return problem
    new RegExp(`^${(body as { name: string }).name}$`, 'i')
    return null
  },
})

/** What Java's MessageFormat refuses: a brace that opens no argument index closed by its brace, outside quotes (a pair of apostrophes quotes what is between them). */
function messageFormatRefuses(pattern: string): boolean {
  let quoted = false
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]
    if (c === "'") {
      if (pattern[i + 1] === "'") i++
      else quoted = !quoted
    } else if (!quoted && c === '{') {
      const element = /^\{\s*\d+\s*(,[^{}]*)?\}/.exec(pattern.slice(i))
      if (!element) return true
      i += element[0].length - 1
    }
  }
  return false
}

/** A string's closing quote after an even run of backslashes: the last is escaped, the quote is not. */
const QUOTE_AFTER_ESCAPED_BACKSLASH = /(?<!\\)(?:\\\\)+"/

export const TEXT_AS_PATTERN_MUTATIONS: readonly Mutation[] = [
  {
    name: 'name-looked-up-as-regular-expression',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      "names are kept unique regardless of case by a lookup with a regular expression built of the name (Mongoose's Category.findOne({ name: new RegExp(`^${name}$`, 'i') }), " +
      "the common answer to a case-insensitive query in MongoDB): a name with an unclosed ( or [, or that ends in a backslash, makes an invalid expression, which throws (SyntaxError), answered 500",
    behaviour: {
      validate(body) {
        const name = (body as { name?: unknown } | null)?.name
        if (typeof name === 'string') new RegExp(`^${name}$`, 'i')
        return conformingBehaviour.validate(body)
      },
    },
  },
  {
    name: 'name-in-message-format-pattern',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      'the create is logged with MessageFormat.format("category " + name + " created with id {0}", id) after the record is stored (a message of a ResourceBundle built with the name, as .NET\'s ' +
      "string.Format and Python's str.format are): a name holding a brace that opens no argument index ({ alone, {x}) throws IllegalArgumentException (can't parse argument number), answered 500",
    behaviour: {
      finish: (reply, request, store) =>
        request.operation === 'createCategory' && reply.status === 201 && messageFormatRefuses(`category ${store[store.length - 1]?.name ?? ''} created with id {0}`)
          ? errorReply(500, 'internal', 'internal error')
          : reply,
    },
  },
  {
    name: 'quote-after-backslash-read-as-escaped',
    breaks: 'create-returns-201',
    code: 'REFUSED_FOR_CONTENT',
    description:
      "the body is read by a tokenizer written by hand that ends a string at a quote not preceded by a backslash (if (c == '\"' && prev != '\\\\')), never counting the backslashes before it: " +
      'a value that ends in a backslash ("C:\\\\") runs on past its closing quote, and the body is refused with 400',
    behaviour: {
      parseBody(text) {
        if (QUOTE_AFTER_ESCAPED_BACKSLASH.test(text)) throw new SyntaxError('unterminated string')
        return JSON.parse(text) as unknown
      },
    },
  },
  {
    // caught by create-json-escapes' short form: the long name (130 characters) is refused for its
    // length, and the short one carried none of ( [ { until it ended in them
    name: 'name-regex-lookup-behind-maxlength-64',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      "names are at most 64 characters (a Mongoose schema's maxlength: 64, refused with 400) and kept unique regardless of case by a lookup with a regular expression built of the name " +
      "(Category.findOne({ name: new RegExp(`^${name}$`, 'i') })): a name that fits and holds an unclosed ( or [, or ends in a backslash, throws (SyntaxError), answered 500",
    behaviour: regexLookupWithin(64),
  },
  {
    name: 'name-regex-lookup-behind-varchar-32',
    breaks: 'create-returns-201',
    code: 'SERVER_ERROR',
    description:
      'a VARCHAR(32) name (longer ones refused with 400) kept unique regardless of case by a lookup with a regular expression built of the name (a REGEXP query, or a filter in the service): ' +
      'a name that fits and holds an unclosed ( or [, or ends in a backslash, makes an invalid expression, answered 500',
    behaviour: regexLookupWithin(32),
  },
]
