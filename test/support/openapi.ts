/**
 * Validators for OpenAI Chat Completions bodies built from the official OpenAPI document (the
 * extracted subset in test/fixtures/schemas/openai-chat-completions.json).
 *
 * The document is OpenAPI 3.1 (JSON Schema 2020-12) but still uses two OpenAPI-only keywords:
 * `nullable` (rewritten here to a `null` type alternative) and `discriminator` (dropped: the
 * `oneOf` it annotates already tells the alternatives apart). Two flavours:
 * - `open`: the schema as published (objects accept unknown keys, as the spec does not forbid them);
 * - `closed`: every object schema also gets `unevaluatedProperties: false`, so a key the spec does
 *   not define fails. Used for bodies whose every key our encoder wrote.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { LOCAL_FIXTURES } from './captures.js';

export const OPENAI_SCHEMA_FILE = join(LOCAL_FIXTURES, 'schemas/openai-chat-completions.json');
const REF_PREFIX = '#/components/schemas/';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObj = { [k: string]: Json };

const isObj = (v: Json | undefined): v is JsonObj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Child positions that hold schemas (as opposed to property-name maps or values like enum/default). */
const SCHEMA_KEYS = new Set(['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'unevaluatedProperties']);
const SCHEMA_LIST_KEYS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', '$defs']);

/** Rewrites one schema node (and its sub-schemas) from OpenAPI to plain JSON Schema 2020-12. */
export function toJsonSchema(node: Json, close: (n: JsonObj) => boolean = () => false): Json {
  if (!isObj(node)) return node;
  const closeThis = close(node);
  const out: JsonObj = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'nullable' || k === 'discriminator') continue;
    if (SCHEMA_KEYS.has(k)) out[k] = toJsonSchema(v, close);
    else if (SCHEMA_LIST_KEYS.has(k) && Array.isArray(v)) out[k] = v.map((s) => toJsonSchema(s, close));
    else if (SCHEMA_MAP_KEYS.has(k) && isObj(v)) {
      out[k] = Object.fromEntries(Object.entries(v).map(([name, s]) => [name, toJsonSchema(s, close)]));
    } else if (k === '$ref' && typeof v === 'string') out[k] = v.replace(REF_PREFIX, '#/$defs/');
    else out[k] = v;
  }
  if (closeThis) out['unevaluatedProperties'] = false;
  if (node['nullable'] !== true) return out;
  const t = out['type'];
  if (typeof t === 'string' && out['$ref'] === undefined) {
    out['type'] = [t, 'null'];
    if (Array.isArray(out['enum']) && !out['enum'].includes(null)) out['enum'] = [...out['enum'], null];
    return out;
  }
  return { anyOf: [out, { type: 'null' }] };
}

interface Doc {
  roots: string[];
  components: { schemas: Record<string, Json> };
}

export function loadOpenAiDoc(): Doc {
  return JSON.parse(readFileSync(OPENAI_SCHEMA_FILE, 'utf8')) as Doc;
}

/** Components used as allOf members (directly or through another such component) must stay open. */
function allOfMembers(schemas: Record<string, Json>): Set<string> {
  const open = new Set<string>();
  const visit = (n: Json, inAllOf: boolean): void => {
    if (Array.isArray(n)) return n.forEach((x) => visit(x, inAllOf));
    if (!isObj(n)) return;
    if (inAllOf && typeof n['$ref'] === 'string') open.add(n['$ref'].slice(REF_PREFIX.length));
    for (const [k, v] of Object.entries(n)) visit(v, k === 'allOf');
  };
  for (const s of Object.values(schemas)) visit(s, false);
  let grew = true;
  while (grew) {
    grew = false;
    for (const name of [...open]) {
      const s = schemas[name];
      const members = isObj(s) && Array.isArray(s['allOf']) ? s['allOf'] : [];
      for (const m of members) {
        const ref = isObj(m) && typeof m['$ref'] === 'string' ? m['$ref'].slice(REF_PREFIX.length) : undefined;
        if (ref !== undefined && !open.has(ref)) {
          open.add(ref);
          grew = true;
        }
      }
    }
  }
  return open;
}

/** Builds the 2020-12 schema for one root component, with every component as a $defs entry. */
export function buildSchema(root: string, closed: boolean, doc: Doc = loadOpenAiDoc()): JsonObj {
  const schemas = doc.components.schemas;
  const keepOpen = allOfMembers(schemas);
  const defs: JsonObj = {};
  for (const [name, schema] of Object.entries(schemas)) {
    const inlineAllOfMembers = new Set<Json>();
    const close = (n: JsonObj): boolean => {
      if (!closed || inlineAllOfMembers.has(n)) return false;
      if (Array.isArray(n['allOf'])) for (const m of n['allOf']) inlineAllOfMembers.add(m);
      if (n === schema && keepOpen.has(name)) return false;
      const isObjectSchema = n['properties'] !== undefined || Array.isArray(n['allOf']);
      return isObjectSchema && n['additionalProperties'] === undefined;
    };
    defs[name] = toJsonSchema(schema, close);
  }
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', $defs: defs, $ref: `#/$defs/${root}` };
}

export interface OpenAiValidators {
  request: ValidateFunction;
  response: ValidateFunction;
  closedRequest: ValidateFunction;
  closedResponse: ValidateFunction;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export function openAiValidators(): OpenAiValidators {
  const doc = loadOpenAiDoc();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // OpenAI's own format for Unix timestamps; the `type: integer` beside it is what matters.
  ajv.addFormat('unixtime', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
  return {
    request: ajv.compile(buildSchema('CreateChatCompletionRequest', false, doc)),
    response: ajv.compile(buildSchema('CreateChatCompletionResponse', false, doc)),
    closedRequest: ajv.compile(buildSchema('CreateChatCompletionRequest', true, doc)),
    closedResponse: ajv.compile(buildSchema('CreateChatCompletionResponse', true, doc)),
  };
}

/**
 * A short, readable list of what failed. oneOf/anyOf failures produce one error per alternative;
 * the deepest paths are the informative ones, so errors are sorted deepest first.
 */
export function describeErrors(errors: ErrorObject[] | null | undefined, max = 8): string {
  if (!errors || errors.length === 0) return '';
  const lines = errors
    .map((e) => {
      const extra = e.keyword === 'unevaluatedProperties' ? ` (${String((e.params as { unevaluatedProperty?: string }).unevaluatedProperty)})` : '';
      return `${e.instancePath || '(root)'} ${e.message ?? e.keyword}${extra}`;
    })
    .sort((a, b) => b.split('/').length - a.split('/').length);
  return [...new Set(lines)].slice(0, max).join('\n');
}

/** Validates and returns '' when valid, otherwise a description of the failures. */
export function check(validate: ValidateFunction, body: unknown): string {
  return validate(body) ? '' : describeErrors(validate.errors) || 'invalid';
}
