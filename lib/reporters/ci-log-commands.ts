/**
 * Log commands that CI systems read anywhere in a line of a step's output: the Azure Pipelines
 * agent acts on `##vso[` wherever it stands in a line of stdout or stderr (task.setvariable,
 * task.prependpath, task.complete …), TeamCity on `##teamcity[`, and GitHub's runner on its older
 * form `##[command]` (ActionCommand.TryParse looks for `##[` anywhere in the line, then takes a
 * registered command: error, add-mask, set-output, save-state …), which its ::stop-commands::
 * (github-actions.ts) holds off only between its two lines, not in a line printed outside them
 * (stderr's one line of a run not made, a step that prints a report file, a service's own vitest).
 * The terminal quotes server text (a record's name, an error message, a header), so a server could
 * set a pipeline's variables through it. Every text the command line writes goes through
 * inertLogCommands: the first `#` of each such prefix is written as its code-point marker,
 * ⟨U+0023⟩, the way visible-text.ts writes a character that would act instead of being read.
 */
import { LOG_COMMAND } from '../json/portable-json.ts'

/** `text` with no `##vso[`, `##teamcity[` or `##[` left in it, in any case. */
export function inertLogCommands(text: string): string {
  return text.includes('#') ? text.replace(LOG_COMMAND, '⟨U+0023⟩') : text
}

/**
 * A line that starts with `::`, after any blanks: a GitHub workflow command, printed. Its runner
 * trims every Unicode space first (.NET's TrimStart: NBSP, U+2003, U+3000, NEL …), which a junit.xml
 * text keeps as it is.
 */
const WORKFLOW_COMMAND = /(^|\n)((?:[^\S\n]|\u0085)*):(?=:)/g

/**
 * Markup text (junit.xml, report.html) with the first character of every log command as a
 * character reference: `##vso[` as `&#35;#vso[` (`##[` as `&#35;#[`), and a line that starts with `::` as `&#58;:`.
 * The parsed text is what the server sent (a CI test tab shows it), and the file, printed or
 * opened as text (a step that cats junit.xml), holds no command. `text` is markup already.
 */
export function referencedLogCommands(text: string): string {
  if (!text.includes('#') && !text.includes('::')) return text
  return text.replace(LOG_COMMAND, '&#35;').replace(WORKFLOW_COMMAND, '$1$2&#58;')
}

