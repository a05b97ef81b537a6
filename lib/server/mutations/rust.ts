/**
 * Mutations written as a Rust service gets them wrong (measured on Debian 12's hyper 0.14.19,
 * serde 1.0.152 and serde_json 1.0.87): the body read with serde_json::from_slice into a struct
 * that derives Deserialize, as axum's Json<T> and actix-web's web::Json<T> read it too.
 */
import type { Mutation } from '../server-cases.ts'

/**
 * What serde's derived Deserialize makes of a JSON array where the struct is asked for (its
 * visit_seq, serde-rs/serde issue 1587): the elements are the fields' values in their declared
 * order, name then description; a description left out at the end takes its default (None, as a
 * field declared #[serde(default)] does), and an element more is refused (serde_json: "trailing
 * characters"). The values are then checked as an object's are.
 */
function readAsFieldsInOrder(value: unknown): unknown {
  if (!Array.isArray(value) || value.length === 0 || value.length > 2) return value
  const [name, description] = value as unknown[]
  return { name, ...(value.length === 2 ? { description } : {}) }
}

export const RUST_MUTATIONS: readonly Mutation[] = [
  {
    name: 'array-body-read-as-fields-in-order',
    breaks: 'create-rejects-invalid-values',
    code: 'UNEXPECTED_STATUS',
    description:
      "a body that is an array is read as the fields' values in their declared order, as serde's derived Deserialize reads a struct from a sequence: " +
      '["x", "y"] creates a category named "x" described "y" (serde_json::from_slice::<NewCategory>); an array of objects is refused, as serde refuses a map for the name',
    behaviour: { parseBody: (text) => readAsFieldsInOrder(JSON.parse(text)) },
  },
]
