/**
 * Text into report.html, and the small pieces its sections share. Everything a server sent is hostile: markup characters are escaped, and
 * invisible, control and bidi characters are written as the markers of visible-text.ts, so the
 * page shows what was sent and nothing in it can act as markup or reorder what a reader sees.
 */
import type { Status } from '../result/run-result.ts'
import { legendOf, plain, valuePieces, visiblePieces, type Piece } from './visible-text.ts'
import { referencedLogCommands } from './ci-log-commands.ts'

/** Escapes the five markup characters, for content and quoted attributes alike. */
function markup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** Any text for HTML content or a quoted attribute; line feeds and tabs are kept for a <pre>. */
export function escapeHtml(text: string): string {
  return referencedLogCommands(markup(plain(visiblePieces(String(text), 'keep'))))
}

/** Pieces as HTML: a run of markers of one kind set apart in one styled span that names what it stands for. */
function piecesHtml(pieces: readonly Piece[]): string {
  const runs: Piece[] = []
  for (const piece of pieces) {
    const last = runs[runs.length - 1]
    if (piece.legend && last?.legend === piece.legend && piece.text !== '↵') last.text += piece.text
    else runs.push({ ...piece })
  }
  const html = runs
    .map((run) => {
      if (!run.legend) return markup(run.text)
      const span = `<span class="mark" title="${markup(run.legend)}">${markup(run.text)}</span>`
      // a line feed stays a line break as well as a marker, so that a multi-line value keeps its shape
      return run.text === '↵' ? `${span}\n` : span
    })
    .join('')
  return referencedLogCommands(html)
}

/** A failure's message, expected or actual value: every invisible character and easily missed space marked. */
export function htmlValue(text: string): string {
  return piecesHtml(valuePieces(text))
}

/** What the markers in some failure values stand for, as a line under them; empty when there is none. */
export function htmlLegend(values: readonly string[]): string {
  const entries = legendOf(values.flatMap((value) => valuePieces(value)))
  if (entries.length === 0) return ''
  const items = entries.map((entry) => `<span class="mark">${markup(entry.marker)}</span> ${markup(entry.meaning)}`)
  return `<p class="legend">Shown by a marker: ${items.join('; ')}.</p>`
}

const STATUS_LABEL: Record<Status, string> = { pass: 'PASS', fail: 'FAIL', skip: 'NOT VERIFIED', warn: 'ADVISORY' }

export function badge(status: Status): string {
  return `<span class="badge ${status}">${STATUS_LABEL[status]}</span>`
}
