/**
 * What a server fault (a 5xx) to a valid create of suites/cases/valid-creates.ts may say of the
 * service, and how such a service is usually fixed: the values it carries that a column may be too
 * short for, that a store cannot hold, or that code reads as a pattern of its own.
 */

/** What a server fault to values that may be too long for a column says of the service, and its fix. */
export const LENGTH_FAULT =
  "a server fault to values a column may be too short for: if it is the store's length error left unhandled (Oracle ORA-12899, which counts bytes in a VARCHAR2 of BYTE semantics; " +
  'SQL Server 2628 or 8152; PostgreSQL 22001; MySQL 1406), lengths are not shown (§8), so the service may refuse them with 400 or 413, never with a fault ' +
  '(Spring: an @ExceptionHandler for DataIntegrityViolationException answering 400, or @Size limits that count as the column does)'

/** The escapes create's name holds a format directive: a fault to it may be a format string built of the name. */
export const FORMAT_FAULT =
  `${LENGTH_FAULT}; or the name's %s read as a format directive with no argument for it, where the service builds a format string of the name ` +
  '(Java\'s printf("created " + name) or String.format throws MissingFormatArgumentException): pass the name as an argument, printf("created %s%n", name); ' +
  "or its unclosed ( [ { read as a pattern: a regular expression built of the name (new RegExp(`^${name}$`, 'i'), MongoDB's common case-insensitive lookup, throws on it; " +
  "match on a collation instead, { collation: { locale: 'en', strength: 2 } }, or escape the name first), or a message pattern built of it " +
  '(java.text.MessageFormat, .NET\'s string.Format and Python\'s str.format throw on a brace that opens no argument): pass the name as an argument; ' +
  "or a quote in a value written into SQL by string concatenation (a syntax error, and SQL injection), the description's where the name is a bound parameter: bind every value"
