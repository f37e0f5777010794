/**
 * Validators for OpenAI Responses bodies built from the official OpenAPI document: the extracted
 * subset in test/fixtures/schemas/openai-responses.json (CreateResponse = the POST /v1/responses
 * body, Response = the non-streaming response), turned into JSON Schema 2020-12 by
 * test/support/openapi.ts exactly as for Chat Completions.
 *
 * validateOpenaiResponses(kind, value) checks the schema as published (unknown keys allowed, as
 * the spec does not forbid them); validateOpenaiResponsesClosed also refuses any key the spec
 * does not define, for bodies whose every key an encoder wrote. Both return one line per problem,
 * each starting with its JSON path (`input[2].content[0].type: ...`); an empty list means valid.
 *
 * A failing `oneOf` (an input item matches none of ~30 item schemas) yields one error per
 * alternative; the lines keep the deepest ones and drop the combinator summaries above them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { formatPath } from '../../../src/model/loss.js';
import { LOCAL_FIXTURES } from '../captures.js';
import { buildSchema } from '../openapi.js';

export const OPENAI_RESPONSES_SCHEMA_FILE = join(LOCAL_FIXTURES, 'schemas/openai-responses.json');

type Kind = 'request' | 'response';
const ROOT: Record<Kind, string> = { request: 'CreateResponse', response: 'Response' };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
let compiled: Record<'open' | 'closed', Record<Kind, ValidateFunction>> | undefined;

type Doc = Parameters<typeof buildSchema>[2] & object;
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/**
 * Two translations on top of openapi.ts, both needed by this part of the document only:
 * - one component (CompoundFilter, a file-search filter) uses draft 2019-09 recursion,
 *   `$recursiveAnchor: true` on itself and `$recursiveRef: '#'` inside; JSON Schema 2020-12 has
 *   neither, and with one recursive component both mean a plain $ref to it;
 * - the unions are tagged (`discriminator` on `type`) and some alternatives overlap: a user
 *   message with a content list is both an EasyInputMessage and an InputMessage, which the API
 *   accepts. A tagged union picks one shape, it does not forbid a second match, so `oneOf` is
 *   read as `anyOf` (openapi.ts drops the discriminator).
 */
function translate(doc: Doc): Doc {
  const schemas: Record<string, Json> = {};
  for (const [name, schema] of Object.entries(doc.components.schemas)) {
    const rewrite = (n: Json): Json => {
      if (Array.isArray(n)) return n.map(rewrite);
      if (n === null || typeof n !== 'object') return n;
      const out: { [k: string]: Json } = {};
      for (const [k, v] of Object.entries(n)) {
        if (k === '$recursiveAnchor') continue;
        if (k === '$recursiveRef' && v === '#') out['$ref'] = `#/components/schemas/${name}`;
        else out[k === 'oneOf' ? 'anyOf' : k] = rewrite(v);
      }
      return out;
    };
    schemas[name] = rewrite(schema as Json);
  }
  return { ...doc, components: { schemas } };
}

function validators(): Record<'open' | 'closed', Record<Kind, ValidateFunction>> {
  if (compiled) return compiled;
  const doc = translate(JSON.parse(readFileSync(OPENAI_RESPONSES_SCHEMA_FILE, 'utf8')) as Doc);
  const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true });
  addFormats(ajv);
  // OpenAI's own format for Unix timestamps; the `type` beside it is what matters.
  ajv.addFormat('unixtime', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= 0 });
  const build = (kind: Kind, closed: boolean): ValidateFunction => {
    const schema = buildSchema(ROOT[kind], closed, doc);
    indexAlternatives(schema);
    return ajv.compile(schema);
  };
  compiled = {
    open: { request: build('request', false), response: build('response', false) },
    closed: { request: build('request', true), response: build('response', true) },
  };
  return compiled;
}

/** `/input/0/content` -> `input[0].content`. */
function pathOf(pointer: string): string {
  const segs = pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  return formatPath(segs.map((s) => (/^\d+$/.test(s) ? Number(s) : s)));
}

const COMBINATORS = new Set(['oneOf', 'anyOf', 'if']);

/** The tags union alternatives are told apart by: the item `type`, and for messages the `role`. */
const TAGS = ['type', 'role'] as const;

/** For each tag property schema (`properties.type`, `properties.role`), the object schema it belongs to. */
const alternativeOf = new WeakMap<object, object>();

function indexAlternatives(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(indexAlternatives);
  if (node === null || typeof node !== 'object') return;
  const props = (node as { properties?: Record<string, unknown> }).properties;
  // A nullable tag (`type: anyOf [enum, null]`) fails in its members: map those too.
  const mapTag = (schema: unknown): void => {
    if (typeof schema !== 'object' || schema === null) return;
    alternativeOf.set(schema, node);
    for (const key of ['anyOf', 'oneOf'] as const) {
      const members = (schema as Record<string, unknown>)[key];
      if (Array.isArray(members)) members.forEach(mapTag);
    }
  };
  for (const tag of TAGS) mapTag(props?.[tag]);
  for (const v of Object.values(node)) indexAlternatives(v);
}

