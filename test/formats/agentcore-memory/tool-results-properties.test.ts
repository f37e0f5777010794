/**
 * Properties over generated tool conversations (turns of a user text, an assistant message of 1-4
 * tool calls, their results without names, one tool message per result or all in one):
 * - written as AgentCore events, every `camunda.toolCallResults` entry carries its call's name (the
 *   entry's last key), and reading the events gives the results back as they were, no stash needed;
 * - the same events made older-style (results blobs taken out, only the TOOL texts left, the calls
 *   blob a bare array half of the time) read with each text answering its call when the texts split
 *   one per call, else the first call answered and the split reported; either way every reading is
 *   reported `approximated`, and the conversation converts to every chat dialect with each call
 *   answered (schemas of the matrix validators pass), the calls no text answers left out, reported.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { decode, encode } from '../../../src/formats/convert.js';
import type { JsonObject } from '../../../src/model/json.js';
import type { Message } from '../../../src/model/message.js';
import type { ToolCallPart } from '../../../src/model/part.js';
import type { Request } from '../../../src/model/request.js';
import { CHAT_DIALECTS, expectValid, inDialect, loadChatValidators, resultEntries, wirePairs, type Bodies } from './tool-pairing-support.js';

const RUNS = Number(process.env['PROPERTY_RUNS'] ?? 30);

const text = fc.stringMatching(/^[a-zA-Z0-9][a-zA-Z0-9 .,:]{0,20}$/);
const toolName = fc.stringMatching(/^[a-z][a-z_]{0,9}$/);

interface Turn {
  question: string;
  calls: { name: string; arguments: JsonObject }[];
  answers: string[];
  /** One tool message per result (Chat), or all the results in one (Anthropic, Bedrock). */
  split: boolean;
}

const turn: fc.Arbitrary<Turn> = fc
  .record({ question: text, calls: fc.array(fc.record({ name: toolName, arguments: fc.dictionary(toolName, text, { maxKeys: 2 }) }), { minLength: 1, maxLength: 4 }), split: fc.boolean(), seed: fc.array(text, { minLength: 4, maxLength: 4 }) })
  .map(({ question, calls, split, seed }) => ({ question, calls, split, answers: calls.map((_c, k) => seed[k] as string) }));

const conversation = fc.array(turn, { minLength: 1, maxLength: 3 });

/** The canonical messages of the turns; call ids are unique in the conversation. */
function messagesOf(turns: readonly Turn[]): Message[] {
  return turns.flatMap((t, ti) => {
    const calls: ToolCallPart[] = t.calls.map((c, k) => ({ type: 'tool-call', id: `call_${ti}_${k}`, name: c.name, arguments: c.arguments }));
    const results = calls.map((c, k) => ({ type: 'tool-result' as const, callId: c.id, content: [{ type: 'text' as const, text: t.answers[k] as string }] }));
    const tool: Message[] = t.split ? results.map((r) => ({ role: 'tool', parts: [r] })) : [{ role: 'tool', parts: results }];
    return [{ role: 'user', parts: [{ type: 'text', text: t.question }] }, { role: 'assistant', parts: calls }, ...tool];
  });
}

const eventsOf = (messages: Message[], preserve = false): JsonObject[] =>
  (JSON.parse(JSON.stringify(encode({ messages }, { to: 'agentcore-memory', preserve }).value)) as { events: JsonObject[] }).events;

/** Older-style events: only conversational payloads and the calls blob (as a bare array when `bare`). */
function older(events: readonly JsonObject[], bare: boolean): JsonObject[] {
  return events.map((e) => {
    const payload = (e['payload'] as JsonObject[]).flatMap((p) => {
      const blob = p['blob'];
      if (typeof blob !== 'string') return [p];
      const env = JSON.parse(blob) as JsonObject;
      if (env['blobType'] === 'camunda.toolCalls') return [bare ? { blob: JSON.stringify(env['toolCalls']) } : p];
      return [];
    });
    return { payload };
  });
}

const results = (messages: readonly Message[]): { callId: string; name?: string }[] => messages.flatMap((m) => m.parts.filter((p) => p.type === 'tool-result'));

beforeAll(loadChatValidators, 300_000);

describe('generated tool conversations', () => {
  it('results without names are written with their calls names and read back without them', () => {
    fc.assert(
      fc.property(conversation, fc.boolean(), (turns, preserve) => {
        const messages = messagesOf(turns);
        const events = eventsOf(messages, preserve);
        const calls = new Map(messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'tool-call' ? [[p.id, p.name] as const] : []))));
        const entries = resultEntries(events);
        expect(entries.map((e) => e['id'])).toEqual([...calls.keys()]);
        for (const e of entries) {
          expect(e['name']).toBe(calls.get(e['id'] as string));
          expect(Object.keys(e).at(-1)).toBe('name');
        }
        expect(JSON.stringify(events)).not.toContain('interlingua.stash');
        const back = decode({ events }, { from: 'agentcore-memory' });
        expect(back.losses).toEqual([]);
        expect((back.value as Request).messages).toEqual(messages);
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('older-style events read with each text answering its call, and convert to every dialect paired', async () => {
    const bodies: Bodies = {};
    fc.assert(
      fc.property(conversation, fc.boolean(), (turns, bare) => {
        const messages = messagesOf(turns);
        const events = older(eventsOf(messages), bare);
        const read = decode({ events }, { from: 'agentcore-memory' });
        const req = read.value as Request;
        // The ids each text now answers, turn by turn, and the calls left without one.
        const answered: string[] = [];
        let unanswered = 0;
        let splits = 0;
        turns.forEach((t, ti) => {
          const one = t.split || t.calls.length === 1;
          if (one) t.calls.forEach((_c, k) => answered.push(`call_${ti}_${k}`));
          else {
            answered.push(`call_${ti}_0`);
            unanswered += t.calls.length - 1;
            splits++;
          }
        });
        expect(results(req.messages).map((r) => r.callId)).toEqual(answered);
        const reported = read.losses.filter((l) => l.code === 'older-tool-result');
        expect(reported).toHaveLength(answered.length + splits);
        expect(read.losses.every((l) => l.action === 'approximated')).toBe(true);
        const all = turns.flatMap((t, ti) => t.calls.map((c, k) => ({ id: `call_${ti}_${k}`, name: c.name })));
        const nameOf = new Map(all.map((c) => [c.id, c.name]));
        for (const format of CHAT_DIALECTS) {
          const { value, losses } = inDialect(req, format);
          const codes = losses.map((l) => l.code);
          expect(codes, format).not.toContain('orphan-tool-result');
          const pairs = wirePairs(format, value);
          if (format === 'gemini') {
            // Gemini pairs by name and keeps a call nobody answered.
            expect(pairs.calls, format).toEqual(all.map((c) => c.name));
            expect(pairs.results, format).toEqual(answered.map((id) => nameOf.get(id)));
          } else if (format === 'openai-responses') {
            // Responses keeps a call nobody answered too.
            expect(pairs.calls, format).toEqual(all.map((c) => c.id));
            expect(pairs.results, format).toEqual(answered);
          } else {
            // Chat, Anthropic and Bedrock refuse a call without its result: left out, reported.
            expect(pairs.calls, format).toEqual(answered);
            expect(pairs.results, format).toEqual(answered);
            expect(codes.filter((c) => c === 'unanswered-tool-call'), format).toHaveLength(unanswered);
          }
          (bodies[format] ??= []).push(value);
        }
      }),
      { numRuns: RUNS },
    );
    // The matrix tests' validators, once per dialect for every body written above.
    await expectValid(bodies);
  }, 300_000);
});
