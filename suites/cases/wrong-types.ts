/**
 * §4.2 rule 1, §2: bodies with a value of the wrong type, derived from the NewCategory schema of
 * spec/openapi.yaml (each property × each JSON type that is not its own, and bodies that are not
 * objects), so that a change of the schema changes the cases. Which cases exist depends only on the
 * schema (their keys are the write order's); the values are drawn by fast-check from the run's
 * seed, so `--seed N` sends the same values again (wrong-type-values.ts: the manifest, which reads
 * the cases, does not load fast-check).
 */
import { openApiDocument } from '../../lib/spec/schema-registry.ts'
import type { WritePriority } from './write-priority.ts'
import { SEQUELIZE_COERCED, SEQUELIZE_NULL_TAKEN } from '../../lib/checks/orm-driver-answers.ts'

/** The rule every wrong-type body is judged by. */
export const INVALID_VALUES_RULE = 'create-rejects-invalid-values'

export type JsonType = 'null' | 'boolean' | 'integer' | 'number' | 'string' | 'array' | 'object'
const JSON_TYPES: readonly JsonType[] = ['null', 'boolean', 'integer', 'number', 'string', 'array', 'object']

interface PropertySchema {
  type?: string
}
export interface ObjectSchema {
  type?: string
  required?: string[]
  properties?: Record<string, PropertySchema>
}

export interface WrongTypeCase extends WritePriority {
  key: string
  label: string
  /** The property given the wrong type; undefined: the whole body is of `type`. */
  property?: string
  type: JsonType
  /** An array body of the valid NewCategory alone, with no drawn values after it. */
  validAlone?: true
  /** The property as an array holding one string (the marker) and nothing else. */
  oneString?: true
  /** An array body of the NewCategory's values alone, in the order the schema declares its properties. */
  fieldValues?: true
  /** What a 201 to it says of the service, and how such a service is usually fixed. */
  acceptedMeans?: string
}

/** What JavaScript's String() makes of a value, where a Node validator calls it before checking the type. */
const NODE_COERCED =
  "NestJS's ValidationPipe with transformOptions: { enableImplicitConversion: true } turns a number, a boolean or an object into the DTO property's String type before @IsString() sees it " +
  '(42 → "42", {} → "[object Object]"), and zod\'s z.coerce.string() turns any value into text (null → "null", ["a", "b"] → "a,b"): leave both out, z.string() and @IsString() refuse it; ' +
  // measured: express-validator 7.3 under Express 5, body('name').trim().notEmpty() with no isString()
  "express-validator's validators and sanitizers read a value as its text (true → \"true\", 42 → \"42\"), and trim() hands that text on: isString() first in the chain refuses it"
/** Fastify's default: Ajv with coerceTypes 'array' on a route's body schema (measured: Fastify 5). */
const FASTIFY_COERCED =
  "Fastify validates a route's body schema with Ajv and coerceTypes: 'array' by default, which turns a number or a boolean into the string the schema asks for (42 → \"42\"), " +
  'null into "", and an array of one value into that value: new Fastify({ ajv: { customOptions: { coerceTypes: false } } }) refuses them'

/** Grape's params DSL: type: String coerces a number or a boolean, and requires lets null by (measured: Grape 1.6.2). */
const GRAPE_COERCED =
  "Grape's params (requires :name, type: String) turns a number or a boolean into text (42 → \"42\", true → \"true\") and lets null by for requires and optional alike " +
  '(allow_blank: false refuses null, and "" too; a number needs a custom type, or values: ->(v) { v.is_a?(String) })'

/**
 * What a 201 to a wrong type in a string property says of the common binders that take it, and
 * their fix: scalars coerced to text (Jackson's default, so Spring Boot's), null read as no value,
 * and [] read as no value (Jackson's ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT). In Node, NestJS's
 * ValidationPipe with enableImplicitConversion and zod's z.coerce.string() turn values into text
 * before the check (measured: NestJS 11 with class-transformer 0.5, Hono 4 with zod 4).
 */
