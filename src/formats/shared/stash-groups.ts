/**
 * Stash groups for formats that write one wire message per canonical message: one item each,
 * except that an item which becomes no wire message at all (everything in it was dropped) joins
 * the next group, or the last one, so that some wire message can carry it under `preserve`.
 */
export function stashGroups<T>(items: readonly T[], producesWire: (item: T) => boolean): T[][] {
  const out: T[][] = [];
  let pending: T[] = [];
  for (const item of items) {
    pending.push(item);
    if (producesWire(item)) {
      out.push(pending);
      pending = [];
    }
  }
  if (pending.length > 0) {
    const last = out[out.length - 1];
    if (last) last.push(...pending);
    else out.push(pending);
  }
  return out;
}
