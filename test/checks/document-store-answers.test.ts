/**
 * The words for a record written as a document store gives it (lib/checks/document-store-answers.ts),
 * measured by stackhunt12 against Node services answering as MongoDB and DynamoDB give documents:
 * each was "body.id must be integer" (or 'lacks required property "id"') with nothing said why.
 * The code stays SCHEMA_MISMATCH; only the words are added.
 */
import { describe, expect, test } from 'vitest'
import { firstDifference } from '../../lib/checks/category.ts'
import { expectSchema } from '../../lib/checks/schema.ts'
import { makeResponse, verdictOf } from './make-response.ts'

const messageOf = (body: unknown, schema: 'Category' | 'CategoryList' = 'Category'): string => {
  const verdict = verdictOf(() => expectSchema(makeResponse({ status: schema === 'Category' ? 201 : 200, method: schema === 'Category' ? 'POST' : 'GET', body }), schema))
  if (!('code' in verdict)) throw new Error(`expected a failure, got ${JSON.stringify(verdict)}`)
  expect(verdict.code).toBe('SCHEMA_MISMATCH')
  return verdict.message
}

describe('a record as a document store gives it', () => {
  test('an ObjectId as the id names MongoDB and a counter of the service\'s own', () => {
    expect(messageOf({ id: '6566f1e2a1b2c3d400000001', name: 'dog' })).toMatch(
      /^the body is not a Category record: body\.id must be integer; body\.id is "6566f1e2a1b2c3d400000001": a text of 24 hexadecimal digits is a MongoDB ObjectId.*findOneAndUpdate and \$inc/,
    )
  })

  test('_id and no id, in a list, names MongoDB\'s key and Mongoose\'s toJSON()', () => {
    const list = [{ _id: '6566f1e2a1b2c3d400000001', name: 'dog', __v: 0 }]
    expect(messageOf(list, 'CategoryList')).toMatch(/body\[0\] lacks required property "id"; body\[0\] has "_id" and no "id": MongoDB names a document's key _id.*Mongoose's toJSON\(\)/)
    // a record with an id beside _id is a Category: _id is a member the document does not forbid
    expect(verdictOf(() => expectSchema(makeResponse({ status: 200, body: [{ id: 1, _id: '6566f1e2a1b2c3d400000001', name: 'dog', __v: 0 }] }), 'CategoryList'))).not.toHaveProperty('code')
  })

  test('canonical Extended JSON names its mode and relaxed mode', () => {
    expect(messageOf({ id: { $numberLong: '12' }, _id: { $oid: '6566f1e2a1b2c3d400000001' }, name: 'dog' })).toMatch(
      /body\.id is \{"\$numberLong":"12"\}: it is MongoDB Extended JSON in its canonical mode \(bson\.json_util\.dumps with CANONICAL_JSON_OPTIONS.*relaxed mode writes an int64 as a number/,
    )
  })

  // review56: relaxed mode writes an ObjectId as {"$oid": …} too, so neither canonical mode nor relaxed mode is named for it
  test('an ObjectId in Extended JSON as the id names every mode, not canonical mode', () => {
    const message = messageOf({ id: { $oid: '6566f1e2a1b2c3d400000001' }, name: 'dog' })
    expect(message).toMatch(/body\.id is \{"\$oid":"6566f1e2a1b2c3d400000001"\}: it is MongoDB Extended JSON, which writes an ObjectId as \{"\$oid": "…"\} .* in every mode, relaxed too; §2 gives id the type integer/)
    expect(message).not.toMatch(/canonical mode/)
    expect(messageOf({ id: 1, name: 'dog', description: { $oid: '6566f1e2a1b2c3d400000001' } })).toBe('the body is not a Category record: body.description must be string')
  })

  test("DynamoDB's attribute values name unmarshall, and a long one is cut", () => {
    const message = messageOf({ id: { N: '12' }, name: { S: 'x'.repeat(500) } })
    expect(message).toMatch(/body\.id is \{"N":"12"\}: it is a DynamoDB attribute value .*@aws-sdk\/util-dynamodb's unmarshall/)
    expect(messageOf({ id: 12, name: { S: 'x'.repeat(500) } })).toMatch(/body\.name is \{"S":"x{74}…: it is a DynamoDB attribute value/)
  })

  // measured: a Node service on the AWS SDK v2's DocumentClient({ convertEmptyValues: true }), its creates of "" answered as built, listed as null
  test("a description listed null names DynamoDB's convertEmptyValues beside Oracle", () => {
    expect(messageOf([{ id: 1, name: 'dog', description: null }], 'CategoryList')).toMatch(/body\[0\]\.description is null: .*Oracle gives back an empty string as NULL \(so does the AWS SDK v2's DynamoDB DocumentClient with convertEmptyValues: true/)
  })

  // measured: an emulation storing { id, name, description: body.description } through the MongoDB Node driver's defaults
  test("a description listed null names the MongoDB Node driver's ignoreUndefined", () => {
    expect(messageOf([{ id: 1, name: 'dog', description: null }], 'CategoryList')).toMatch(/the MongoDB Node driver stores a field set to undefined as null .*ignoreUndefined: true/)
  })

  // a create of "" given back without it: kotlinx.serialization's encodeDefaults (a Json of the service's own in Ktor: Ktor's DefaultJson encodes defaults, review56) and DynamoDB's convertEmptyValues beside Oracle and Jackson
  test("an empty description given back as no value names kotlinx.serialization's encodeDefaults and DynamoDB's convertEmptyValues", () => {
    expect(firstDifference('', undefined)).toMatch(/kotlinx\.serialization leaves out a property equal to its default \(a description: String = "" under encodeDefaults = false, the default of a Json \{ \} of the service's own, as Ktor's json\(Json \{ … \}\) is given; Ktor's json\(\) alone encodes defaults\).*DocumentClient stores it as NULL under convertEmptyValues: true/)
  })

  test('an id of text that is no ObjectId gets no such words', () => {
    expect(messageOf({ id: 'abc', name: 'dog' })).toBe('the body is not a Category record: body.id must be integer')
    expect(messageOf({ id: '6566f1e2a1b2c3d4', name: 'dog' })).toBe('the body is not a Category record: body.id must be integer')
  })
})
