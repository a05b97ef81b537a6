/**
 * Where parseJsonExact (lib/json/exact-json.ts, which reads them) keeps the text of each number
 * literal that JSON.parse could round. The literal texts are kept on the parsed object itself, in private fields stamped on it (a base
 * constructor that returns the object it is given): invisible to keys, JSON, deep equality and
 * inspection like a WeakMap entry, but about as cheap to add and read as a property, which counts
 * when a list has a million records with a long id each. The first literal of a parent takes two
 * fields; any further one (an object with several long numbers, an array of them) goes in a Map.
 * A literal that is a plain integer (what an id is) is kept as its string, any other in a wrapper,
 * so that the checks of a million ids know a literal is its own exact decimal text without
 * reading it again.
 */
export interface NotPlainInteger {
  text: string
}
export type Kept = string | NotPlainInteger
const ReturnsItsArgument = function (parent: object) {
  return parent
} as unknown as new (parent: object) => object

class ExactLiterals extends ReturnsItsArgument {
  #key: string | number
  #literal: Kept
  #more: Map<string | number, Kept> | undefined
  private constructor(parent: object, key: string | number, literal: Kept) {
    super(parent)
    this.#key = key
    this.#literal = literal
    this.#more = undefined
  }

  static at(parent: object, key: string | number): Kept | undefined {
    if (!(#key in parent)) return undefined
    const stamped = parent as ExactLiterals
    return stamped.#key === key ? stamped.#literal : stamped.#more?.get(key)
  }

  static keep(parent: object, key: string | number, literal: Kept): void {
    if (!(#key in parent)) {
      new ExactLiterals(parent, key, literal)
      return
    }
    const stamped = parent as ExactLiterals
    if (stamped.#key === key) stamped.#literal = literal
    else (stamped.#more ??= new Map()).set(key, literal)
  }
}

/** Keeps the literal text of the number at parent[key]. */
export const keep = ExactLiterals.keep

/** What is kept for the number at parent[key], if anything. */
export const keptAt = ExactLiterals.at
