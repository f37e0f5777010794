/**
 * Events Strands' AgentCoreMemorySessionManager writes (a SessionMessage's JSON as the conversational
 * text; the `[text, role]` blob when too long; state events) read as the conversation they hold,
 * write back byte for byte, and reach other dialects with their tool calls, reasoning and images.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCodec } from '../../../src/formats/registry.js';
import type { JsonObject } from '../../../src/model/json.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { codec, decode, encode, issuesOf, json, via, withoutHints } from './helpers.js';

const BODY = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'agentcore-memory/strands-session-events.json'), 'utf8')) as { events: JsonObject[] };
const events = (...idx: number[]): { events: JsonObject[] } => ({ events: idx.map((i) => json(BODY.events[i] as JsonObject)) });

describe("Strands' session manager events", () => {
  it('read as the messages they hold: text and image, reasoning with its signature and a tool call, a tool result, text', () => {
    const { req, losses } = decode(events(0, 1, 2, 3));
    expect(losses).toEqual([]);
    expect(withoutHints(req.messages).map((m) => ({ role: m.role, parts: m.parts }))).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'Here is a chart, what does it show? Ünïcode ✓' },
          { type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' } },
        ],
      },
      {
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'The user wants the weather too.', signature: 'EqQBCkYIBxgCKkA0bXpzc2lnbmF0dXJl', origin: 'bedrock-converse' },
          { type: 'text', text: 'Let me check the weather.' },
          { type: 'tool-call', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', arguments: { city: 'Paris', units: 'metric' } },
        ],
      },
      {
        role: 'user',
        parts: [{ type: 'tool-result', callId: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', content: [{ type: 'text', text: '18 degrees, light rain' }], isError: false }],
      },
      { role: 'assistant', parts: [{ type: 'text', text: 'It is 18 degrees with light rain in Paris.' }] },
    ]);
    expect(req.messages[0]?.ext?.['agentcore-memory']).toMatchObject({ $strands: { message_id: 0, redact_message: null, created_at: '2026-02-06T08:40:20.053028+00:00' } });
  });

  it('write back exactly as Strands wrote them, text spacing and event fields included', () => {
    const body = events(0, 1, 2, 3, 4, 5);
    const back = encode(decode(body).req);
    expect(back.body).toEqual(body);
    expect(back.losses).toEqual([]);
  });

  it('reach Anthropic with the tool call paired to its result and the image; the Bedrock-signed reasoning is reported', () => {
    const { value, losses } = via(codec, getCodec('anthropic-messages'), events(0, 1, 2, 3), false);
    const messages = (value as { messages: JsonObject[] }).messages;
    expect(messages.map((m) => m['role'])).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(messages[1]?.['content']).toEqual([
      { type: 'text', text: 'Let me check the weather.' },
      { type: 'tool_use', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', input: { city: 'Paris', units: 'metric' } },
    ]);
    expect((messages[2]?.['content'] as JsonObject[])[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q' });
    expect((messages[0]?.['content'] as JsonObject[])[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgoAAAANSUhEUg==' } });
    // A signature is only good with the provider that made it (Strands ran on Bedrock here).
    expect(losses.filter((l) => l.path.join('.').startsWith('messages.1.parts.0'))).toEqual([expect.objectContaining({ action: 'dropped' })]);
  });

  it('the blob of a message too long for one payload, and a redacted message as Strands shows it', () => {
    const { req } = decode(events(4, 5));
    expect(req.messages[0]?.parts).toEqual([{ type: 'text', text: 'x'.repeat(100050) }]);
    expect(req.messages[1]?.parts).toEqual([{ type: 'text', text: '[REDACTED]' }]);
    // The original is not shown, but kept with the SessionMessage's fields.
    expect(req.messages[1]?.ext?.['agentcore-memory']).toMatchObject({ $strands: { message: { role: 'user', content: [{ text: 'my card is 4111 1111 1111 1111' }] } } });
  });

  it('session and agent state events hold no message and are reported, not read as text', () => {
    const { req, losses } = decode(events(6, 7, 3));
    expect(req.messages.map((m) => m.role)).toEqual(['assistant']);
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['agent-state', 'events.0.metadata.stateType'],
      ['agent-state', 'events.1.metadata.stateType'],
    ]);
  });

  it('a SessionMessage with a bad content block is an error at its place in the text; other JSON text stays text', () => {
    const bad = events(1);
    const conv = (bad.events[0]?.['payload'] as JsonObject[])[0]?.['conversational'] as { content: { text: string } };
    conv.content.text = conv.content.text.replace('"name": "get_weather", ', '');
    const issues = issuesOf(bad);
    expect(issues.length).toBeGreaterThan(0);
    expect(issues[0]?.path.slice(0, 8)).toEqual(['events', 0, 'payload', 0, 'conversational', 'content', 'text', 'message']);
    const plain = { events: [{ payload: [{ conversational: { role: 'USER', content: { text: '{"message": "hello", "note": 1}' } } }] }] };
    expect(decode(plain).req.messages[0]?.parts).toEqual([{ type: 'text', text: '{"message": "hello", "note": 1}' }]);
  });
});