const COERCED_TO_TEXT =
  'the service took a number or a boolean for text; binders that turn it into text (42 → "42", true → "true") do so: Jackson by default (Spring Boot, Quarkus) and pydantic v1; ' +
  'Jackson 2.14+ refuses it with a Jackson2ObjectMapperBuilderCustomizer that sets coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail), ' +
  'and the same for Float and Boolean (MapperFeature.ALLOW_COERCION_OF_SCALARS does not cover text); pydantic by StrictStr; ' +
  "PHP's trim() and (string) turn what json_decode gave into text (true → \"1\") where no is_string() check comes first, and Ruby's to_s and strip after it do the same (check is_a?(String)); " +
  "Django REST framework's CharField takes an int or a float as its text (a CharField whose to_internal_value() refuses what is not a str), and a Rails model's string attribute casts what permit() let through (42 → \"42\", true → \"t\"); " +
  'Perl keeps numbers and text apart only in its flags (check them, B::svref_2object(\\$v)->FLAGS & (B::SVp_IOK | B::SVp_NOK), before the value is stored); ' + GRAPE_COERCED + '; ' +
  NODE_COERCED + '; ' + FASTIFY_COERCED + '; ' + SEQUELIZE_COERCED
const NULL_TAKEN =
  'the service took null for the property; binders that read it as no value do so: Jackson binds null to a String field (Spring Boot), and a validator that checks only present values lets it by; ' +
  '§2 gives it the type string, so an explicit null is refused (Jackson: @JsonSetter(nulls = Nulls.FAIL), or configOverride(String.class) with Nulls.FAIL for every String property, on a class: ' +
  "Jackson 2.14 ignores both on a record's components, measured on 2.14.0, so a record DTO takes the null whatever the mapper says); " +
  "PHP's $data['description'] ?? null and Ruby's data['description'] read an explicit null as a missing key (PHP: array_key_exists() and is_string(); Ruby: key? and is_a?(String)); " +
  "Django REST framework's ModelSerializer gives a model field with null=True allow_null=True (allow_null=False on the serializer field); " +
  "class-validator's @IsOptional() lets null by as it lets a missing value (NestJS: @ValidateIf((o) => o.description !== undefined) instead), as zod's .nullish() does (.optional() refuses null); " +
  // measured: webargs 8.0 and marshmallow 3.18 under Flask 2.2, express-validator 7.3
  "aeson's generic FromJSON reads null for a Maybe field as Nothing, as .:? does (Servant's ReqBody; .:! in a parseJSON of the service's own refuses null), and " +
  "marshmallow's fields.Str(load_default=None) allows null with its default (webargs' use_args, flask-smorest: leave load_default out, or allow_none=False), as express-validator's optional({ values: 'null' }) does; " +
  "Go's encoding/json leaves a *string nil for null as for a missing key (look the value up in a map[string]json.RawMessage, where null is the text null), and System.Text.Json gives a string? property null " +
  "(ASP.NET Core: a non-nullable string property with .NET 9's RespectNullableAnnotations, or a JsonElement's ValueKind checked); " +
  SEQUELIZE_NULL_TAKEN + '; ' + NODE_COERCED + '; ' + FASTIFY_COERCED + '; ' + GRAPE_COERCED
const ONE_STRING_UNWRAPPED =
  'the service took an array of one string: Jackson reads it as that string with UNWRAP_SINGLE_VALUE_ARRAYS (spring.jackson.deserialization.unwrap-single-value-arrays=true): turn it off; ' +
  "PHP code with no is_string() check keeps the array json_decode gave (PDO writes it as \"Array\"), and Ruby's to_s writes it as text: check is_string() / is_a?(String); " +
  "Rails' permit(:description) drops an array silently (the record is created without it), and Perl writes an array reference as text (ARRAY(0x…)) where nothing checks ref(); " +
  "zod's z.coerce.string() writes it as its one string too (String([\"x\"]) is \"x\"): z.string() refuses it; " + FASTIFY_COERCED
