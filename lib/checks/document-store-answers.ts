/**
 * What a record written as a document store gives it says (measured by stackhunt12 against Node
 * services that answered as MongoDB and DynamoDB give their documents): an ObjectId as the id, a
 * document's _id in place of id, MongoDB Extended JSON in its canonical mode, and DynamoDB's
 * attribute values left as the low-level client gives them. Each was "body.id must be integer" or
 * 'lacks required property "id"' and no more. The verdict and the failure code never depend on these words.
 */

/** Each record of a Category or of a list of them, with its place as the schema problems write it (body, body[1]). */
const recordsOf = (body: unknown): { where: string; record: Record<string, unknown> }[] => {
  const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value)
  if (Array.isArray(body)) return body.flatMap((element, i) => (isRecord(element) ? [{ where: `body[${i}]`, record: element }] : []))
  return isRecord(body) ? [{ where: 'body', record: body }] : []
}

const OBJECT_ID = /^[0-9a-f]{24}$/i

const INTEGER_ID =
  '§2 gives id the type integer (int64), a JSON number: an id of the service\'s own, taken from a counter document incremented with findOneAndUpdate and $inc (the sequence MongoDB\'s documentation shows), stored beside _id'

const OBJECT_ID_WORDS = `a text of 24 hexadecimal digits is a MongoDB ObjectId, the _id a driver gives a document (Mongoose's id virtual is its text); ${INTEGER_ID}`

const UNDERSCORE_ID_WORDS =
  `MongoDB names a document's key _id, and a document written as the driver or Mongoose's toJSON() gives it has no id; ${INTEGER_ID} (the record may keep _id beside it)`

const EXTENDED_JSON =
  'it is MongoDB Extended JSON in its canonical mode (bson.json_util.dumps with CANONICAL_JSON_OPTIONS, EJSON.stringify with relaxed: false, mongoexport --jsonFormat=canonical), which writes an int64 as {"$numberLong": "…"} ' +
  '(and an ObjectId as {"$oid": "…"} in every mode); §2 gives id the type integer, a JSON number: write the record as plain JSON, its id an integer (relaxed mode writes an int64 as a number)'

const ATTRIBUTE_VALUE =
  'it is a DynamoDB attribute value ({"N": "…"}, {"S": "…"}), as the low-level client gives an item (DynamoDBClient\'s GetItem and Scan, boto3\'s client): ' +
  "unmarshall the item before it is written (@aws-sdk/util-dynamodb's unmarshall, DynamoDBDocumentClient, boto3's Table resource or TypeDeserializer; boto3 gives a number as a Decimal: int() it); " +
  '§2 gives id the type integer and name and description the type string'

/** A field set to undefined in a document the MongoDB Node driver stores (measured by stackhunt12: an emulation whose creates answered without description, its list with null). */
export const MONGO_UNDEFINED_STORED =
  "the MongoDB Node driver stores a field set to undefined as null (insertOne({ id, name, description: body.description }) under ignoreUndefined: false, its default), which a create answered with the object as built does not show: " +
  'MongoClient(url, { ignoreUndefined: true }), or the field left out of the document where it has no value'

const EXTENDED_KEYS = new Set(['$numberLong', '$numberInt', '$numberDecimal', '$numberDouble', '$oid'])

/** Extended JSON's forms that relaxed mode writes too (review56: an ObjectId id in relaxed mode was said to be canonical mode, and relaxed mode its fix). */
const EVERY_MODE =
  `it is MongoDB Extended JSON, which writes an ObjectId as {"$oid": "…"} and a Decimal128 as {"$numberDecimal": "…"} in every mode, relaxed too; ${INTEGER_ID}`

const ATTRIBUTE_KEYS = new Set(['N', 'S', 'NULL', 'BOOL', 'B', 'SS', 'NS', 'L', 'M'])

/** A value as the message quotes it: a long name stays short. */
const shown = (value: unknown): string => {
  const text = JSON.stringify(value)
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/** The one key of an object that holds one, else undefined. */
const onlyKey = (value: unknown): string | undefined => {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const keys = Object.keys(value)
  return keys.length === 1 ? keys[0] : undefined
}

/**
 * Why a Category (or a list's) has the wrong shape, where a document store's own form of a record
 * was written as it is; `problems` as the schema check words them (`body[1].id must be integer`).
 */
export function documentStoreOrigin(body: unknown, problems: readonly string[]): string | undefined {
  for (const { where, record } of recordsOf(body)) {
    if (problems.includes(`${where} lacks required property "id"`) && '_id' in record) return `${where} has "_id" and no "id": ${UNDERSCORE_ID_WORDS}`
    for (const [key, value] of Object.entries(record)) {
      const place = `${where}.${key}`
      if (!problems.some((problem) => problem.startsWith(`${place} `))) continue
      if (key === 'id' && typeof value === 'string' && OBJECT_ID.test(value)) return `${place} is ${shown(value)}: ${OBJECT_ID_WORDS}`
      const only = onlyKey(value)
      if (only === '$oid' || only === '$numberDecimal') {
        if (key === 'id') return `${place} is ${shown(value)}: ${EVERY_MODE}`
        continue
      }
      if (only !== undefined && EXTENDED_KEYS.has(only)) return `${place} is ${shown(value)}: ${EXTENDED_JSON}`
      if (only !== undefined && ATTRIBUTE_KEYS.has(only)) return `${place} is ${shown(value)}: ${ATTRIBUTE_VALUE}`
    }
  }
  return undefined
}
