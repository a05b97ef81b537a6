/**
 * The markers every report uses for characters a reader could not see: which spaces of a failure
 * value are marked, how invisible and control characters are written, that markers cannot be
 * forged, and that nothing invisible survives.
 */
import { describe, expect, test } from 'vitest'
import { legendOf, valueLegend, valuePieces, visibleLine, visiblePieces, visibleValue } from '../../lib/reporters/visible-text.ts'

describe('failure values (expected, actual, message)', () => {
  test.each([
    // the padded-name failure of issue 11: leading and trailing spaces inside the quoted value
    ['name: "  conform-x-padded  " (as sent)', 'name: "··conform-x-padded··" (as sent)'],
    ['name: "conform-x-padded"', 'name: "conform-x-padded"'],
    // inside a string: a run of two or more is marked, a single space between words is not
    ['"a  b"', '"a··b"'],
    ['"a b c"', '"a b c"'],
    ['"   "', '"···"'],
    ['""', '""'],
    // an escaped quote does not end the string, nor does a space after it lead one
    ['"say \\" hi "', '"say \\" hi·"'],
    ['"x" and "y"', '"x" and "y"'],
    // outside strings, only the ends of the whole value
    [' status 400', '·status 400'],
    ['status 400  ', 'status 400··'],
    ['one  two', 'one  two'],
    // whitespace other than the ASCII space, always
    ['"a\u00A0b"', '"a⟨NBSP⟩b"'],
    ['"a\u202Fb\u2003c\u3000d"', '"a⟨NNBSP⟩b⟨U+2003⟩c⟨U+3000⟩d"'],
    ['"a\tb"', '"a⇥b"'],
    ['"a\nb"', '"a↵b"'],
    ['"a\r\nb"', '"a⟨CR⟩↵b"'],
    ['"a\u2028b"', '"a⟨LSEP⟩b"'],
    // zero-width and format characters
    ['"a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf\u00ADg"', '"a⟨ZWSP⟩b⟨ZWNJ⟩c⟨ZWJ⟩d⟨WJ⟩e⟨BOM⟩f⟨SHY⟩g"'],
    ['"\u{E0041}tag"', '"⟨U+E0041⟩tag"'],
    // controls and bidi
    ['"\x1b[31mred\x00\x07\x7f\x9b"', '"⟨ESC⟩[31mred⟨NUL⟩⟨U+0007⟩⟨DEL⟩⟨U+009B⟩"'],
    ['"\u202Egnp.exe\u202C\u2066x\u2069\u200E\u200F\u061C"', '"⟨RLO⟩gnp.exe⟨PDF⟩⟨LRI⟩x⟨PDI⟩⟨LRM⟩⟨RLM⟩⟨ALM⟩"'],
    // a lone surrogate, a noncharacter
    ['"\uD800x\uFFFF"', '"⟨U+D800⟩x⟨U+FFFF⟩"'],
    // the marker signs themselves, when the server sends them, so that no marker can be forged
    ['"·↵⇥⟨NBSP⟩"', '"⟨U+00B7⟩⟨U+21B5⟩⟨U+21E5⟩⟨U+27E8⟩NBSP⟩"'],
    // visible text stays as it is
    ['"é 中文 👍 ✓ →"', '"é 中文 👍 ✓ →"'],
  ])('%j reads %j', (text, shown) => {
    expect(visibleValue(text)).toBe(shown)
  })

  test('each marker names what it stands for, once, in order of first use', () => {
    expect(valueLegend(['name: "  a\u00A0b  "', '"x\u00A0y\u200B\x07\x08"'])).toBe(
      '· space; ⟨NBSP⟩ no-break space (U+00A0); ⟨ZWSP⟩ zero-width space (U+200B); ⟨U+…⟩ a character that is invisible, a control or a marker sign, written by its code point',
    )
    expect(valueLegend(['"status": 401', 'plain words'])).toBe('')
    expect(legendOf(valuePieces('"a\tb"'))).toEqual([{ marker: '⇥', meaning: 'tab' }])
  })
})

describe('any other text', () => {
  test('on one line: controls and invisible characters marked, spaces and a literal · left alone', () => {
    expect(visibleLine('  a · b  \n\t\u00A0\x1b')).toBe('  a · b  ↵⇥⟨NBSP⟩⟨ESC⟩')
  })

  test('in a layout that keeps lines (a <pre>): line feeds and tabs kept, CRLF as LF, the rest marked', () => {
    expect(visiblePieces('a\r\nb\tc\u200B', 'keep').map((p) => p.text).join('')).toBe('a\nb\tc⟨ZWSP⟩')
  })
})

describe('nothing invisible survives', () => {
  // every code point of the Basic Multilingual Plane, and the astral format characters
  const all = [...Array.from({ length: 0x10000 }, (_, i) => String.fromCharCode(i)), '\u{110BD}', '\u{1D173}', '\u{E0001}', '\u{E007F}'].join('')
  // what a reader cannot see or a terminal would act on: controls, format characters, separators, surrogates
  const invisible = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]|(?! )\p{Zs}/u

  test('in failure values: no control, format, separator or non-ASCII space character is left', () => {
    const shown = visibleValue(all)
    expect(shown).not.toMatch(invisible)
    expect(shown).not.toMatch(/\uD800(?![\uDC00-\uDFFF])/)
  })

  test('on one line: the same, and no line break of any kind', () => {
    const shown = visibleLine(all)
    expect(shown).not.toMatch(invisible)
    expect(shown).not.toMatch(/[\n\r\u0085\u2028\u2029]/)
  })

  test('in kept layout: only line feed and tab are left', () => {
    const shown = visiblePieces(all, 'keep').map((p) => p.text).join('')
    expect([...shown].filter((c) => invisible.test(c))).toEqual(['\t', '\n'])
  })
})
