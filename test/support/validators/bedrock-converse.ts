/**
 * Schema oracle for Bedrock Converse bodies, driven by the official Smithy model (JSON AST subset
 * in test/fixtures/schemas/bedrock-runtime-converse.smithy.json, extracted from
 * ../shared/fixtures/schemas/aws/bedrock-runtime.smithy.json by extract-bedrock.ts).
 *
 * `validateBedrockConverse(kind, value)` returns one message per problem, each starting with the
 * JSON path (`messages[0].content[1].toolUse.name: ...`); empty means valid. It checks structures
 * (required members), unions (exactly one member set), enums, lists, maps, documents, and the
 * length / pattern / range traits, as the AWS JSON protocol sends them:
 * - blobs are base64 text (a `length` trait counts the decoded bytes);
 * - a `null` member counts as unset;
 * - `httpLabel` members (`modelId`) travel in the URL: optional in the body, checked if present;
 * - unknown members of a structure are errors in a request (nothing outside the model may be
 *   sent) and accepted in a response (Smithy clients must ignore members newer than their model;
 *   real responses carry some, e.g. usage.cacheReadInputTokenCount). Likewise an enum value the
 *   model does not list is an error in a request only (Smithy enums are open for clients: a Nova
 *   response carries toolUse.type 'tool_use'). A union member the model does not know is always an
 *   error.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatPath, type Path } from '../../../src/model/loss.js';
import { LOCAL_FIXTURES } from '../captures.js';

export const BEDROCK_SMITHY_FILE = join(LOCAL_FIXTURES, 'schemas/bedrock-runtime-converse.smithy.json');

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Traits = Record<string, Json>;
interface MemberRef {
  target: string;
  traits?: Traits;
}
interface Shape {
  type: string;
  members?: Record<string, MemberRef>;
  member?: MemberRef;
  key?: MemberRef;
  value?: MemberRef;
  traits?: Traits;
}

const NS = 'com.amazonaws.bedrockruntime#';
let shapes: Record<string, Shape> | undefined;

function model(): Record<string, Shape> {
  shapes ??= (JSON.parse(readFileSync(BEDROCK_SMITHY_FILE, 'utf8')) as { shapes: Record<string, Shape> }).shapes;
  return shapes;
}

/** Prelude shapes the model refers to by id. */
const PRELUDE: Record<string, string> = {
  'smithy.api#String': 'string',
  'smithy.api#Boolean': 'boolean',
  'smithy.api#PrimitiveBoolean': 'boolean',
  'smithy.api#Integer': 'integer',
  'smithy.api#PrimitiveInteger': 'integer',
  'smithy.api#Long': 'long',
  'smithy.api#PrimitiveLong': 'long',
  'smithy.api#Float': 'float',
  'smithy.api#Double': 'double',
  'smithy.api#Document': 'document',
  'smithy.api#Blob': 'blob',
  'smithy.api#Timestamp': 'timestamp',
};

