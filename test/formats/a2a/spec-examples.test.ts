/**
 * Every JSON example of the A2A specification (v1.x and v0.3.0, test/fixtures/a2a), each with what
 * the request decoder must do with it: the message / task / send-message examples decode into the
 * canonical messages they hold and come back as themselves; the rest are refused with an error
 * that names where they are wrong — because they are not message-carrying bodies (agent cards,
 * task queries, errors), or because the example itself breaks the spec (a message with no role or
 * no messageId, base64 that is a placeholder).
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonValue } from '../../../src/model/json.js';
import { ValidationError } from '../../../src/model/errors.js';
import { decodeA2aRequest, encodeA2aRequest, schemaErrors, specExamples, type SpecExample } from './helpers.js';

type Outcome = { decodes: { roles: string[]; texts: string[] } } | { rejected: { path: (string | number)[]; message: RegExp } } | { skip: string };

const NOT_A_MESSAGE = /not an A2A stream event|expected an A2A message|JSON-RPC/;

const V1: Record<number, Outcome> = {
  0: { skip: 'agent card with a trailing comma (not JSON)' },
  1: { rejected: { path: ['messageId'], message: /messageId must be a string/ } },
  11: { skip: 'request skeleton with a comment' },
  12: { skip: 'request skeleton with a comment' },
  13: { skip: 'response skeleton with a comment' },
  14: { rejected: { path: ['params'], message: NOT_A_MESSAGE } },
  15: { rejected: { path: ['params', 'id'], message: /id must be a string/ } },
  16: { rejected: { path: ['params'], message: NOT_A_MESSAGE } },
  17: { rejected: { path: ['params'], message: NOT_A_MESSAGE } },
  18: { rejected: { path: [], message: /without 'params' or 'result'/ } },
  19: { rejected: { path: ['error'], message: /error response holds no messages/ } },
  20: { rejected: { path: ['error'], message: /error response holds no messages/ } },
  22: { rejected: { path: ['kind'], message: /unknown A2A object kind "text"/ } },
  23: { rejected: { path: ['kind'], message: /unknown A2A object kind "file"/ } },
};

const V03: Record<number, Outcome> = {
  1: { rejected: { path: [], message: /without 'params' or 'result'/ } },
  2: { decodes: { roles: ['user'], texts: ['tell me a joke'] } },
  3: { decodes: { roles: ['user', 'assistant'], texts: ['tell me a joke', 'Why did the chicken cross the road? To get to the other side!'] } },
  4: { decodes: { roles: ['user'], texts: ['tell me a joke'] } },
  5: { rejected: { path: ['result', 'role'], message: /role must be 'user' or 'agent'/ } },
  6: { rejected: { path: ['params', 'message', 'parts', 1, 'file', 'data'], message: /not valid base64/ } },
  7: { skip: 'an SSE stream (streams/spec-v0.3-streaming.sse, stream tests)' },
  8: { rejected: { path: ['params', 'role'], message: /role must be ROLE_USER or ROLE_AGENT/ } },
  9: { decodes: { roles: ['user', 'assistant'], texts: ["I'd like to book a flight.", 'Sure, I can help with that! Where would you like to fly to, and from where? Also, what are your preferred travel dates?'] } },
  10: { decodes: { roles: ['user'], texts: ['I want to fly from New York (JFK) to London (LHR) around October 10th, returning October 17th.'] } },
  11: { rejected: { path: ['result', 'status', 'message', 'messageId'], message: /messageId must be a string/ } },
  12: { skip: 'JSON with comments' },
  13: { skip: 'JSON with comments' },
  14: { skip: 'JSON with comments' },
  15: { skip: 'JSON with comments' },
  16: { skip: 'JSON with comments' },
  17: { decodes: { roles: ['user'], texts: ['Show me a list of my open IT tickets'] } },
  18: { decodes: { roles: ['assistant'], texts: ['[{"ticketNumber":"REQ12312","description":"request for VPN access"},{"ticketNumber":"REQ23422","description":"Add to DL - team-gcp-onboarding"}]'] } },
};

/** v0.3 objects the spec writes without `kind`: ours carry it (the v0.3 schema requires it). */
function withKinds(v: JsonValue, at: 'message' | 'task' | undefined = undefined): JsonValue {
  if (Array.isArray(v)) return v.map((x) => withKinds(x, at));
  if (v === null || typeof v !== 'object') return v;
  const o = v as JsonObject;
  const out: JsonObject = {};
  if (at !== undefined && o['kind'] === undefined) out['kind'] = at;
  for (const k in o) {
    const child = k === 'history' || k === 'message' ? 'message' : k === 'result' && 'status' in (o[k] as JsonObject) ? 'task' : undefined;
    out[k] = withKinds(o[k] as JsonValue, child);
  }
  return out;
}

