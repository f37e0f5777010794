/**
 * JSON Schema -> Gemini `Schema` (the OpenAPI 3.0 subset that FunctionDeclaration.parameters and
 * GenerationConfig.responseSchema take). The fields come from the v1beta proto's `Schema` message:
 * type, format, title, description, nullable, enum, items, minItems, maxItems, properties,
 * required, minProperties, maxProperties, minimum, maximum, minLength, maxLength, pattern,
 * example, anyOf, propertyOrdering, default. Anything else is rejected by the API, so it is
 * rewritten where an equivalent exists (`$ref` inlined, `type: [t, "null"]` -> nullable,
 * `oneOf` -> anyOf, `const` -> enum) or dropped, and every rewrite is reported with its path.
 * A schema that already fits comes back as the same object, so Gemini -> Gemini stays exact.
 * (`parametersJsonSchema` / `responseJsonSchema` take JSON Schema and are written verbatim.)
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { childPath } from '../shared/child-path.js';
import { withoutKey } from '../shared/delete-keys.js';

const KEEP = new Set([
  'type', 'format', 'title', 'description', 'nullable', 'enum', 'items', 'minItems', 'maxItems', 'properties', 'required',
  'minProperties', 'maxProperties', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'example', 'anyOf',
  'propertyOrdering', 'default',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

interface Walk {
  root: JsonObject;
  losses: LossSink;
  /** $ref targets being inlined, to stop at cycles. */
  stack: string[];
}

function report(w: Walk, path: Path, message: string, dropped: boolean): void {
  w.losses.push({ code: 'schema-rewrite', path, message, action: dropped ? 'dropped' : 'approximated' });
}

/** Resolves a local `#/$defs/x` or `#/definitions/x` pointer. */
function resolve(root: JsonObject, ref: string): JsonObject | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let at: JsonValue | undefined = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    at = isJsonObject(at) ? at[key] : undefined;
  }
  return isJsonObject(at) ? at : undefined;
}

/** Rewrites `schema` for Gemini's Schema; returns the same object when nothing had to change. */
export function toGeminiSchema(schema: JsonObject, path: Path, losses: LossSink): JsonObject {
  return node(schema, path, { root: schema, losses, stack: [] });
}

function node(s: JsonObject, path: Path, w: Walk): JsonObject {
  const ref = s['$ref'];
  if (typeof ref === 'string') {
    const target = resolve(w.root, ref);
    if (target === undefined || w.stack.includes(ref)) {
      report(w, path, target === undefined ? `$ref '${ref}' cannot be resolved; an unconstrained object is sent` : `recursive $ref '${ref}' cannot be inlined; an unconstrained object is sent`, true);
      return { type: 'object' };
    }
    report(w, path, `$ref '${ref}' inlined`, false);
    const { $ref: _ref, ...siblings } = s;
    w.stack.push(ref);
    const out = node({ ...target, ...siblings }, path, w);
    w.stack.pop();
    return out;
  }
  // A copy is made on the first change; paths are made only for a report or a child (nearly every
  // key of a client's schema is kept as it is).
  let out: JsonObject | undefined;
  for (const key in s) {
    const v = s[key] as JsonValue;
    switch (key) {
      case 'type':
        if (Array.isArray(v)) out = typeList(v, s, childPath(path, key), w, out);
        break;
      case 'properties':
        if (isJsonObject(v)) {
          const props = nodeProperties(v, childPath(path, key), w);
          if (props !== v) out = put(out, s, key, props);
        }
        break;
      case 'items':
        if (isJsonObject(v)) {
          const items = node(v, childPath(path, key), w);
          if (items !== v) out = put(out, s, key, items);
        } else {
          report(w, childPath(path, key), 'tuple items are not supported; dropped', true);
          out = put(out, s, key, undefined);
        }
        break;
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(v)) {
          const at = [...path, key];
          const list = nodeList(v, at, w);
          if (key === 'oneOf') {
            report(w, at, 'oneOf sent as anyOf', false);
            out = put(out, s, 'oneOf', undefined);
            out = put(out, s, 'anyOf', list);
          } else if (list !== v) out = put(out, s, key, list);
        }
        break;
      case 'const':
        report(w, childPath(path, key), 'const sent as a one-value enum', false);
        out = put(out, s, 'const', undefined);
        out = put(out, s, 'enum', [typeof v === 'string' ? v : JSON.stringify(v)]);
        break;
      case 'enum':
        if (Array.isArray(v) && !v.every((x) => typeof x === 'string')) {
          report(w, childPath(path, key), 'Gemini enums hold strings; the values are sent as strings', false);
          out = put(out, s, key, v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
        }
        break;
      case '$defs':
      case 'definitions':
        report(w, childPath(path, key), 'definitions are inlined where referenced', false);
        out = put(out, s, key, undefined);
        break;
      default:
        if (!KEEP.has(key)) {
          report(w, childPath(path, key), `'${key}' is not part of Gemini's Schema; dropped`, true);
          out = put(out, s, key, undefined);
        }
    }
  }
  return out ?? s;
}

/**
 * Sets (or, for undefined, removes) `key` on the copy of `s`, made now if there is none yet. A
 * removal makes a new copy without the key: `delete` would leave the schema, handed out once per
 * tool, a slow V8 dictionary (bench/fast-properties.ts).
 */
