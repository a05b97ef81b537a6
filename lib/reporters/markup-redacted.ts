/**
 * report.html, junit.xml and fleet.html redacted whole, as every report is, but never in their own
 * markup. A key that is a piece of markup (`</td><td>`, `</testcase>`, whose letters `testcase`
 * every `<testcase` holds) or of an escape (`lt;script`, which the escaped `<script>` of a server's
 * page holds) was hidden in the file's tags or cut a character reference in two: report.html lost
 * its tables, and junit.xml, `<[REDACTED] classname=…`, was no XML a CI could read, which loses the
 * gate's result (securehunt13). The result's texts were redacted before they were written
 * (redactedResult); the whole pass is one more look, and where it changed a tag or cut a
 * reference, the text between the tags and each attribute value is redacted instead, as the text
 * it holds (its references read), then written again: the page's markup is the page's, no echo.
 */
import { referencedLogCommands } from './ci-log-commands.ts'

const TAG = /<[^<>]*>/g
/** A character reference: named, decimal or hexadecimal. */
const REFERENCE = /&(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);/g
/** An & that starts no reference (a redaction that cut one). */
const BARE_AMPERSAND = /&(?![A-Za-z][A-Za-z0-9]*;|#[0-9]+;|#[xX][0-9a-fA-F]+;)/g

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** `text` (markup) with its references read: the five of XML, and every numeric one. Others (`&nbsp;`) are left as written. */
function referencesRead(text: string): string {
  if (!text.includes('&')) return text
  return text.replace(REFERENCE, (ref) => {
    if (ref[1] !== '#') return NAMED[ref.slice(1, -1)] ?? ref
    const code = ref[2] === 'x' || ref[2] === 'X' ? parseInt(ref.slice(3, -1), 16) : parseInt(ref.slice(2, -1), 10)
    return code <= 0x10ffff ? String.fromCodePoint(code) : ref
  })
}

/** Text written as markup again: the five markup characters and every character past printable ASCII (but line feed and tab) as references, a log command's first character too. */
function markupWritten(text: string): string {
  return referencedLogCommands(
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
      .replace(/[^\x20-\x7e\n\t]/gu, (c) => `&#${c.codePointAt(0)};`),
  )
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0

/** Whether `after` (`before` redacted) has every tag of `before` as it was, and cut no reference. */
function sameMarkup(before: string, after: string): boolean {
  const [tags, kept] = [before.match(TAG) ?? [], after.match(TAG) ?? []]
  return tags.length === kept.length && tags.every((tag, i) => tag === kept[i]) && count(after, BARE_AMPERSAND) === count(before, BARE_AMPERSAND)
}

/** A stretch of markup text (between tags, or an attribute value) redacted as the text it holds, else as it is written where that cuts no reference. */
function stretchRedacted(stretch: string, redact: (text: string) => string): string {
  const text = referencesRead(stretch)
  const hidden = redact(text)
  if (hidden !== text) return markupWritten(hidden)
  // a form the text holds only escaped (the references of its every character), where no reference is cut
  const written = redact(stretch)
  return written !== stretch && count(written, BARE_AMPERSAND) === count(stretch, BARE_AMPERSAND) ? written : stretch
}

/** `text` (HTML or XML, as the reporters write it) redacted whole where that keeps its markup, else between its tags and in its attribute values. */
export function redactedMarkupText(text: string, redact: (text: string) => string): string {
  const whole = redact(text)
  if (whole === text || sameMarkup(text, whole)) return whole
  let out = ''
  let at = 0
  TAG.lastIndex = 0
  for (let m = TAG.exec(text); m !== null; m = TAG.exec(text)) {
    out += stretchRedacted(text.slice(at, m.index), redact)
    // a tag's name and its attributes' names are the page's; their values may quote a server
    out += m[0].replace(/(=\s*)(?:"([^"]*)"|'([^']*)')/g, (_, eq: string, double?: string, single?: string) => (double !== undefined ? `${eq}"${stretchRedacted(double, redact)}"` : `${eq}'${stretchRedacted(single!, redact)}'`))
    at = m.index + m[0].length
  }
  return out + stretchRedacted(text.slice(at), redact)
}
