/**
 * A deterministic example value for a JSON Schema, used as the mock upstream's tool-call
 * arguments: the same schema always gives the same value, and the value satisfies the common
 * constraints a client validates (types, enums, required properties, bounds, lengths).
 *
 * Rules, in order: `const`, then the first `enum` entry, then `default`, then the first
 * `anyOf`/`oneOf` branch (all `allOf` branches merged), then by type — object: every property
 * (all of them, required or not); array: one item (or `minItems` items); string: the property's
 * name (padded to `minLength`, cut to `maxLength`; a `format` gets a fixed example); integer: 1
 * and number: 1.5 (clamped to minimum/maximum); boolean: true; null: null. No type: a string.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';

/** Deeper schemas get null: a mock has no reason to follow a recursive `$ref`-less schema forever. */
const MAX_DEPTH = 8;

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
};

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function exampleValue(schema: unknown, name = 'value', depth = 0): JsonValue {
  if (!isObject(schema) || depth > MAX_DEPTH) return depth > MAX_DEPTH ? null : name;
  if ('const' in schema) return schema['const'] as JsonValue;
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0] as JsonValue;
  if ('default' in schema) return schema['default'] as JsonValue;
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = schema[key];
    if (Array.isArray(branches)) {
      // Prefer a branch that is not plain null, so optional fields still get a value.
      const branch = branches.find((b) => !(isObject(b) && b['type'] === 'null')) ?? branches[0];
      if (branch !== undefined) return exampleValue(branch, name, depth + 1);
    }
  }
  if (Array.isArray(schema['allOf'])) {
    const merged: JsonObject = {};
    for (const part of schema['allOf']) if (isObject(part)) mergeInto(merged, part);
    return exampleValue(merged, name, depth + 1);
  }
  switch (typeOf(schema)) {
    case 'object':
      return objectValue(schema, depth);
    case 'array': {
      const count = Math.max(1, typeof schema['minItems'] === 'number' ? schema['minItems'] : 1);
      const item = exampleValue(schema['items'], name, depth + 1);
      return Array.from({ length: count }, () => item);
    }
    case 'integer':
      return clamp(1, schema, true);
    case 'number':
      return clamp(1.5, schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return stringValue(schema, name);
  }
}

function typeOf(schema: JsonObject): string | undefined {
  const t = schema['type'];
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return t.find((x): x is string => typeof x === 'string' && x !== 'null') ?? (t.includes('null') ? 'null' : undefined);
  if (isObject(schema['properties'])) return 'object';
  if ('items' in schema) return 'array';
  return undefined;
}

function objectValue(schema: JsonObject, depth: number): JsonObject {
  const out: JsonObject = {};
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  for (const [key, sub] of Object.entries(properties)) out[key] = exampleValue(sub, key, depth + 1);
  // A required name with no property schema still gets a value, so the arguments validate.
  if (Array.isArray(schema['required'])) {
    for (const key of schema['required']) if (typeof key === 'string' && !(key in out)) out[key] = key;
  }
  return out;
}

function stringValue(schema: JsonObject, name: string): string {
  const format = typeof schema['format'] === 'string' ? FORMAT_EXAMPLES[schema['format']] : undefined;
  let text = format ?? name;
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  if (text.length < min) text = text.padEnd(min, 'x');
  return text.length > max ? text.slice(0, max) : text;
}

function clamp(value: number, schema: JsonObject, integer: boolean): number {
  let v = value;
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && v < minimum) v = minimum;
  if (typeof exclusiveMinimum === 'number' && v <= exclusiveMinimum) v = exclusiveMinimum + 1;
  if (typeof maximum === 'number' && v > maximum) v = maximum;
  if (typeof exclusiveMaximum === 'number' && v >= exclusiveMaximum) v = exclusiveMaximum - 1;
  return integer ? Math.ceil(v) : v;
}

function mergeInto(target: JsonObject, part: JsonObject): void {
  for (const [k, v] of Object.entries(part)) {
    const prev = target[k];
    if (k === 'properties' && isObject(prev) && isObject(v)) target[k] = { ...prev, ...v };
    else if (k === 'required' && Array.isArray(prev) && Array.isArray(v)) target[k] = [...prev, ...v];
    else target[k] = v;
  }
}
