/**
 * AgentCore Memory test support: the codec's request kind over whole bodies, conversions through
 * the canonical model with the codec object (the format is not registered yet), the Camunda
 * vectors of test/fixtures/agentcore-memory, and payload builders.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentcoreMemory } from '../../../src/formats/agentcore-memory/index.js';
import { DEFAULT_LIMITS, type Codec } from '../../../src/formats/codec.js';
import { ValidationError } from '../../../src/model/errors.js';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';

export const codec: Codec = agentcoreMemory;
export const request = agentcoreMemory.request!;

export const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

export function decode(body: unknown): { req: Request; losses: Loss[] } {
  const losses: Loss[] = [];
  return { req: request.decode(body, { limits: DEFAULT_LIMITS, losses }), losses };
}

export function encode(req: Request, preserve = false): { body: JsonObject; losses: Loss[] } {
  const losses: Loss[] = [];
  return { body: json(request.encode(req, { preserve, losses })) as JsonObject, losses };
}

/** body (format `from`) -> canonical -> format `to`, with JSON in between as on a wire. */
export function via(from: Codec, to: Codec, body: unknown, preserve: boolean): { value: unknown; losses: Loss[] } {
  const losses: Loss[] = [];
  const req = from.request!.decode(body, { limits: DEFAULT_LIMITS, losses });
  return { value: json(to.request!.encode(req, { preserve, losses })), losses };
}

/** The issues of a body the decoder must refuse. */
export function issuesOf(body: unknown): { path: (string | number)[]; message: string; code: string }[] {
  try {
    decode(body);
  } catch (e) {
    if (e instanceof ValidationError) return e.issues.map((i) => ({ path: i.path, message: i.message, code: i.code }));
    throw e;
  }
  throw new Error('decoded without error');
}

/** `v` without this format's private `$` hints (hints say how a wire was laid out, not what it says). */
export function withoutHints<T>(v: T, keep: readonly string[] = []): T {
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (x === null || typeof x !== 'object') return x;
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(x)) {
      if (k === 'ext' && val !== null && typeof val === 'object') {
        const ext: Record<string, unknown> = { ...(val as Record<string, unknown>) };
        const own = ext['agentcore-memory'] as Record<string, unknown> | undefined;
        if (own) {
          const rest = Object.fromEntries(Object.entries(own).filter(([h]) => !h.startsWith('$') || keep.includes(h)));
          if (Object.keys(rest).length > 0) ext['agentcore-memory'] = walk(rest);
          else delete ext['agentcore-memory'];
        }
        if (Object.keys(ext).length > 0) out[k] = ext;
        continue;
      }
      out[k] = walk(val);
    }
    return out;
  };
  return walk(v) as T;
}

export const conv = (role: string, text: string): JsonObject => ({ conversational: { role, content: { text } } });
export const blob = (o: JsonValue): JsonObject => ({ blob: JSON.stringify(o) });

export interface MapperVector {
  name: number;
  test: string;
  message: Message | null;
  camunda: { payload?: JsonObject[] } | null;
  ourMetaBlob: boolean;
  eventMetadata?: Record<string, string>;
  summaryJson?: JsonValue;
  expectLoss?: string;
  note?: string;
}
export interface EnvelopeVector {
  test: string;
  blob: string;
  ok?: { blobType: string; parts: JsonObject[]; metadata?: JsonObject };
  error?: string[];
  path?: (string | number)[];
}
export interface StoreVector {
  test: string;
  note?: string;
  messages: Message[];
  body: { events: JsonObject[] };
  write?: boolean;
}
export interface CamundaVectors {
  mapper: MapperVector[];
  envelope: EnvelopeVector[];
  store: StoreVector[];
}

export const VECTORS = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'agentcore-memory/camunda-vectors.json'), 'utf8')) as CamundaVectors;

/** What a payload is, for comparing layouts: `USER:<text>`, or the blob's type. */
export function shape(p: JsonObject): string {
  const c = p['conversational'] as JsonObject | undefined;
  if (c) return `${String(c['role'])}:${String((c['content'] as JsonObject)['text'])}`;
  const b = p['blob'];
  const v = typeof b === 'string' ? (JSON.parse(b) as JsonValue) : b;
  if (Array.isArray(v)) return 'bare-tool-calls';
  return String((v as JsonObject)['blobType']);
}
