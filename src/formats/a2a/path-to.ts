import type { Path } from '../../model/loss.js';

/**
 * `[...path, a, b?, c?]`, copied in a loop: paths are made per message and part, and an array
 * spread is about twice as slow.
 */
export function pathTo(path: Path, a: string | number, b?: string | number, c?: string | number): Path {
  const n = path.length;
  const out: Path = new Array<string | number>(n + (b === undefined ? 1 : c === undefined ? 2 : 3));
  for (let i = 0; i < n; i++) out[i] = path[i] as string | number;
  out[n] = a;
  if (b !== undefined) out[n + 1] = b;
  if (c !== undefined) out[n + 2] = c;
  return out;
}