function shapeOf(id: string): Shape {
  const prelude = PRELUDE[id];
  if (prelude) return { type: prelude };
  const s = model()[id];
  if (!s) throw new Error(`Smithy shape ${id} is not in the extracted model`);
  return s;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const patterns = new Map<string, RegExp>();

function pattern(p: string): RegExp {
  let re = patterns.get(p);
  if (!re) {
    try {
      re = new RegExp(p, 'u');
    } catch {
      re = new RegExp(p);
    }
    patterns.set(p, re);
  }
  return re;
}

interface Ctx {
  kind: 'request' | 'response';
  errors: string[];
}

function err(ctx: Ctx, path: Path, message: string): void {
  ctx.errors.push(`${formatPath(path)}: ${message}`);
}

/** Length / pattern / range / enum traits of the shape and of the member that targets it. */
function checkTraits(value: unknown, traits: Traits, path: Path, ctx: Ctx, size: number | undefined): void {
  const length = traits['smithy.api#length'];
  if (isObj(length) && size !== undefined) {
    const { min, max } = length as { min?: number; max?: number };
    if (min !== undefined && size < min) err(ctx, path, `length ${size} is below the minimum ${min}`);
    if (max !== undefined && size > max) err(ctx, path, `length ${size} is above the maximum ${max}`);
  }
  const pat = traits['smithy.api#pattern'];
  if (typeof pat === 'string' && typeof value === 'string' && !pattern(pat).test(value)) err(ctx, path, `does not match the pattern ${pat}`);
  const range = traits['smithy.api#range'];
  if (isObj(range) && typeof value === 'number') {
    const { min, max } = range as { min?: number; max?: number };
    if (min !== undefined && value < min) err(ctx, path, `${value} is below the minimum ${min}`);
    if (max !== undefined && value > max) err(ctx, path, `${value} is above the maximum ${max}`);
  }
}

function sizeOf(shape: Shape, value: unknown): number | undefined {
  if (typeof value === 'string') return shape.type === 'blob' ? Buffer.from(value, 'base64').length : [...value].length;
  if (Array.isArray(value)) return value.length;
  if (isObj(value)) return Object.keys(value).length;
  return undefined;
}

function check(id: string, memberTraits: Traits | undefined, value: unknown, path: Path, ctx: Ctx): void {
  const shape = shapeOf(id);
  const traits = { ...shape.traits, ...memberTraits };
  switch (shape.type) {
    case 'structure':
      return checkStructure(shape, value, path, ctx);
    case 'union':
      return checkUnion(shape, value, path, ctx);
    case 'list':
      if (!Array.isArray(value)) return err(ctx, path, 'expected a list');
      value.forEach((item, i) => check(shape.member!.target, shape.member!.traits, item, [...path, i], ctx));
      break;
    case 'map':
      if (!isObj(value)) return err(ctx, path, 'expected a map (JSON object)');
      for (const [k, v] of Object.entries(value)) {
        check(shape.key!.target, shape.key!.traits, k, [...path, k], ctx);
        check(shape.value!.target, shape.value!.traits, v, [...path, k], ctx);
      }
      break;
    case 'string':
      if (typeof value !== 'string') return err(ctx, path, 'expected a string');
      break;
    case 'enum': {
      if (typeof value !== 'string') return err(ctx, path, 'expected a string enum value');
      const values = Object.values(shape.members ?? {}).map((m) => m.traits?.['smithy.api#enumValue']);
      if (!values.includes(value) && ctx.kind === 'request') err(ctx, path, `'${value}' is not one of ${values.join(', ')}`);
      break;
    }
    case 'integer':
    case 'long':
      if (typeof value !== 'number' || !Number.isInteger(value)) return err(ctx, path, 'expected an integer');
      if (shape.type === 'integer' && (value > 2147483647 || value < -2147483648)) err(ctx, path, 'outside the 32-bit integer range');
      break;
    case 'float':
    case 'double':
      if (typeof value !== 'number') return err(ctx, path, 'expected a number');
      break;
    case 'boolean':
      if (typeof value !== 'boolean') return err(ctx, path, 'expected a boolean');
      break;
    case 'blob':
      if (typeof value !== 'string' || !BASE64.test(value)) return err(ctx, path, 'expected base64 text (a blob)');
      break;
    case 'document':
      return;
    default:
      return err(ctx, path, `unsupported Smithy shape type ${shape.type}`);
  }
  checkTraits(value, traits, path, ctx, sizeOf(shape, value));
}

function checkStructure(shape: Shape, value: unknown, path: Path, ctx: Ctx): void {
  if (!isObj(value)) return err(ctx, path, 'expected an object');
  const members = shape.members ?? {};
  for (const [name, m] of Object.entries(members)) {
    const v = value[name];
    const label = m.traits?.['smithy.api#httpLabel'] !== undefined;
    if (v === undefined || v === null) {
      if (m.traits?.['smithy.api#required'] !== undefined && !label) err(ctx, [...path, name], 'required member is missing');
      continue;
    }
    check(m.target, m.traits, v, [...path, name], ctx);
  }
  if (ctx.kind === 'request') {
    for (const key of Object.keys(value)) if (!(key in members)) err(ctx, [...path, key], 'not a member of the model');
  }
}

function checkUnion(shape: Shape, value: unknown, path: Path, ctx: Ctx): void {
  if (!isObj(value)) return err(ctx, path, 'expected a union object with exactly one member');
  const members = shape.members ?? {};
  const set = Object.keys(value).filter((k) => value[k] !== null && value[k] !== undefined);
  for (const key of set) if (!(key in members)) err(ctx, [...path, key], `not a member of the union (${Object.keys(members).join(', ')})`);
  const known = set.filter((k) => k in members);
  if (set.length !== 1) {
    err(ctx, path, `a union sets exactly one member; found ${set.length === 0 ? 'none' : set.join(', ')}`);
  }
  for (const key of known) check(members[key]!.target, members[key]!.traits, value[key], [...path, key], ctx);
}

export function validateBedrockConverse(kind: 'request' | 'response', value: unknown): string[] {
  const ctx: Ctx = { kind, errors: [] };
  check(NS + (kind === 'request' ? 'ConverseRequest' : 'ConverseResponse'), undefined, value, [], ctx);
  return ctx.errors;
}

/**
 * The same body in the SDK's in-memory shape: blobs as Uint8Array (the SDK's type for them),
 * everything else unchanged. Used to hand our JSON to @aws-sdk/client-bedrock-runtime.
 */
export function toSdkShape(kind: 'request' | 'response', value: unknown): unknown {
  return convert(NS + (kind === 'request' ? 'ConverseRequest' : 'ConverseResponse'), value);
}

function convert(id: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  const shape = shapeOf(id);
  switch (shape.type) {
    case 'blob':
      return typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'base64')) : value;
    case 'structure':
    case 'union': {
      if (!isObj(value)) return value;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const m = shape.members?.[k];
        out[k] = m ? convert(m.target, v) : v;
      }
      return out;
    }
    case 'list':
      return Array.isArray(value) ? value.map((v) => convert(shape.member!.target, v)) : value;
    case 'map':
      return isObj(value) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, convert(shape.value!.target, v)])) : value;
    default:
      return value;
  }
}