function outcomeOf(e: SpecExample, table: Record<number, Outcome>): Outcome {
  return table[e.index] ?? (e.parsed ? { rejected: { path: [], message: NOT_A_MESSAGE } } : { skip: 'not JSON' });
}

function check(e: SpecExample, outcome: Outcome, v03: boolean): void {
  if ('skip' in outcome) {
    expect(e.parsed).toBe(false);
    return;
  }
  if ('rejected' in outcome) {
    let err: unknown;
    try {
      decodeA2aRequest(e.example);
    } catch (x) {
      err = x;
    }
    expect(err).toBeInstanceOf(ValidationError);
    const issue = (err as ValidationError).issues[0];
    expect(issue?.path).toEqual(outcome.rejected.path);
    expect(issue?.message).toMatch(outcome.rejected.message);
    return;
  }
  const { req } = decodeA2aRequest(e.example);
  expect(req.messages.map((m) => m.role)).toEqual(outcome.decodes.roles);
  expect(req.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])))).toEqual(outcome.decodes.texts);
  const back = encodeA2aRequest(req);
  expect(back.losses).toEqual([]);
  expect(back.value).toEqual(e.example);
  if (v03) {
    // The spec leaves `kind` out of nested objects and so do we when writing them back; written
    // fresh (without that hint) they carry it, as the v0.3 schema requires.
    const fresh = encodeA2aRequest(withoutNoKind(req)).value as JsonObject;
    expect(fresh).toEqual(withKinds(e.example));
    const def = 'method' in fresh ? 'SendMessageRequest' : 'SendMessageSuccessResponse';
    expect(schemaErrors(def, fresh)).toEqual([]);
  }
}

/** The request without the decoder's `$noKind` hints. */
function withoutNoKind<T>(v: T): T {
  return JSON.parse(JSON.stringify(v), (k, x: unknown) => (k === '$noKind' ? undefined : x)) as T;
}

describe('A2A v1.x specification examples', () => {
  for (const e of specExamples('v1')) {
    const outcome = outcomeOf(e, V1);
    it(`#${e.index} ${e.section}: ${'skip' in outcome ? `skipped (${outcome.skip})` : 'decodes' in outcome ? 'decodes and comes back' : 'is refused where it is wrong'}`, () => check(e, outcome, false));
  }

  it('the v1 Part examples: text, and raw bytes that are a placeholder', () => {
    const [text, raw] = [24, 25].map((i) => specExamples('v1').find((e) => e.index === i)?.example as JsonObject);
    const msg = (part: JsonObject) => ({ messageId: 'm', role: 'ROLE_USER', parts: [part] });
    expect(decodeA2aRequest(msg(text as JsonObject)).req.messages[0]?.parts).toEqual([{ type: 'text', text: 'Hello, world!' }]);
    expect(() => decodeA2aRequest(msg(raw as JsonObject))).toThrow(/parts\[0\]\.raw: file bytes are not valid base64/);
  });

  it('the v1 Artifact example, as the artifact of a task: the agent\'s answer, its fields kept', () => {
    const artifact = specExamples('v1').find((e) => e.index === 2)?.example as JsonObject;
    const task = { id: 't-1', contextId: 'c-1', status: { state: 'TASK_STATE_COMPLETED' }, artifacts: [artifact] };
    const { req } = decodeA2aRequest(task);
    expect(req.messages).toHaveLength(1);
    expect(req.messages[0]).toMatchObject({ role: 'assistant', parts: [{ type: 'text', text: (artifact['parts'] as JsonObject[])[0]?.['text'] }] });
    expect(encodeA2aRequest(req).value).toEqual(task);
  });
});

describe('A2A v0.3.0 specification examples', () => {
  for (const e of specExamples('v0.3.0')) {
    const outcome = outcomeOf(e, V03);
    it(`#${e.index} ${e.section}: ${'skip' in outcome ? `skipped (${outcome.skip})` : 'decodes' in outcome ? 'decodes and comes back exactly (and with kind when written fresh)' : 'is refused where it is wrong'}`, () => check(e, outcome, true));
  }
});
