/**
 * A yes/no structural check built from a zod schema's definition: one small function per schema
 * node, shared by every place the node is used, building nothing (zod's runtime parse builds the
 * stripped output and a payload per node; `z.compile` inlines every use of a sub-schema, which for
 * Anthropic's request is half a megabyte of code that costs ~170 ms to compile and too big for V8
 * to optimize). It answers "valid" only where zod's runtime would: each node mirrors the runtime's
 * rule for its type (zod/v4/core/schemas.js), and a node it does not model (coercion, defaults,
 * transforms, pipes, tuples, intersections ...) asks the runtime itself, for that node only.
 *
 * Checks (`.min()`, `.int()`, refinements) run through zod's own check functions, on the input
 * value. The runtime gives them its output, which differs from the input only by the keys a strip
 * `z.object` drops and by transforms; a node with checks above a node that is asked at runtime is
 * asked at runtime whole, so transforms never differ. Refinements must therefore read only the
 * keys their object declares (a strip object's undeclared keys are absent at runtime); all of
 * this codebase's do, and test/formats/shared/zod-fast.test.ts compares answers with safeParse.
 */
import { z } from 'zod';
import { generated } from './zod-fast-gen.js';

export type FastCheck = (value: unknown) => boolean;

interface Payload {
  value: unknown;
  issues: unknown[];
}
interface Internals {
  def: Record<string, unknown> & { type: string; checks?: Node[] };
  traits: Set<string>;
  optin?: 'optional' | 'defaulted';
  optout?: 'optional';
  values?: Set<unknown>;
  propValues?: Record<string, Set<unknown>>;
  innerType?: Node;
  check?: (payload: Payload) => unknown;
}
export interface Node {
  _zod: Internals;
}

const built = new WeakMap<object, FastCheck>();
/** Nodes whose check asks zod's runtime somewhere below: a check above them must not see the raw input. */
const impure = new WeakSet<object>();

/** The fast check of `schema`, built once per schema node (shared by every parent using it). */
export function fastCheck(schema: z.core.$ZodType): FastCheck {
  return nodeCheck(schema as unknown as Node);
}

/** The fast forms of schemas whose rule zod keeps in a closure (a superRefine), given by their codec. */
const registered = new WeakMap<object, (compile: (schema: z.core.$ZodType) => FastCheck) => FastCheck>();

/**
 * Registers the fast form of `schema` (e.g. a superRefine zod cannot show the walker), which must
 * accept nothing the schema rejects; `compile` gives the fast form of a child schema. Without it such
 * a node would ask zod's runtime, and so would every node above it.
 */
export function withFastCheck<T extends z.core.$ZodType>(schema: T, build: (compile: (schema: z.core.$ZodType) => FastCheck) => FastCheck): T {
  registered.set(schema, build);
  return schema;
}

function nodeCheck(node: Node): FastCheck {
  const hit = built.get(node);
  if (hit !== undefined) return hit;
  const custom = registered.get(node);
  const check = custom !== undefined ? custom((schema) => nodeCheck(schema as unknown as Node)) : withChecks(node, baseCheck(node));
  built.set(node, check);
  return check;
}

const ok: FastCheck = () => true;
const never: FastCheck = () => false;
const isString: FastCheck = (v) => typeof v === 'string';
const isBoolean: FastCheck = (v) => typeof v === 'boolean';
const isNumber: FastCheck = (v) => typeof v === 'number' && Number.isFinite(v);
const isNull: FastCheck = (v) => v === null;
const isUndefined: FastCheck = (v) => v === undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The node answered by zod's runtime: exact, and marked so that checks above it run at runtime too. */
function runtime(node: Node): FastCheck {
  impure.add(node);
  const schema = node as unknown as z.core.$ZodType;
  return (v) => z.safeParse(schema, v).success;
}

function child(parent: Node, node: Node): FastCheck {
  const check = nodeCheck(node);
  if (impure.has(node)) impure.add(parent);
  return check;
}