const tagOf = (e: ErrorObject): string | undefined => TAGS.find((t) => e.instancePath.endsWith(`/${t}`));
const isTypeMismatch = (e: ErrorObject): boolean => (e.keyword === 'enum' || e.keyword === 'const') && e.instancePath.endsWith('/type');

/** The object path and alternative schema an error rules out, when it is a tag mismatch. */
function ruledOut(e: ErrorObject): { parent: string; alt: object } | undefined {
  const params = e.params as { missingProperty?: string; unevaluatedProperty?: string; additionalProperty?: string };
  // The object has no `type` the alternative requires, or a tag the alternative does not define.
  const foreignTag = params.unevaluatedProperty ?? params.additionalProperty;
  if ((e.keyword === 'required' && params.missingProperty === 'type') || (foreignTag !== undefined && (TAGS as readonly string[]).includes(foreignTag))) {
    return { parent: e.instancePath, alt: e.parentSchema as object };
  }
  const tag = tagOf(e);
  if ((e.keyword !== 'enum' && e.keyword !== 'const') || tag === undefined) return undefined;
  const alt = alternativeOf.get(e.parentSchema as object);
  return alt ? { parent: e.instancePath.slice(0, -(tag.length + 1)), alt } : undefined;
}

/**
 * An object that matches none of a union's alternatives gets errors from every alternative. An
 * alternative whose `type` did not match says nothing about the object, so its errors there are
 * dropped; when no alternative had the object's `type`, one line lists the types allowed.
 */
function relevant(errors: ErrorObject[]): ErrorObject[] {
  const wrong = new Map<string, Set<object>>();
  const allowed = new Map<string, unknown[]>();
  for (const e of errors) {
    const out = ruledOut(e);
    if (out) wrong.set(out.parent, (wrong.get(out.parent) ?? new Set()).add(out.alt));
    if (!isTypeMismatch(e)) continue;
    const parent = e.instancePath.slice(0, -'/type'.length);
    allowed.set(parent, [...(allowed.get(parent) ?? []), ...((e.params as { allowedValues?: unknown[] }).allowedValues ?? [])]);
  }
  const fromWrong = (e: ErrorObject): boolean => {
    if (ruledOut(e)) return true;
    const tag = tagOf(e);
    const parent = tag === undefined ? e.instancePath : e.instancePath.slice(0, -(tag.length + 1));
    return wrong.get(e.instancePath)?.has(e.parentSchema as object) === true || (tag !== undefined && wrong.get(parent)?.has(alternativeOf.get(e.parentSchema as object) ?? {}) === true);
  };
  const kept = errors.filter((e) => !fromWrong(e));
  for (const [parent, values] of allowed) {
    const left = kept.some((e) => !COMBINATORS.has(e.keyword) && (e.instancePath === parent || e.instancePath.startsWith(`${parent}/`)));
    if (!left) kept.push({ instancePath: `${parent}/type`, schemaPath: '', keyword: 'enum', params: { allowedValues: [...new Set(values)] }, message: 'must be one of the types allowed here' });
  }
  return kept;
}

function lines(all: ErrorObject[] | null | undefined): string[] {
  if (!all || all.length === 0) return [];
  const errors = relevant(all);
  const deeper = (e: ErrorObject): boolean => errors.some((o) => o.instancePath.startsWith(`${e.instancePath}/`));
  const beside = (e: ErrorObject): boolean => errors.some((o) => o !== e && !COMBINATORS.has(o.keyword) && o.keyword !== 'type' && o.instancePath === e.instancePath);
  // A union's summary, or an alternative of another JSON type (`input` is a string or a list,
  // `temperature` a number or null), says nothing more when a more specific error there or
  // deeper down explains the failure.
  const out = errors
    .filter((e) => !((COMBINATORS.has(e.keyword) || e.keyword === 'type') && (deeper(e) || beside(e))))
    .map((e) => {
      const params = e.params as { unevaluatedProperty?: string; additionalProperty?: string; allowedValues?: unknown };
      const extra =
        e.keyword === 'unevaluatedProperties' || e.keyword === 'additionalProperties'
          ? ` '${String(params.unevaluatedProperty ?? params.additionalProperty)}'`
          : e.keyword === 'enum'
            ? ` (${JSON.stringify(params.allowedValues)})`
            : '';
      return { depth: e.instancePath.split('/').length, line: `${pathOf(e.instancePath)}: ${e.message ?? e.keyword}${extra}` };
    })
    .sort((a, b) => b.depth - a.depth)
    .map((x) => x.line);
  return [...new Set(out)];
}

/** Validates a Responses request or response body against the published schema. */
export function validateOpenaiResponses(kind: 'request' | 'response', value: unknown): string[] {
  const v = validators().open[kind];
  return v(value) ? [] : lines(v.errors);
}

/** As validateOpenaiResponses, and every object key must be one the spec defines. */
export function validateOpenaiResponsesClosed(kind: 'request' | 'response', value: unknown): string[] {
  const v = validators().closed[kind];
  return v(value) ? [] : lines(v.errors);
}
