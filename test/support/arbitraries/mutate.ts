/**
 * Mutations of valid bodies, for "bad input never crashes" properties: delete a field, change a
 * value's type, inject an unknown block type, replace a subtree by random JSON, break the JSON of
 * tool-call arguments. Each mutation picks one path inside the body.
 */
import fc from 'fast-check';
import { jsonValue } from './common.js';

type Path = (string | number)[];

/** Every path to a value inside `body` (objects and arrays), root excluded. */
export function paths(body: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (Array.isArray(body)) {
    body.forEach((v, i) => {
      out.push([...prefix, i]);
      paths(v, [...prefix, i], out);
    });
  } else if (typeof body === 'object' && body !== null) {
    for (const [k, v] of Object.entries(body)) {
      out.push([...prefix, k]);
      paths(v, [...prefix, k], out);
    }
  }
  return out;
}

function clone<T>(v: T): T {
  return structuredClone(v);
}

function parentOf(root: unknown, path: Path): { parent: Record<string | number, unknown>; key: string | number } | undefined {
  let cur: unknown = root;
  for (const seg of path.slice(0, -1)) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  const key = path[path.length - 1];
  if (typeof cur !== 'object' || cur === null || key === undefined) return undefined;
  return { parent: cur as Record<string | number, unknown>, key };
}

export type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'retype'; at: number; value: unknown }
  | { kind: 'random'; at: number; value: unknown }
  | { kind: 'unknown-block'; at: number; type: string }
  | { kind: 'break-arguments'; at: number; junk: string };

export const mutation = (): fc.Arbitrary<Mutation> =>
  fc.oneof(
    fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('retype' as const), at: fc.nat(), value: fc.constantFrom(null, 0, -1, 1.5, '', 'x', true, [], {}, [null], { type: 'x' }) }),
    fc.record({ kind: fc.constant('random' as const), at: fc.nat(), value: jsonValue() }),
    fc.record({ kind: fc.constant('unknown-block' as const), at: fc.nat(), type: fc.constantFrom('hologram', 'tool_use', 'image_url', 'thinking', '', 'text') }),
    fc.record({ kind: fc.constant('break-arguments' as const), at: fc.nat(), junk: fc.constantFrom('{', '{"a":', 'not json', '', '[1,', '{"a":1}}', 'null') }),
  );

/** Applies a mutation to a copy of `body`; returns the copy (unchanged when nothing applied). */
export function applyMutation(body: unknown, m: Mutation): unknown {
  const copy = clone(body);
  const all = paths(copy);
  if (all.length === 0) return m.kind === 'random' ? m.value : copy;
  switch (m.kind) {
    case 'delete':
    case 'retype':
    case 'random': {
      const path = all[m.at % all.length] as Path;
      const p = parentOf(copy, path);
      if (!p) return copy;
      if (m.kind === 'delete') {
        if (Array.isArray(p.parent)) p.parent.splice(p.key as number, 1);
        else delete p.parent[p.key];
      } else p.parent[p.key] = clone(m.value);
      return copy;
    }
    case 'unknown-block': {
      const arrays = all.filter((p) => p[p.length - 1] === 'content');
      const path = arrays[m.at % Math.max(arrays.length, 1)];
      const p = path ? parentOf(copy, path) : undefined;
      if (!p) return copy;
      const existing = p.parent[p.key];
      const block = { type: m.type, payload: 'x' };
      p.parent[p.key] = Array.isArray(existing) ? [...existing, block] : [block];
      return copy;
    }
    case 'break-arguments': {
      const targets = all.filter((p) => p[p.length - 1] === 'arguments' || p[p.length - 1] === 'input');
      const path = targets[m.at % Math.max(targets.length, 1)];
      const p = path ? parentOf(copy, path) : undefined;
      if (p) p.parent[p.key] = m.junk;
      return copy;
    }
  }
}