function baseCheck(node: Node): FastCheck {
  const def = node._zod.def;
  if (def['coerce'] === true) return runtime(node);
  switch (def.type) {
    case 'string':
      return isString;
    case 'number':
      return isNumber;
    case 'boolean':
      return isBoolean;
    case 'null':
      return isNull;
    case 'undefined':
      return isUndefined;
    case 'any':
    case 'unknown':
    case 'custom': // z.custom parses to itself; its test is its check (below)
      return ok;
    case 'never':
      return never;
    case 'literal':
    case 'enum':
      return valuesCheck(node);
    case 'array':
      return generated(node, (n) => child(node, n)) ?? arrayCheck(child(node, def['element'] as Node));
    case 'object':
      return generated(node, (n) => child(node, n)) ?? objectCheck(node);
    case 'union':
      return unionCheck(node);
    case 'optional':
      return optionalCheck(node);
    case 'nullable': {
      const inner = child(node, def['innerType'] as Node);
      return (v) => v === null || inner(v);
    }
    case 'record':
      return recordCheck(node);
    case 'lazy':
      return lazyCheck(node);
    default:
      return runtime(node);
  }
}

function valuesCheck(node: Node): FastCheck {
  const values = node._zod.values;
  if (values === undefined) return runtime(node);
  return (v) => values.has(v);
}

function arrayCheck(element: FastCheck): FastCheck {
  return (v) => {
    if (!Array.isArray(v)) return false;
    for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
    return true;
  };
}

/** How a declared key may be absent (zod's handlePropertyResult): never, always, or when the schema takes undefined. */
const MUST = 0;
const MAY = 1;
const ASK = 2;

function objectCheck(node: Node): FastCheck {
  const def = node._zod.def;
  const shape = def['shape'] as Record<string, Node>;
  if (Object.getOwnPropertySymbols(shape).length > 0) return runtime(node);
  const keys = Object.keys(shape).filter((k) => k !== '__proto__');
  const checks = keys.map((k) => child(node, shape[k] as Node));
  const absent = keys.map((k) => {
    const { optin, optout } = (shape[k] as Node)._zod;
    if (optout === 'optional' && optin !== undefined) return MAY;
    return optin === undefined ? MUST : ASK;
  });
  const declared = new Set(Object.keys(shape));
  const extra = catchallCheck(node, def['catchall'] as Node | undefined);
  return (v) => {
    if (!isObject(v)) return false;
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      if (key in v) {
        if (!(checks[k] as FastCheck)(v[key])) return false;
      } else {
        const mode = absent[k];
        if (mode === MUST || (mode === ASK && !(checks[k] as FastCheck)(undefined))) return false;
      }
    }
    return extra === undefined || extra(v, declared);
  };
}

/** Undeclared keys: ignored (strip), refused (strict: `never`), or each checked (loose: `unknown`, or a catchall). */
function catchallCheck(node: Node, catchall: Node | undefined): ((v: Record<string, unknown>, declared: Set<string>) => boolean) | undefined {
  if (catchall === undefined) return undefined;
  const type = catchall._zod.def.type;
  if (type === 'never') {
    return (v, declared) => {
      for (const key in v) if (!declared.has(key)) return false;
      return true;
    };
  }
  const each = child(node, catchall);
  if ((type === 'unknown' || type === 'any') && !impure.has(catchall) && (catchall._zod.def.checks?.length ?? 0) === 0) return undefined;
  return (v, declared) => {
    for (const key in v) if (!declared.has(key) && key !== '__proto__' && !each(v[key])) return false;
    return true;
  };
}

function unionCheck(node: Node): FastCheck {
  const def = node._zod.def;
  const options = (def['options'] as Node[]).map((o) => child(node, o));
  if (node._zod.traits.has('$ZodDiscriminatedUnion')) return generated(node, (n) => child(node, n)) ?? discriminatedCheck(node, options);
  if (def['inclusive'] === false) return runtime(node); // z.xor: exactly one option must match
  return (v) => {
    for (const option of options) if (option(v)) return true;
    return false;
  };
}

