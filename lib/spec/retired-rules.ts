/**
 * Rules earlier versions of the suite had that this one no longer does, each with what became of it
 * (merged into another, dropped with the sentence it rested on). A baseline recorded by such a
 * version may name one: its entry is read (a rule the catalogue does not have is otherwise refused,
 * exit 2, which would turn an upgrade's first run red over a rule no longer judged), excuses
 * nothing, is named apart as retired in every report, never as fixed, and --update-baseline drops
 * it. None yet: every rule of 0.1.0 is in spec/rules.yaml. A rule taken out of the catalogue goes
 * here, with its words, in the same change.
 */
export const RETIRED_RULES: Readonly<Record<string, string>> = {}

/** What became of a retired rule, or undefined for a rule no version retired. */
export const retiredRule = (id: string): string | undefined => (Object.hasOwn(RETIRED_RULES, id) ? RETIRED_RULES[id] : undefined)
