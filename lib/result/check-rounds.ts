/**
 * The checks of a further round of --repeat carry the first round's name with the round after it.
 * A baseline names a check by its first round's name, and excuses it in every round: a team that
 * gates production with --repeat 10 on a baseline recorded without it knows the same deviations.
 */

/** A further round's check: the first round's name, and which round of how many. */
export const roundCheckName = (name: string, round: number, of: number): string => `${name} (round ${round} of ${of})`

/** The check's name as its first round has it (a further round's without its suffix). */
export const firstRoundName = (name: string): string => name.replace(/ \(round \d+ of \d+\)$/, '')
