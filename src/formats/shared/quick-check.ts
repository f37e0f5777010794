/**
 * A yes/no validator compiled from a zod schema, for the hot path of decoding: it walks the input
 * without building zod's payloads, output copies and issue objects. A codec asks it first and runs
 * the full zod schema only when it says no, so the issues a caller sees are zod's own, unchanged.
 *
 * Contract: `quickCheck(schema)(v) === true` implies `schema.safeParse(v).success`. Saying no is
 * always safe (zod then decides), so anything this walker does not model exactly compiles to
 * "ask zod for this node" or to a stricter test. Kinds modelled: string, number (int, bounds),
 * boolean, null, unknown, any, enum, literal, optional, nullable, array, object (unknown keys
 * accepted, as zod's default), record, union and lazy (recursive schemas such as z.json()). A
 * refinement zod cannot show us (superRefine) is modelled by registering a predicate for that
 * schema with `withQuickCheck`.
 */
import { z } from 'zod';

export type Check = (value: unknown) => boolean;
type Compile = (schema: z.ZodType) => Check;

/** What a node looks like inside (zod v4's `_zod.def`), read defensively. */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  [key: string]: unknown;
}
interface CheckDef {
  check: string;
  [key: string]: unknown;
}

const registered = new WeakMap<object, (compile: Compile) => Check>();

/**
 * Registers the quick form of a schema whose rules zod keeps in a closure (a superRefine). The
 * predicate must accept nothing the schema rejects; `compile` gives the quick form of a child.
 */
export function withQuickCheck<T extends z.ZodType>(schema: T, build: (compile: Compile) => Check): T {
  registered.set(schema, build);
  return schema;
}

const cache = new WeakMap<object, Check>();

/** The quick validator of a schema (compiled once per schema object, children shared). */
export function quickCheck(schema: z.ZodType): Check {
  return compile(schema);
}

function compile(schema: z.ZodType): Check {
  let check = cache.get(schema);
  if (check !== undefined) return check;
  const custom = registered.get(schema);
  check = custom !== undefined ? custom(compile) : (node(schema, schema._zod.def as unknown as Def) ?? ((v) => schema.safeParse(v).success));
  cache.set(schema, check);
  return check;
}

/**
 * The quick form of z.json() (register it with withQuickCheck): strings, finite numbers, booleans,
 * null, and arrays and plain objects of those. One recursive function rather than z.json()'s
 * lazy union of six options, since tool inputs and results are the bulk of a body.
 */
