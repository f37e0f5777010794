/**
 * The @a2a-js/sdk types as a compile-time oracle over the v1.0 JSON we write (sdk-typecheck.ts):
 * every stream event our encoder writes — for the SDK server's streams and for canonical streams of
 * other dialects — `satisfies` the JSON form of StreamResponse, every A2A message our request
 * encoder writes for other dialects' requests `satisfies` Message, and our task and send-message
 * bodies Task / SendMessageRequest. Deliberately wrong values show the oracle rejects what it should.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/model/json.js';
import type { Response } from '../../../src/model/response.js';
import type { WireEvent } from '../../../src/model/stream-event.js';
import type { Codec } from '../../../src/formats/codec.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { anthropicMessages } from '../../../src/formats/anthropic-messages/index.js';
import { gemini } from '../../../src/formats/gemini/index.js';
import { openaiChat } from '../../../src/formats/openai-chat/index.js';
import { openaiResponses } from '../../../src/formats/openai-responses/index.js';
import { responseToEvents } from '../../../src/stream/from-response.js';
import { parseSse } from '../../../src/stream/sse.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { decodeA2aRequest, decodeStream, encodeA2aRequest, encodeStream, sdkServerStream, sdkSse } from './helpers.js';
import { typecheck, type TypeCase } from './sdk-typecheck.js';
import { SCENARIOS } from './stream-scenarios.js';

const WRONG: TypeCase[] = [
  { name: 'a v0.3 role', type: 'MessageJson', value: { messageId: 'm', role: 'user', parts: [{ text: 'x' }] } },
  { name: 'a v0.3 kind on a part', type: 'MessageJson', value: { messageId: 'm', role: 'ROLE_USER', parts: [{ kind: 'text', text: 'x' }] } },
  { name: 'a field Message does not have', type: 'MessageJson', value: { messageId: 'm', role: 'ROLE_USER', parts: [], name: 'bob' } },
  { name: 'a v0.3 state', type: 'StreamResponseJson', value: { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'completed' } } } },
  { name: 'v0.3 final on a status update', type: 'StreamResponseJson', value: { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' }, final: true } } },
  { name: 'a wrapper key StreamResponse does not have', type: 'StreamResponseJson', value: { statusUpdated: {} } },
  { name: 'a part field Part does not have', type: 'MessageJson', value: { messageId: 'm', role: 'ROLE_USER', parts: [{ txt: 'x' }] } },
  { name: 'a state TaskState does not have', type: 'TaskJson', value: { id: 't', status: { state: 'TASK_STATE_DONE' } } },
  { name: 'append as text', type: 'StreamResponseJson', value: { artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [] }, append: 'yes' } } },
];

function foreignResponses(): { name: string; res: Response }[] {
  const sets: [Codec, string][] = [
    [openaiChat, 'openai-chat/responses'],
    [anthropicMessages, 'anthropic-messages/response'],
    [gemini, 'gemini/responses'],
  ];
  return sets.flatMap(([codec, dir]) =>
    readdirSync(join(LOCAL_FIXTURES, dir))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => {
        try {
          return [{ name: `${dir}/${f}`, res: codec.response?.decode(JSON.parse(readFileSync(join(LOCAL_FIXTURES, dir, f), 'utf8')), { limits: DEFAULT_LIMITS, losses: [] as never }) as Response }];
        } catch {
          return [];
        }
      }),
  );
}

function foreignRequests(): { name: string; body: unknown }[] {
  const sets: [Codec, string][] = [
    [openaiChat, 'openai-chat/requests'],
    [anthropicMessages, 'anthropic-messages/requests'],
    [openaiResponses, 'openai-responses/requests/agentgateway'],
  ];
  return sets.flatMap(([codec, dir]) =>
    readdirSync(join(LOCAL_FIXTURES, dir))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) => {
        try {
          const req = codec.request?.decode(JSON.parse(readFileSync(join(LOCAL_FIXTURES, dir, f), 'utf8')), { limits: DEFAULT_LIMITS, losses: [] as never });
          return req ? [{ name: `${dir}/${f}`, body: encodeA2aRequest(req, '1.0').value }] : [];
        } catch {
          return [];
        }
      }),
  );
}

const results = (wire: WireEvent[]): unknown[] => wire.filter((w) => w.event !== 'error').map((w) => (w.data as JsonObject)['result']);

describe('our v1.0 JSON against the @a2a-js/sdk types', () => {
  const cases: TypeCase[] = [];
  let errors = new Map<string, string[]>();

  beforeAll(async () => {
    for (const [name, events] of Object.entries(SCENARIOS)) {
      const decoded = decodeStream(parseSse(sdkSse(await sdkServerStream(events, '1.0')))).events;
      results(encodeStream(decoded, '1.0').wire).forEach((value, i) => cases.push({ name: `stream ${name} #${i}`, type: 'StreamResponseJson', value }));
    }
    for (const { name, res } of foreignResponses()) {
      results(encodeStream(responseToEvents(res), '1.0').wire).forEach((value, i) => cases.push({ name: `stream ${name} #${i}`, type: 'StreamResponseJson', value }));
    }
    for (const { name, body } of foreignRequests()) {
      (body as unknown[]).forEach((value, i) => cases.push({ name: `request ${name} #${i}`, type: 'MessageJson', value }));
    }
    const task = { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED', message: { messageId: 'a', role: 'ROLE_AGENT', parts: [{ text: 'ok' }] } }, history: [{ messageId: 'u', role: 'ROLE_USER', parts: [{ text: 'hi' }] }], artifacts: [{ artifactId: 'x', parts: [{ data: { a: 1 } }] }] };
    cases.push({ name: 'task body', type: 'TaskJson', value: encodeA2aRequest(decodeA2aRequest(task).req).value });
    const send = { message: { messageId: 'u', role: 'ROLE_USER', parts: [{ raw: 'iVBORw0KGgo=', mediaType: 'image/png', filename: 'a.png' }] }, configuration: { acceptedOutputModes: ['text'], returnImmediately: true } };
    cases.push({ name: 'send body', type: 'SendMessageRequestJson', value: encodeA2aRequest(decodeA2aRequest(send).req).value });
    cases.push(...WRONG.map((w) => ({ ...w, name: `wrong: ${w.name}` })));
    errors = typecheck(cases);
  }, 180_000); // one compiler run over the SDK's declarations

  it('checks streams and requests of several origins', () => {
    expect(cases.filter((c) => c.type === 'StreamResponseJson').length).toBeGreaterThan(100);
    expect(cases.filter((c) => c.type === 'MessageJson').length).toBeGreaterThan(20);
  });

  it('every stream event, message, task and send body we write type-checks', () => {
    const failing = cases.filter((c) => !c.name.startsWith('wrong:') && (errors.get(c.name)?.length ?? 0) > 0).map((c) => `${c.name}: ${errors.get(c.name)?.[0] ?? ''}`);
    expect(failing).toEqual([]);
  });

  for (const w of WRONG) {
    it(`rejects a wrong value: ${w.name}`, () => {
      expect(errors.get(`wrong: ${w.name}`)?.length ?? 0).toBeGreaterThan(0);
    });
  }
});
