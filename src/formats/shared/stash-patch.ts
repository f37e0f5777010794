/**
 * The patch form of a message stash (`v: 2`, ADR 0013): instead of whole canonical messages, only
 * what the target's own decode of the wire messages does not give back, as operations on the
 * decoded messages, applied in order. `[path, value]` sets the value at path (a key of an object, or
 * an existing index of an array); `[path]` deletes a key (already done when it is not there), or
 * removes an array's element;
 * `[path, value, 1]` inserts into an array at that index. A path starts with the message's index.
 *
 * The diff sees values as sameValue does (key order and keys holding undefined ignored). Arrays of
 * different lengths (a part the target dropped, one it added) keep their common start and end,
 * matched by kind (the same `type`, else the same `role`), and insert or remove in between.
 *
 * When the decode gives back a different number of messages (a format that splits a message's tool
 * results into messages of their own, or merges turns), `shape` first regroups the decoded parts:
 * the parts counts of the canonical messages, each message taking its other fields from the decoded
 * message its first part came from. The diff then runs on the regrouped messages. When the parts do
 * not add up, the message lists are diffed as arrays.
 */
import type { JsonObject } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Path } from '../../model/loss.js';
import { childPath } from './child-path.js';
import { deleteKey } from './delete-keys.js';
import { copyKeys } from './residue.js';

export type PatchOp = [Path] | [Path, unknown] | [Path, unknown, 1];

export interface MessagesPatch {
  /** Parts per canonical message, when the message counts differ and the parts add up. */
  shape?: number[];
  ops: PatchOp[];
}

/** The patch that turns `decoded` into `canonical`. */
export function messagesPatch(decoded: readonly Message[], canonical: readonly Message[]): MessagesPatch {
  const ops: PatchOp[] = [];
  if (decoded.length !== canonical.length) {
    const shape = canonical.map((m) => m.parts.length);
    const regrouped = regroup(decoded, shape);
    if (regrouped === undefined) {
      diff(decoded, canonical, [], ops);
      return { ops };
    }
    diff(regrouped, canonical, [], ops);
    return { shape, ops };
  }
  diff(decoded, canonical, [], ops);
  return { ops };
}

/**
 * The decoded parts in messages of `shape`'s sizes, each with the other fields of the decoded message
 * holding its first part (the last message's when it has none left), or undefined when the sizes do
 * not add up to the decoded parts.
 */
function regroup(decoded: readonly Message[], shape: readonly unknown[]): Message[] | undefined {
  const parts: Message['parts'] = [];
  const owner: number[] = [];
  for (let i = 0; i < decoded.length; i++) {
    const list = (decoded[i] as Message).parts;
    if (!Array.isArray(list)) return undefined;
    for (const p of list) {
      parts.push(p);
      owner.push(i);
    }
  }
  const out: Message[] = [];
  let at = 0;
  for (const n of shape) {
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || at + n > parts.length) return undefined;
    const from = decoded[at < parts.length ? (owner[at] as number) : decoded.length - 1];
    if (from === undefined) return undefined;
    out.push({ ...from, parts: parts.slice(at, at + n) });
    at += n;
  }
  return at === parts.length ? out : undefined;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Diffs a and b at `path` (a stack: pushed and popped, copied only into an operation). */
function diff(a: unknown, b: unknown, path: Path, ops: PatchOp[]): void {
  if (a === b) return;
  if (isRecord(a) && isRecord(b)) {
    // for-in, not Object.keys: no key array per object (these are plain objects, so only own keys).
    let matched = 0;
    for (const key in b) {
      const vb = b[key];
      if (vb === undefined) continue;
      const va = Object.hasOwn(a, key) ? a[key] : undefined;
      path.push(key);
      if (va === undefined) ops.push([path.slice(), vb]);
      else {
        matched++;
        diff(va, vb, path, ops);
      }
      path.pop();
    }
    // Keys of a that b lacks: none when every key a holds was matched.
    let held = 0;
    for (const key in a) if (a[key] !== undefined) held++;
    if (held === matched) return;
    for (const key in a) {
      if (a[key] !== undefined && (!Object.hasOwn(b, key) || b[key] === undefined)) ops.push([childPath(path, key)]);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    diffArrays(a, b, path, ops);
    return;
  }
  if (samePrimitive(a, b)) return;
  ops.push([path.slice(), b]);
}

function diffAt(a: unknown, b: unknown, index: number, path: Path, ops: PatchOp[]): void {
  path.push(index);
  diff(a, b, path, ops);
  path.pop();
}

/** Element by element; for different lengths, the matching start and end kept and the middle edited. */
function diffArrays(a: readonly unknown[], b: readonly unknown[], path: Path, ops: PatchOp[]): void {
  if (a.length === b.length) {
    for (let i = 0; i < b.length; i++) diffAt(a[i], b[i], i, path, ops);
    return;
  }
  const shorter = Math.min(a.length, b.length);
  let head = 0;
  while (head < shorter && sameKind(a[head], b[head])) head++;
  let tail = 0;
  while (tail < shorter - head && sameKind(a[a.length - 1 - tail], b[b.length - 1 - tail])) tail++;
  // The middle: as many elements diffed in place as both have, then b's extra inserted or a's removed.
  const common = Math.min(a.length, b.length) - tail;
  for (let i = 0; i < common; i++) diffAt(a[i], b[i], i, path, ops);
  for (let i = common; i < b.length - tail; i++) ops.push([childPath(path, i), b[i], 1]);
  for (let i = common; i < a.length - tail; i++) ops.push([childPath(path, common)]);
  // The end, at its indices in b now that the middle has b's length.
  for (let k = tail; k > 0; k--) diffAt(a[a.length - k], b[b.length - k], b.length - k, path, ops);
}

/** Whether two elements are worth diffing in place: the same kind of value, parts of the same type. */
function sameKind(a: unknown, b: unknown): boolean {
  if (isRecord(a) && isRecord(b)) {
    if (typeof a['type'] === 'string' || typeof b['type'] === 'string') return a['type'] === b['type'];
    if (typeof a['role'] === 'string' || typeof b['role'] === 'string') return a['role'] === b['role'];
    return true;
  }
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b);
  return samePrimitive(a, b);
}