const EMPTY_ARRAY_TAKEN =
  'the service took [] for the property; binders that read it as no value do so: Jackson with ACCEPT_EMPTY_ARRAY_AS_NULL_OBJECT (spring.jackson.deserialization.accept-empty-array-as-null-object=true): turn it off; ' +
  "PHP's ?: and empty() take [] for no value too (check is_string()), and Rails' permit(:description) drops it silently (check is_a?(String) before permit); " + NODE_COERCED
/** A null or an array taken for the required name: a check of presence alone, or zod's coercion. */
const REQUIRED_NOT_TEXT =
  "the service took a value that is not text for the name: a check of presence alone lets it by (name !== undefined, or a truthy test, which an array passes), " +
  'and zod\'s z.coerce.string() turns it into text (null → "null", ["a", "b"] → "a,b"); check its type (z.string(), class-validator\'s @IsString(), typeof name === \'string\'); ' +
  FASTIFY_COERCED + '; ' + GRAPE_COERCED
/** PHP's json_decode($body, true) gives {} as [], and Ruby's to_s writes a Hash as text. */
const OBJECT_TAKEN =
  "the service took an object for a string: PHP's json_decode($body, true) gives {} as [], which ?: and empty() take for no value, and (string) writes any other array as \"Array\"; " +
  "Ruby's to_s writes a Hash as text, and JSON.parse with create_additions: true (JSON.load's default, and so Grape 1.6's JSON parser where MultiJson is not installed) makes one that carries json_class into the class it names; check is_string() / is_a?(String); " +
  "Rails' permit(:description) drops a hash silently, and Perl writes a hash reference as text (HASH(0x…)) where nothing checks ref(); " +
  NODE_COERCED

/** pydantic v1 coerces what is not a dict with dict(): a list of one object becomes the pairs of its keys. */
const ARRAY_READ_AS_PAIRS =
  'the service read the array as key/value pairs: pydantic v1 (FastAPI before 0.100) validates a model from what is not a dict with dict(value), ' +
  'and dict([{"name": "x", "description": "y"}]) is {"name": "description"}: the category is created with the name "description" (measured: FastAPI 0.92, pydantic 1.10); ' +
  'a classmethod validate() on the model that raises TypeError for what is not a dict before super().validate(value) refuses it with the 400 of RequestValidationError, as pydantic 2 does'

/** Rust's serde derives a Deserialize that takes a struct from a sequence of its fields' values too, and serde_json hands it one. */
const SEQUENCE_READ_AS_STRUCT =
  "the service read an array of the fields' values, in the order they are declared, as the record: Rust's serde derives a Deserialize that reads a struct from a sequence as well as from a map, " +
  'and serde_json gives it the array (serde_json::from_slice::<NewCategory>(br#"["x", "y"]"#) is NewCategory { name: "x", description: Some("y") }, serde-rs/serde issue 1587; ' +
  "axum's Json<T> and actix-web's web::Json<T> read bodies so); parse the body into serde_json::Value and refuse what is not an object (value.is_object()) before serde_json::from_value, " +
  'or write the Deserialize impl with a visitor that has visit_map only, and answer 400'

function meaningOf(declared: string | undefined, property: string, type: JsonType, required: readonly string[]): string | undefined {
  if (declared !== 'string') return undefined
  if (type === 'integer' || type === 'number' || type === 'boolean') return COERCED_TO_TEXT
  if (type === 'object') return OBJECT_TAKEN
  if (required.includes(property)) return type === 'null' || type === 'array' ? REQUIRED_NOT_TEXT : undefined
  return type === 'null' ? NULL_TAKEN : type === 'array' ? EMPTY_ARRAY_TAKEN : undefined
}

/**
 * The case that leads the refusals of wrong types in the write order: a number where the name's
 * string belongs, which a server that coerces types (as many binders do) stores as a string.
 */
