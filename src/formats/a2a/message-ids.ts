/**
 * A2A message ids in an encoded output. A2A gives every message its own `messageId`, so:
 * - one canonical message written as several A2A messages (its text, then its tool calls) gets
 *   its id on the first and `<id>#<n>` on the n-th (n from 2): the decoder reads such a
 *   continuation id as the same canonical message again (compact.ts);
 * - an id an earlier message of the output already has, or one that would read as the
 *   continuation of the message before it, is written as `<id>~<n>`, the first free n from 2.
 */

/** The id of the `n`-th A2A message (from 1) a canonical message with id `base` is written as. */
export function continuationId(base: string, n: number): string {
  return n <= 1 ? base : `${base}#${n}`;
}

/** Whether `id` is a continuation id of `base` (`<base>#<n>`, n ≥ 2). */
export function isContinuationOf(id: string, base: string): boolean {
  if (id.length <= base.length + 1 || id.charCodeAt(base.length) !== 0x23 || !id.startsWith(base)) return false;
  // The digits read in place (this runs per message decoded): no leading zero, and not "1" alone.
  const at = base.length + 1;
  const lead = id.charCodeAt(at);
  if (lead < 0x31 || lead > 0x39) return false;
  for (let i = at + 1; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return id.length > at + 1 || lead !== 0x31;
}

/** The ids given out so far in one output. */
export class MessageIds {
  private readonly used = new Set<string>();

  /**
   * The ids of a canonical message written as `count` A2A messages: `wanted` and its continuation
   * ids when all are free (and `avoid` does not refuse the first), else those of `wanted~<n>` for
   * the first n where they are. All are taken.
   */
  claim(wanted: string, count: number, avoid: (first: string) => boolean = () => false): string[] {
    const idsOf = (base: string): string[] => Array.from({ length: count }, (_, k) => continuationId(base, k + 1));
    let ids = idsOf(wanted);
    for (let n = 2; ids.some((id) => this.used.has(id)) || avoid(ids[0] as string); n++) ids = idsOf(`${wanted}~${n}`);
    for (const id of ids) this.used.add(id);
    return ids;
  }
}