export function isJsonData(v: unknown): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!isJsonData(v[i])) return false;
        return true;
      }
      if (!isPlainObject(v) || Object.getOwnPropertySymbols(v).length > 0) return false;
      const obj = v as Record<string, unknown>;
      for (const key in obj) if (!Object.hasOwn(obj, key) || !isJsonData(obj[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isPlainObject = z.core.util.isPlainObject;

/** The quick form of one node, or undefined when it is not modelled exactly. */
function node(schema: z.ZodType, def: Def): Check | undefined {
  const checks = def.checks ?? [];
  switch (def.type) {
    case 'string':
      return def['coerce'] === true || def['check'] !== undefined ? undefined : withChecks((v) => typeof v === 'string', checks);
    case 'number':
      return numberNode(def, checks);
    case 'boolean':
      return def['coerce'] === true || checks.length > 0 ? undefined : (v) => typeof v === 'boolean';
    case 'null':
      return checks.length > 0 ? undefined : (v) => v === null;
    case 'unknown':
    case 'any':
      return checks.length > 0 ? undefined : () => true;
    case 'enum':
    case 'literal': {
      const values = schema._zod.values;
      return values === undefined || checks.length > 0 ? undefined : (v) => values.has(v as never);
    }
    case 'optional': {
      // exactOptional() shares the type name but does not accept undefined.
      if (schema._zod.traits.has('$ZodExactOptional') || checks.length > 0) return undefined;
      const inner = compile(def['innerType'] as z.ZodType);
      return (v) => v === undefined || inner(v);
    }
    case 'nullable': {
      if (checks.length > 0) return undefined;
      const inner = compile(def['innerType'] as z.ZodType);
      return (v) => v === null || inner(v);
    }
    case 'array': {
      const element = compile(def['element'] as z.ZodType);
      // An index loop, not every(): every() skips the holes of a sparse array, zod reads them as undefined.
      return withChecks((v) => {
        if (!Array.isArray(v)) return false;
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      }, checks);
    }
    case 'object':
      return objectNode(def, checks);
    case 'record':
      return recordNode(def, checks);
    case 'union':
      return unionNode(def, checks);
    case 'lazy': {
      if (checks.length > 0) return undefined;
      // A recursive schema reaches itself again: a forwarder in the cache closes the loop.
      let inner: Check | undefined;
      const forward: Check = (v) => (inner ??= compile((schema._zod as unknown as { innerType: z.ZodType }).innerType))(v);
      cache.set(schema, forward);
      return forward;
    }
    default:
      return undefined;
  }
}

function numberNode(def: Def, checks: Def['checks'] & object): Check | undefined {
  if (def['coerce'] === true) return undefined;
  // z.int() is itself a number-format check.
  const own = def['check'] === 'number_format' ? [{ _zod: { def: def as unknown as CheckDef } }] : [];
  if (def['check'] !== undefined && own.length === 0) return undefined;
  return withChecks((v) => typeof v === 'number' && Number.isFinite(v), [...own, ...checks]);
}

/** Adds a node's checks to its type test; undefined if one of them is not modelled. */
function withChecks(type: Check, checks: NonNullable<Def['checks']>): Check | undefined {
  const tests: Check[] = [type];
  for (const c of checks) {
    const test = checkTest(c._zod.def);
    if (test === undefined) return undefined;
    tests.push(test);
  }
  if (tests.length === 1) return type;
  return (v) => {
    for (const t of tests) if (!t(v)) return false;
    return true;
  };
}

function checkTest(def: CheckDef): Check | undefined {
  switch (def.check) {
    case 'min_length': {
      // zod counts a string's code points; at least `min` UTF-16 units and no surrogate is proof
      // enough, and anything in doubt goes to zod.
      const min = def['minimum'] as number;
      return (v) => ((v as { length: number }).length >= min && (typeof v !== 'string' || v.length >= 2 * min || !/[\uD800-\uDFFF]/.test(v)));
    }
    case 'max_length': {
      // Code points never outnumber UTF-16 units.
      const max = def['maximum'] as number;
      return (v) => (v as { length: number }).length <= max;
    }
    case 'string_format': {
      const pattern = def['pattern'];
      if (def['format'] !== 'regex' || !(pattern instanceof RegExp)) return undefined;
      return (v) => {
        pattern.lastIndex = 0;
        return pattern.test(v as string);
      };
    }
    case 'greater_than': {
      const min = def['value'];
      if (typeof min !== 'number') return undefined;
      return def['inclusive'] === true ? (v) => (v as number) >= min : (v) => (v as number) > min;
    }
    case 'less_than': {
      const max = def['value'];
      if (typeof max !== 'number') return undefined;
      return def['inclusive'] === true ? (v) => (v as number) <= max : (v) => (v as number) < max;
    }
    case 'number_format':
      return def['format'] === 'safeint' ? (v) => Number.isSafeInteger(v) : undefined;
    default:
      return undefined;
  }
}

/**
 * zod reads every shape key of the input; the quick form reads the input's own keys instead (a
 * wire object holds a few of its schema's many optional fields), plus the required ones. A value
 * with another prototype could inherit a field, so it goes to zod.
 */
function objectNode(def: Def, checks: NonNullable<Def['checks']>): Check | undefined {
  if (checks.length > 0 || def['catchall'] !== undefined) return undefined;
  const shape = def['shape'] as Record<string, z.ZodType>;
  const optional = new Map<string, Check>();
  const required: [string, Check][] = [];
  for (const key in shape) {
    const check = compile(shape[key] as z.ZodType);
    if (check(undefined)) optional.set(key, check);
    else required.push([key, check]);
  }
  return (v) => {
    if (!isObject(v)) return false;
    const proto = Object.getPrototypeOf(v) as unknown;
    if (proto !== Object.prototype && proto !== null) return false;
    for (const [key, check] of required) if (!check(v[key])) return false;
    for (const key in v) {
      const check = optional.get(key);
      if (check !== undefined && !check(v[key])) return false;
    }
    return true;
  };
}

function recordNode(def: Def, checks: NonNullable<Def['checks']>): Check | undefined {
  const keyType = def['keyType'] as z.ZodType;
  if (checks.length > 0 || def['mode'] === 'loose' || keyType._zod.values !== undefined) return undefined;
  const keyCheck = compile(keyType);
  const valueCheck = compile(def['valueType'] as z.ZodType);
  return (v) => {
    if (!isPlainObject(v)) return false;
    // A symbol key fails a string key schema in zod; JSON has none.
    if (Object.getOwnPropertySymbols(v).length > 0) return false;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) return false;
      if (!keyCheck(key) || !valueCheck(v[key])) return false;
    }
    return true;
  };
}

function unionNode(def: Def, checks: NonNullable<Def['checks']>): Check | undefined {
  // An exclusive union (z.xor) fails when two options match; a discriminated one picks by key.
  if (checks.length > 0 || def['inclusive'] === false || def['discriminator'] !== undefined) return undefined;
  const options = (def['options'] as z.ZodType[]).map(compile);
  return (v) => {
    for (const o of options) if (o(v)) return true;
    return false;
  };
}
