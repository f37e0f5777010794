/**
 * Every value reachable from `root` with one field, at any depth down to `maxDepth`, removed (an
 * `undefined` replacement on an object) or replaced by each of `replacements`; on objects, the
 * `extraKeys` are tried too (fields the samples leave out). For tests that check a hand-written
 * yes/no validator against its zod schema on near-miss values.
 */
export interface EditOptions {
  replacements: readonly unknown[];
  extraKeys?: readonly string[];
  maxDepth?: number;
}

export function* oneFieldEdits(root: unknown, options: EditOptions, depth = 0): Generator<unknown> {
  if (typeof root !== 'object' || root === null || depth > (options.maxDepth ?? Infinity)) return;
  const isArray = Array.isArray(root);
  const keys = isArray ? root.map((_, i) => String(i)) : [...Object.keys(root), ...(options.extraKeys ?? [])];
  const copyOf = (): Record<string, unknown> => (isArray ? ([...root] as unknown as Record<string, unknown>) : { ...root });
  for (const key of new Set(keys)) {
    for (const r of options.replacements) {
      const copy = copyOf();
      if (r === undefined && !isArray) delete copy[key];
      else copy[key] = r;
      yield copy;
    }
    for (const inner of oneFieldEdits((root as Record<string, unknown>)[key], options, depth + 1)) {
      const copy = copyOf();
      copy[key] = inner;
      yield copy;
    }
  }
}
