/**
 * A2A test helpers: the codec run directly (it is not in the registry yet), the v0.3 JSON schema
 * (ajv, draft-07), and @a2a-js/sdk's own server and client as oracles — the server's JSON-RPC
 * transport handler (no HTTP) re-serializes what an executor publishes and enforces the stream
 * rules; the client reads an SSE body through a fake `fetch`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { formatSSEEvent, StreamResponse } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, JsonRpcTransportHandler, ServerCallContext, type AgentExecutor } from '@a2a-js/sdk/server';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import type { StreamEvent, WireEvent } from '../../../src/model/stream-event.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import type { A2aVersion } from '../../../src/formats/a2a/a2a-api.js';
import { decodeRequest } from '../../../src/formats/a2a/request-decode.js';
import { encodeRequest } from '../../../src/formats/a2a/request-encode.js';
import { A2aStreamDecoder } from '../../../src/formats/a2a/stream-decode.js';
import { A2aStreamEncoder } from '../../../src/formats/a2a/stream-encode.js';
import { formatSse } from '../../../src/stream/sse.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';

export const A2A_FIXTURES = join(LOCAL_FIXTURES, 'a2a');

export interface SpecExample {
  index: number;
  section: string;
  parsed: boolean;
  example: JsonValue;
}

export function specExamples(version: 'v1' | 'v0.3.0'): SpecExample[] {
  const file = join(A2A_FIXTURES, `a2a-${version}-spec-json-examples.jsonl`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SpecExample);
}

export function decodeA2aRequest(body: unknown): { req: Request; losses: Loss[] } {
  const losses: Loss[] = [];
  return { req: decodeRequest(body, { limits: DEFAULT_LIMITS, losses }), losses };
}

export function encodeA2aRequest(req: Request, a2aVersion?: A2aVersion): { value: unknown; losses: Loss[] } {
  const losses: Loss[] = [];
  return { value: encodeRequest(req, { preserve: false, losses, ...(a2aVersion ? { a2aVersion } : {}) }), losses };
}

export function decodeStream(wire: readonly WireEvent[]): { events: StreamEvent[]; losses: Loss[] } {
  const losses: Loss[] = [];
  const d = new A2aStreamDecoder({ limits: DEFAULT_LIMITS, losses });
  const events: StreamEvent[] = [];
  for (const w of wire) events.push(...d.push(w));
  events.push(...d.end());
  return { events, losses };
}

export function encodeStream(events: readonly StreamEvent[], a2aVersion?: A2aVersion): { wire: WireEvent[]; losses: Loss[] } {
  const losses: Loss[] = [];
  const e = new A2aStreamEncoder({ losses, ...(a2aVersion ? { a2aVersion } : {}) });
  const wire: WireEvent[] = [];
  for (const ev of events) wire.push(...e.push(ev));
  wire.push(...e.end());
  return { wire, losses };
}

export function sseText(wire: readonly WireEvent[]): string {
  return wire.map(formatSse).join('');
}

// ---- v0.3 JSON schema ----

let ajv: Ajv | undefined;

/** A validator for one definition of the v0.3.0 A2A JSON schema (draft-07). */
export function v03Validator(definition: string): ValidateFunction {
  if (ajv === undefined) {
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(JSON.parse(readFileSync(join(A2A_FIXTURES, 'a2a-v0.3.0.schema.json'), 'utf8')) as object, 'a2a-v0.3');
  }
  const v = ajv.getSchema(`a2a-v0.3#/definitions/${definition}`);
  if (v === undefined) throw new Error(`no definition ${definition}`);
  return v;
}

export function schemaErrors(definition: string, value: unknown): string[] {
  const v = v03Validator(definition);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

// ---- the SDK as oracle ----

export function agentCard(version: A2aVersion): JsonObject {
  return {
    name: 'oracle',
    description: 'test agent',
    supportedInterfaces: [{ url: 'http://localhost/', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: version }],
    version: '1',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    defaultInputModes: ['text'],
    defaultOutputModes: ['text'],
    skills: [],
  };
}

/** The SDK client reading an SSE body (JSON-RPC, v1.0 or the v0.3 legacy transport). */
export async function sdkClientRead(sse: string, version: A2aVersion): Promise<StreamResponse[]> {
  const fetchImpl = (async () => new Response(sse, { status: 200, headers: { 'Content-Type': 'text/event-stream' } })) as typeof fetch;
  const options = ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } })],
  });
  const client = await new ClientFactory(options).createFromAgentCard(agentCard(version) as never);
  const out: StreamResponse[] = [];
  const message = { messageId: 'u-1', contextId: '', taskId: '', role: 1, parts: [{ content: { $case: 'text' as const, value: 'hi' }, metadata: undefined, filename: '', mediaType: '' }], metadata: undefined, extensions: [], referenceTaskIds: [] };
  for await (const ev of client.sendMessageStream({ tenant: '', message, configuration: undefined, metadata: undefined } as never)) out.push(ev);
  return out;
}

/**
 * The SDK server streaming what an executor publishes: `results` are v1.0 StreamResponse JSON
 * objects. Returns the JSON-RPC responses the server sends (v1.0, or v0.3 via its legacy handler).
 */
export async function sdkServerStream(results: readonly JsonObject[], version: A2aVersion): Promise<JsonObject[]> {
  const executor: AgentExecutor = {
    execute: async (_rc, bus) => {
      for (const r of results) {
        const p = StreamResponse.fromJSON(r).payload;
        if (p === undefined) throw new Error('empty stream response');
        if (p.$case === 'task') bus.publish(AgentEvent.task(p.value));
        else if (p.$case === 'message') bus.publish(AgentEvent.message(p.value));
        else if (p.$case === 'statusUpdate') bus.publish(AgentEvent.statusUpdate(p.value));
        else bus.publish(AgentEvent.artifactUpdate(p.value));
      }
      bus.finished();
    },
    cancelTask: async () => undefined,
  };
  const card = { ...agentCard('1.0'), supportedInterfaces: [{ url: 'http://localhost/', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }, { url: 'http://localhost/', protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' }] };
  const handler = new DefaultRequestHandler(card as never, new InMemoryTaskStore(), executor);
  const ctx = new ServerCallContext({ requestedVersion: version } as never);
  const body =
    version === '1.0'
      ? { jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params: { message: { messageId: 'u-1', role: 'ROLE_USER', parts: [{ text: 'hi' }] } } }
      : { jsonrpc: '2.0', id: 1, method: 'message/stream', params: { message: { kind: 'message', messageId: 'u-1', role: 'user', parts: [{ kind: 'text', text: 'hi' }] } } };
  const transport = version === '1.0' ? new JsonRpcTransportHandler(handler) : new LegacyJsonRpcTransportHandler(handler);
  const res = await transport.handle(body, ctx);
  const out: JsonObject[] = [];
  if (!(Symbol.asyncIterator in (res as object))) throw new Error(`the server answered without a stream: ${JSON.stringify(res)}`);
  for await (const r of res as AsyncGenerator<unknown>) out.push(r as JsonObject);
  return out;
}

/** The SDK server's responses as the SSE text its HTTP layer writes (a2a-js `formatSSEEvent`). */
export function sdkSse(responses: readonly JsonObject[]): string {
  return responses.map((r) => formatSSEEvent(r)).join('');
}
