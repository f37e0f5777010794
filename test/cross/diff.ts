/**
 * Structural differences between two canonical values, and whether each is covered by a reported loss.
 * Arrays of different lengths are one difference at the array (items moved or dropped shift every
 * index after them, so descending would only produce noise).
 */
import type { Loss, Path } from '../../src/index.js';

export interface Difference {
  path: Path;
  before: unknown;
  after: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function diff(a: unknown, b: unknown, path: Path = [], out: Difference[] = []): Difference[] {
  if (Object.is(a, b)) return out;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push({ path, before: a.length, after: b.length });
    else a.forEach((x, i) => diff(x, b[i], [...path, i], out));
    return out;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) diff(a[k], b[k], [...path, k], out);
    return out;
  }
  out.push({ path, before: a, after: b });
  return out;
}

/** The list a path runs through ('messages' or 'choices') and the item's index in it, if any. */
const item = (p: Path): string => (p[0] === 'messages' || p[0] === 'choices' ? `${p[0]}.${String(p[1])}` : String(p[0]));

/**
 * A difference is covered when a loss names the same top-level field or the same message (or
 * choice). Paths are canonical-model paths (what encoders report); losses move, split and merge
 * parts inside a message, so part-level matching would only be noise. A root loss covers only
 * top-level fields.
 */
export function covered(d: Difference, losses: Loss[]): boolean {
  const extKeys = d.path[0] === 'ext' ? residueKeys(d) : [];
  return losses.some((l) => {
    if (l.path.length === 0) return d.path.length <= 1;
    if (item(l.path) === item(d.path)) return true;
    // Top-level residue (ext[origin].<wire key>) is reported under the wire key's name.
    return typeof l.path[0] === 'string' && extKeys.includes(l.path[0]);
  });
}

/** The wire keys a difference inside the top-level ext touches. */
function residueKeys(d: Difference): string[] {
  if (d.path.length >= 3) return [String(d.path[2])];
  const keys = (v: unknown): string[] => (isObj(v) ? Object.keys(v) : []);
  if (d.path.length === 2) return [...keys(d.before), ...keys(d.after)];
  const inner = (v: unknown): string[] => (isObj(v) ? Object.values(v).flatMap(keys) : []);
  return [...inner(d.before), ...inner(d.after)];
}

/**
 * Merges consecutive user (or assistant) messages of a canonical request: the Anthropic API
 * combines consecutive same-role turns into one (MessageCreateParams.messages, API reference),
 * so splitting or merging them is not a change of meaning.
 */
export function mergeTurns(canonical: unknown): unknown {
  if (!isObj(canonical) || !Array.isArray(canonical['messages'])) return canonical;
  const out: Record<string, unknown>[] = [];
  for (const m of canonical['messages'] as Record<string, unknown>[]) {
    const prev = out[out.length - 1];
    if (prev && prev['role'] === m['role'] && (m['role'] === 'user' || m['role'] === 'assistant') && !prev['ext'] && !m['ext']) {
      const { stringContent: _a, ...rest } = prev;
      out[out.length - 1] = { ...rest, parts: [...(prev['parts'] as unknown[]), ...(m['parts'] as unknown[])] };
    } else out.push(m);
  }
  return { ...canonical, messages: out };
}

const meaningless = (v: unknown): boolean =>
  v === null || (Array.isArray(v) && v.length === 0) || (isObj(v) && Object.keys(v).length === 0);

/**
 * Drops what no loss is owed for: codec-private hints (ext keys starting with '$'), residue that is
 * null or empty (canonical-conventions.md: encoders report only meaningful foreign fields) and the
 * ext objects this leaves empty.
 */
export function withoutHints(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutHints);
  if (!isObj(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k === 'ext' && isObj(x)) {
      const ext: Record<string, unknown> = {};
      for (const [origin, entry] of Object.entries(x)) {
        if (!isObj(entry)) continue;
        const kept = Object.fromEntries(Object.entries(entry).filter(([key, val]) => !key.startsWith('$') && !meaningless(val)));
        if (Object.keys(kept).length > 0) ext[origin] = withoutHints(kept);
      }
      if (Object.keys(ext).length > 0) out[k] = ext;
    } else out[k] = withoutHints(x);
  }
  return out;
}

export function uncovered(before: unknown, after: unknown, losses: Loss[]): Difference[] {
  return diff(before, after).filter((d) => !covered(d, losses));
}

export const show = (ds: Difference[]): string =>
  ds
    .slice(0, 10)
    .map((d) => `${d.path.join('.')}: ${JSON.stringify(d.before)?.slice(0, 80)} -> ${JSON.stringify(d.after)?.slice(0, 80)}`)
    .join('\n');
