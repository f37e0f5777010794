/**
 * Support for the tool-result tests of agentcore-memory: how each chat dialect pairs calls and
 * results on the wire (so a test can check that a converted conversation pairs them), the
 * dialects' schema validators (the matrix tests' own), and small event builders.
 */
import { expect } from 'vitest';
import { decode, encode } from '../../../src/formats/convert.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Loss } from '../../../src/model/loss.js';
import type { Request } from '../../../src/model/request.js';
import { loadValidator } from '../../matrix/validators.js';

export const CHAT_DIALECTS = ['openai-chat', 'anthropic-messages', 'bedrock-converse', 'gemini', 'openai-responses'] as const;

type Obj = Record<string, unknown>;
const list = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);
const obj = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});

/**
 * The calls and the results of a request body, in wire order, each by the key the dialect pairs
 * them with: the call id (Chat, Anthropic, Bedrock, Responses) or, in Gemini, the function name.
 */
export function wirePairs(format: string, body: unknown): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  const b = obj(body);
  switch (format) {
    case 'openai-chat':
      for (const m of list(b['messages'])) {
        for (const c of list(m['tool_calls'])) calls.push(String(c['id']));
        if (m['role'] === 'tool') results.push(String(m['tool_call_id']));
      }
      break;
    case 'anthropic-messages':
      for (const m of list(b['messages'])) {
        for (const c of list(m['content'])) {
          if (c['type'] === 'tool_use') calls.push(String(c['id']));
          if (c['type'] === 'tool_result') results.push(String(c['tool_use_id']));
        }
      }
      break;
    case 'bedrock-converse':
      for (const m of list(b['messages'])) {
        for (const c of list(m['content'])) {
          if (c['toolUse'] !== undefined) calls.push(String(obj(c['toolUse'])['toolUseId']));
          if (c['toolResult'] !== undefined) results.push(String(obj(c['toolResult'])['toolUseId']));
        }
      }
      break;
    case 'gemini':
      for (const m of list(b['contents'])) {
        for (const p of list(m['parts'])) {
          if (p['functionCall'] !== undefined) calls.push(String(obj(p['functionCall'])['name']));
          if (p['functionResponse'] !== undefined) results.push(String(obj(p['functionResponse'])['name']));
        }
      }
      break;
    case 'openai-responses':
      for (const item of list(b['input'])) {
        if (item['type'] === 'function_call') calls.push(String(item['call_id']));
        if (item['type'] === 'function_call_output') results.push(String(item['call_id']));
      }
      break;
    default:
      throw new Error(`no pairing reader for ${format}`);
  }
  return { calls, results };
}

/** A canonical request in a chat dialect, with a model so every schema is satisfied. */
export function inDialect(req: Request, to: string): { value: JsonObject; losses: Loss[] } {
  const { value, losses } = encode({ ...req, model: 'test-model' }, { to });
  return { value: JSON.parse(JSON.stringify(value)) as JsonObject, losses };
}

/** Loads the chat dialects' validators once (compiling their schemas takes a while): for a beforeAll. */
export async function loadChatValidators(): Promise<void> {
  for (const format of CHAT_DIALECTS) await loadValidator(format);
}

/** The validator errors of request bodies of one dialect (the matrix tests' validators). */
export async function validate(format: string, bodies: readonly unknown[]): Promise<string[][]> {
  const v = await loadValidator(format);
  if (v.status !== 'ok') throw new Error(`no validator for ${format}: ${v.reason}`);
  return v.validate(bodies.map((value) => ({ kind: 'request' as const, value })));
}

/** Converted bodies by dialect, to validate in one batch (the Anthropic oracle runs the compiler once per batch). */
export type Bodies = Record<string, unknown[]>;

/** Every collected body passes its dialect's schema. */
export async function expectValid(bodies: Bodies): Promise<void> {
  for (const [format, list] of Object.entries(bodies)) {
    const errors = await validate(format, list);
    errors.forEach((e, k) => expect(e, `${format} body ${k}: ${JSON.stringify(list[k])}`).toEqual([]));
  }
}

/**
 * The events read as a conversation, then written in every chat dialect: each body holds the
 * expected calls in order, each answered by a result (by id, or by name in Gemini), and no
 * conversion loss says a call or result lost its partner. The bodies go to `bodies` for expectValid.
 */
export function expectPairedEverywhere(events: unknown[], expected: readonly { id: string; name: string }[], bodies: Bodies): void {
  const req = decode({ events }, { from: 'agentcore-memory' }).value as Request;
  for (const format of CHAT_DIALECTS) {
    const { value, losses } = inDialect(req, format);
    const codes = losses.map((l) => l.code);
    expect(codes, format).not.toContain('unanswered-tool-call');
    expect(codes, format).not.toContain('orphan-tool-result');
    const pairs = wirePairs(format, value);
    const keys = expected.map((c) => (format === 'gemini' ? c.name : c.id));
    expect(pairs.calls, format).toEqual(keys);
    expect(pairs.results, format).toEqual(keys);
    (bodies[format] ??= []).push(value);
  }
}

export const userText = (text: string): JsonObject => ({ payload: [{ conversational: { role: 'USER', content: { text } } }] });
export const toolText = (...texts: string[]): JsonObject => ({ payload: texts.map((text) => ({ conversational: { role: 'TOOL', content: { text } } })) });
/** An assistant event of tool calls: `bare` is the older raw JSON array blob, else the envelope. */
export function callsEvent(calls: readonly { id: string; name: string; arguments?: unknown }[], options: { bare?: boolean; text?: string } = {}): JsonObject {
  const entries = calls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments ?? {} }));
  const blob = options.bare === true ? JSON.stringify(entries) : JSON.stringify({ blobType: 'camunda.toolCalls', version: 1, toolCalls: entries });
  const payload: JsonObject[] = options.text === undefined ? [] : [{ conversational: { role: 'ASSISTANT', content: { text: options.text } } }];
  return { payload: [...payload, { blob }] };
}

/** The entries of every camunda.toolCallResults blob of some events, in order. */
export function resultEntries(events: readonly unknown[]): Obj[] {
  const out: Obj[] = [];
  for (const e of events) {
    for (const p of list(obj(e)['payload'])) {
      const blob = p['blob'];
      if (typeof blob !== 'string' || !blob.startsWith('{"blobType":"camunda.toolCallResults"')) continue;
      out.push(...list(obj(JSON.parse(blob))['results']));
    }
  }
  return out;
}