function put(out: JsonObject | undefined, s: JsonObject, key: string, value: JsonValue | undefined): JsonObject {
  if (value === undefined) return withoutKey(out ?? s, key);
  const copy = out ?? { ...s };
  copy[key] = value;
  return copy;
}

/** `properties`, each schema rewritten; the same object when none changed. */
function nodeProperties(props: JsonObject, at: Path, w: Walk): JsonObject {
  let out: JsonObject | undefined;
  for (const name in props) {
    const p = props[name] as JsonValue;
    const next = isJsonObject(p) ? node(p, childPath(at, name), w) : p;
    if (next !== p) (out ??= { ...props })[name] = next;
  }
  return out ?? props;
}

/** `anyOf` / `oneOf` members rewritten; the same array when none changed. */
function nodeList(list: JsonValue[], at: Path, w: Walk): JsonValue[] {
  let out: JsonValue[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const x = list[i] as JsonValue;
    const next = isJsonObject(x) ? node(x, childPath(at, i), w) : x;
    if (next !== x) (out ??= [...list])[i] = next;
  }
  return out ?? list;
}

/** `type: [t, 'null']` -> type t + nullable; several non-null types -> anyOf. Returns the (possibly new) copy of `s`. */
function typeList(list: JsonValue[], s: JsonObject, at: Path, w: Walk, out: JsonObject | undefined): JsonObject {
  const types = list.filter((t): t is string => typeof t === 'string' && TYPES.has(t));
  const nonNull = types.filter((t) => t !== 'null');
  if (types.length !== list.length) report(w, at, 'unknown type names dropped', true);
  if (nonNull.length < types.length) {
    out = put(out, s, 'nullable', true);
    report(w, at, "type 'null' in a type list sent as nullable", false);
  }
  if (nonNull.length === 1) return put(out, s, 'type', nonNull[0]);
  if (nonNull.length === 0) return put(out, s, 'type', types.length > 0 ? 'null' : undefined);
  report(w, at, 'a list of types sent as anyOf', false);
  if (s['anyOf'] === undefined) out = put(out, s, 'anyOf', nonNull.map((t) => ({ type: t })));
  return put(out, s, 'type', undefined);
}

function mapValues(obj: JsonObject, fn: (v: JsonValue, key: string) => JsonValue): JsonObject {
  let out: JsonObject | undefined;
  for (const key in obj) {
    const v = obj[key] as JsonValue;
    const next = fn(v, key);
    if (next !== v) (out ??= { ...obj })[key] = next;
  }
  return out ?? obj;
}

const UPPER: { [k: string]: string } = { STRING: 'string', NUMBER: 'number', INTEGER: 'integer', BOOLEAN: 'boolean', ARRAY: 'array', OBJECT: 'object', NULL: 'null' };

/**
 * Google's SDKs write Schema types in upper case (`OBJECT`); JSON Schema, the canonical form, uses
 * lower case. Returns a lower-cased copy when every type in the schema is upper case (the decoder
 * then leaves a hint to restore it), else undefined.
 */
export function lowerTypes(schema: JsonObject): JsonObject | undefined {
  // Counted first: a client's schema is nearly always lower case already, and then no copy is built.
  const counts = { upper: 0, lower: 0 };
  countTypes(schema, counts);
  if (counts.upper === 0 || counts.lower > 0) return undefined;
  const walk = (v: JsonValue, inSchema: boolean): JsonValue => {
    if (Array.isArray(v)) return inSchema ? v.map((x) => walk(x, true)) : v;
    if (!isJsonObject(v)) return v;
    const out: JsonObject = {};
    for (const key in v) {
      const x = v[key] as JsonValue;
      if (key === 'type' && typeof x === 'string') out[key] = UPPER[x] ?? x;
      else if (key === 'properties' && isJsonObject(x)) out[key] = mapValues(x, (p) => walk(p, true));
      else if (key === 'items' || key === 'anyOf') out[key] = walk(x, true);
      else out[key] = x;
    }
    return out;
  };
  return walk(schema, true) as JsonObject;
}

/** lowerTypes' walk without the copy: how many `type` strings are Schema's upper-case names, how many not. */
function countTypes(v: JsonValue, counts: { upper: number; lower: number }): void {
  if (Array.isArray(v)) {
    for (const x of v) countTypes(x, counts);
    return;
  }
  if (!isJsonObject(v)) return;
  for (const key in v) {
    const x = v[key] as JsonValue;
    if (key === 'type' && typeof x === 'string') {
      if (UPPER[x] !== undefined) counts.upper++;
      else counts.lower++;
    } else if (key === 'properties' && isJsonObject(x)) {
      for (const name in x) countTypes(x[name] as JsonValue, counts);
    } else if (key === 'items' || key === 'anyOf') countTypes(x, counts);
  }
}

/** Upper-cases Schema types again (the inverse of lowerTypes). */
export function upperTypes(schema: JsonObject): JsonObject {
  const walk = (v: JsonValue): JsonValue => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isJsonObject(v)) return v;
    const out: JsonObject = {};
    for (const key in v) {
      const x = v[key] as JsonValue;
      if (key === 'type' && typeof x === 'string' && TYPES.has(x)) out[key] = x.toUpperCase();
      else if (key === 'properties' && isJsonObject(x)) out[key] = mapValues(x, walk);
      else if (key === 'items' || key === 'anyOf') out[key] = walk(x);
      else out[key] = x;
    }
    return out;
  };
  return walk(schema) as JsonObject;
}