/** Two primitives (or a primitive and an object: never the same) as JSON would write them. */
function samePrimitive(a: unknown, b: unknown): boolean {
  if ((a !== null && typeof a === 'object') || (b !== null && typeof b === 'object')) return false;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * `decoded` with the operations applied, or undefined when they do not fit it (a malformed or
 * foreign patch). Copy on write: every object or array on an operation's path is copied once, so the
 * decoded messages (which may share objects with the wire body) are never changed. A regrouped
 * message is a new object whose parts array is new, so it is copied once more on write: harmless.
 */
export function applyPatch(decoded: readonly Message[], shape: unknown, ops: unknown): Message[] | undefined {
  if (!Array.isArray(ops)) return undefined;
  let root: unknown[];
  if (shape === undefined) root = decoded.slice();
  else {
    const regrouped = Array.isArray(shape) ? regroup(decoded, shape) : undefined;
    if (regrouped === undefined) return undefined;
    root = regrouped;
  }
  const copied = new Set<object>([root]);
  for (const op of ops) {
    if (!Array.isArray(op) || op.length < 1 || op.length > 3) return undefined;
    const path: unknown = op[0];
    if (!Array.isArray(path) || path.length === 0) return undefined;
    let parent: unknown[] | Record<string, unknown> = root;
    for (let d = 0; d < path.length - 1; d++) {
      const key: unknown = path[d];
      const child = ownValue(parent, key);
      if (child === null || typeof child !== 'object') return undefined;
      let copy = child as unknown[] | Record<string, unknown>;
      if (!copied.has(copy)) {
        // Key by key, not a spread: a spread copy given new keys takes a hidden class of its own.
        copy = Array.isArray(copy) ? copy.slice() : copyKeys(copy as JsonObject);
        copied.add(copy);
        put(parent, key as string | number, copy);
      }
      parent = copy;
    }
    const last: unknown = path[path.length - 1];
    if (op.length === 1) {
      if (Array.isArray(parent)) {
        if (!isIndex(last, parent.length)) return undefined;
        parent.splice(last, 1);
      } else {
        if (typeof last !== 'string') return undefined;
        // A key the decode no longer gives (a later decoder that leaves a default out) is deleted already.
        // deleteKeys, not delete, which leaves a dictionary of any key but the last.
        if (Object.hasOwn(parent, last)) deleteKey(parent as JsonObject, last);
      }
    } else if (op.length === 3) {
      if (op[2] !== 1 || !Array.isArray(parent) || !isIndex(last, parent.length + 1)) return undefined;
      parent.splice(last, 0, op[1]);
    } else {
      if (Array.isArray(parent) ? !isIndex(last, parent.length) : typeof last !== 'string') return undefined;
      put(parent, last as string | number, op[1]);
    }
  }
  return root as Message[];
}

function isIndex(key: unknown, length: number): key is number {
  return typeof key === 'number' && Number.isInteger(key) && key >= 0 && key < length;
}

/** The own value at `key` (an index of an array, a key of an object), or undefined. */
function ownValue(parent: unknown[] | Record<string, unknown>, key: unknown): unknown {
  if (Array.isArray(parent)) return isIndex(key, parent.length) ? parent[key] : undefined;
  return typeof key === 'string' && Object.hasOwn(parent, key) ? parent[key] : undefined;
}

/** Sets an own property; defineProperty, so a key such as `__proto__` stays a plain key. */
function put(parent: unknown[] | Record<string, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(parent, key, { value, writable: true, enumerable: true, configurable: true });
}
