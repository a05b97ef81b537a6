/**
 * Text that reads as an ISO 8601 date and time, given back as another form of that moment: a
 * reader that took it for a date. Json.NET's reader takes such text for a DateTime by default
 * (DateParseHandling.DateTime) wherever the body is read without a class (JObject, dynamic), and
 * gives it back as DateTime.ToString() ("02/29/2024 23:59:59"); a JSON.parse reviver that makes
 * it a Date gives it back as toISOString(), to the millisecond. The words only: the code and the
 * verdict stay the check's.
 */

/** What Json.NET's reader takes for a date: 19 to 40 characters, a digit first and T at 10, an ISO 8601 date and time. */
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?$/

/** Date.prototype.toISOString()'s form: UTC, to the millisecond. */
const TO_ISO_STRING = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** DateTime.ToString() in the invariant culture, as Json.NET's JValue gives a date it read back as text. */
const DOTNET_GENERAL = /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/

const JSON_NET =
  "text that reads as a date and time came back as DateTime.ToString() writes one: Json.NET's reader takes such text for a DateTime (DateParseHandling.DateTime, its default) where the body is read " +
  "without a class, as JObject or dynamic (JToken.Parse; JsonConvert.DeserializeObject(body) with no type, as the Azure Functions template reads it), and the value then read as a string is that DateTime's text; " +
  'set DateParseHandling.None (in JsonSerializerSettings, or on the JsonTextReader), or bind the body to a class whose description is a string'

const REVIVER =
  "text that reads as a date and time came back as another form of the same moment: the body was parsed with a reviver that makes such text a Date (JSON.parse(text, reviver)), which JSON.stringify writes as toISOString(), " +
  'in UTC and to the millisecond; revive dates only in fields that hold dates (§2 gives description the type string)'

/** Why text that reads as a date came back as another text of a date, or undefined. */
export function dateTextOrigin(sent: unknown, got: unknown): string | undefined {
  if (typeof sent !== 'string' || typeof got !== 'string' || sent === got || !ISO_DATE_TIME.test(sent)) return undefined
  if (DOTNET_GENERAL.test(got)) return JSON_NET
  const second = (text: string) => Math.floor(Date.parse(text) / 1000)
  return TO_ISO_STRING.test(got) && second(got) === second(sent) ? REVIVER : undefined
}