const LEADING = { property: 'name', type: 'integer', priority: 4 } as const

/** JSON Schema types: an integer is a number too, so "number" admits both. */
const admits = (declared: string | undefined, type: JsonType) => declared === type || (declared === 'number' && type === 'integer')

const article = (type: JsonType) => (type === 'null' ? '' : type === 'integer' || type === 'array' || type === 'object' ? 'an ' : 'a ')
const shown = (type: JsonType) => (type === 'number' ? 'number with a fraction' : type)

export function newCategorySchema(): ObjectSchema {
  const schema = openApiDocument().components.schemas.NewCategory as ObjectSchema | undefined
  if (!schema?.properties) throw new Error('spec/openapi.yaml has no NewCategory schema with properties')
  return schema
}

/** Every wrong-type case the schema gives (NewCategory of spec/openapi.yaml by default), in a stable order. */
export function wrongTypeCases(schema: ObjectSchema = newCategorySchema()): WrongTypeCase[] {
  const cases: WrongTypeCase[] = []
  for (const [property, declared] of Object.entries(schema.properties ?? {})) {
    if (declared.type === undefined) continue
    for (const type of JSON_TYPES.filter((t) => !admits(declared.type, t))) {
      const leads = property === LEADING.property && type === LEADING.type
      const acceptedMeans = meaningOf(declared.type, property, type, schema.required ?? [])
      cases.push({
        key: `wrong-type-${property}-${type}`,
        label: `${property} as ${article(type)}${shown(type)}`,
        property,
        type,
        ...(leads ? { priority: LEADING.priority } : {}),
        ...(acceptedMeans ? { acceptedMeans } : {}),
      })
    }
  }
  for (const type of JSON_TYPES.filter((t) => !admits(schema.type ?? 'object', t))) {
    cases.push({ key: `wrong-type-body-${type}`, label: `a body that is ${article(type)}${shown(type)}`, type })
  }
  // always, whatever the seed draws after it: pydantic v1 reads a one-element array of an object as
  // the key/value pairs of a dict ([{"name":"x","description":"y"}] → {"name": "description"})
  if (!admits(schema.type ?? 'object', 'array')) {
    cases.push({ key: 'wrong-type-body-valid-in-array', label: 'a body that is an array holding one valid NewCategory and nothing else', type: 'array', validAlone: true, acceptedMeans: ARRAY_READ_AS_PAIRS })
  }
  // always, whatever the seed draws: Jackson with UNWRAP_SINGLE_VALUE_ARRAYS (a Spring Boot setting)
  // reads an array of one string as that string ({"name": ["x"]} creates "x"), and the drawn arrays
  // rarely hold exactly one string (none did in seeds 1 to 12). Last, so that the cases before keep
  // their indexes, and so the values each seed draws for them
  for (const [property, declared] of Object.entries(schema.properties ?? {})) {
    if (declared.type !== 'string') continue
    cases.push({ key: `wrong-type-${property}-one-string-array`, label: `${property} as an array holding one string and nothing else`, property, type: 'array', oneString: true, acceptedMeans: ONE_STRING_UNWRAPPED })
  }
  // always: serde's derived Deserialize (Rust) reads a struct from an array of its fields' values in
  // their declared order (["x", "y"] is {"name": "x", "description": "y"}), and the array bodies
  // above start with an object, which it refuses. Last, for the indexes of the cases before
  if (!admits(schema.type ?? 'object', 'array')) {
    cases.push({ key: 'wrong-type-body-field-values-in-order', label: "a body that is an array of a NewCategory's values, in the order its properties are declared", type: 'array', fieldValues: true, acceptedMeans: SEQUENCE_READ_AS_STRUCT })
  }
  return cases
}

/** Whether the body of a case holds the marker (bodies that are null, a boolean or a number cannot). */
export const carriesMarker = (c: WrongTypeCase) => c.property !== undefined || c.type === 'string' || c.type === 'array'
