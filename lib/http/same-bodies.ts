/**
 * The large bodies a client read lately, so that a body read again unchanged is kept once: a run
 * reads the list five times or more once its writes are done (the last list, its re-reads, as a
 * browser and a cache ask for it), and against a store of 60,000 records each read was 14 MB of
 * two-byte text and as much parsed, all kept until the run ends (its probes and its evidence hold
 * them). The same text again is the earlier string, and its parse the earlier one
 * (lib/json/parsed-once.ts `sameBodyAs`), read-only as every parse is.
 */
import { sameBodyAs } from '../json/parsed-once.ts'

/** Smaller bodies are not worth the comparison. */
export const SAME_BODY_MIN_CHARACTERS = 64 * 1024
/** Distinct large bodies remembered: the first list, one during the writes, the lists after them, and one to spare. */
const REMEMBERED = 4

export class SameBodies {
  private readonly recent: { text: string; owner: object }[] = []

  /** `text`, the body of `owner` (its Exchange): the earlier string when an earlier body was the same, which then shares its parse. */
  kept(text: string, owner: object): string {
    if (text.length < SAME_BODY_MIN_CHARACTERS) return text
    const at = this.recent.findIndex((r) => r.text.length === text.length && r.text === text)
    if (at >= 0) {
      const [earlier] = this.recent.splice(at, 1) as [{ text: string; owner: object }]
      this.recent.push(earlier)
      sameBodyAs(owner, earlier.owner, earlier.text)
      return earlier.text
    }
    this.recent.push({ text, owner })
    if (this.recent.length > REMEMBERED) this.recent.shift()
    return text
  }
}