/** The option for the discriminator's value (as zod's discriminatorMap: a value two options claim picks none). */
function discriminatedCheck(node: Node, options: FastCheck[]): FastCheck {
  const def = node._zod.def;
  const key = def['discriminator'] as string;
  const map = new Map<unknown, FastCheck | null>();
  const nodes = def['options'] as Node[];
  for (let i = 0; i < nodes.length; i++) {
    const values = (nodes[i] as Node)._zod.propValues?.[key];
    if (values === undefined || values.size === 0) return runtime(node);
    for (const value of values) map.set(value, map.has(value) ? null : (options[i] as FastCheck));
  }
  const fallback = def['unionFallback'] === true;
  return (v) => {
    if (!isObject(v)) return false;
    const option = map.get(v[key]);
    if (option) return option(v);
    if (!fallback) return false;
    for (const o of options) if (o(v)) return true;
    return false;
  };
}

function optionalCheck(node: Node): FastCheck {
  const innerNode = node._zod.def['innerType'] as Node;
  const inner = child(node, innerNode);
  if (node._zod.traits.has('$ZodExactOptional')) return inner;
  if (innerNode._zod.optin === 'defaulted') return runtime(node);
  return (v) => v === undefined || inner(v);
}

/** A record keyed by plain strings (what JSON objects are); any other key schema asks the runtime. */
function recordCheck(node: Node): FastCheck {
  const def = node._zod.def;
  const keyType = def['keyType'] as Node;
  const keyDef = keyType._zod.def;
  if (keyDef.type !== 'string' || keyDef['coerce'] === true || (keyDef.checks?.length ?? 0) > 0 || keyType._zod.traits.has('$ZodCheck') || keyType._zod.values !== undefined) {
    return runtime(node);
  }
  const value = child(node, def['valueType'] as Node);
  return (v) => {
    if (!z.util.isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return false;
    for (const key in v) {
      if (!Object.hasOwn(v, key) || key === '__proto__') continue;
      if (!value((v as Record<string, unknown>)[key])) return false;
    }
    return true;
  };
}

/** Resolved on first use: a lazy schema may refer to itself. Marked impure: its inside is not known yet. */
function lazyCheck(node: Node): FastCheck {
  impure.add(node);
  let inner: FastCheck | undefined;
  return (v) => (inner ??= nodeCheck(node._zod.innerType as Node))(v);
}

/** The node's checks, run as zod runs them after a successful parse (a custom `when` decides, else all). */
function withChecks(node: Node, base: FastCheck): FastCheck {
  const own = node._zod.def.checks ?? [];
  const checks = node._zod.traits.has('$ZodCheck') ? [node, ...own] : own;
  if (checks.length === 0) return base;
  const leaf = base === isString || base === isNumber || base === isBoolean || base === ok;
  if (!leaf && impure.has(node)) return runtime(node);
  return (v) => {
    if (!base(v)) return false;
    // One payload for every check run, emptied after: a payload literal per run is garbage, and
    // once V8 pretenures that literal (it may, after a burst of long-lived allocations), each one
    // lands in the old generation holding the body being checked, so every scavenge keeps the body
    // alive (observed: Chat request checks 2x slower, scavenges of 30-200 ms).
    const payload: Payload = sharedBusy ? { value: v, issues: [] } : shared;
    const own = payload === shared;
    if (own) sharedBusy = true;
    payload.value = v;
    try {
      for (const ch of checks) {
        const when = ch._zod.def['when'] as ((p: Payload) => boolean) | undefined;
        if (when !== undefined && !when(payload)) continue;
        const result = ch._zod.check?.(payload);
        if (result instanceof Promise || payload.issues.length > 0) return false;
      }
      return true;
    } finally {
      payload.value = undefined;
      // Setting an array's length is a runtime call even when it is already 0 (~1% of a small
      // response's conversion): only a failed check left issues to drop.
      if (payload.issues.length !== 0) payload.issues.length = 0;
      if (own) sharedBusy = false;
    }
  };
}

/** withChecks' payload, reused (a check that somehow runs inside another gets its own). */
const shared: Payload = { value: undefined, issues: [] };
let sharedBusy = false;
