/**
 * Canonical requests of any origin -> Gemini: each rule the encoder applies, the loss it reports,
 * and that the result is a valid REST body.
 */
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/model/message.js';
import type { Request } from '../../../src/model/request.js';
import { convert } from '../../../src/index.js';
import { validateGemini } from '../../support/validators/gemini.js';
import { codes, decodeRequest, encodeRequest } from './helpers.js';

const user = (text: string): Message => ({ role: 'user', parts: [{ type: 'text', text }], stringContent: true });
type Json = Record<string, unknown>;
const contents = (v: Json): Json[] => v['contents'] as Json[];
const parts = (v: Json, i: number): Json[] => (contents(v)[i]?.['parts'] ?? []) as Json[];

function encode(req: Request, preserve = false): ReturnType<typeof encodeRequest> {
  const out = encodeRequest(req, preserve);
  expect(validateGemini('request', out.value)).toEqual([]);
  return out;
}

const toolTurn = (id: string, result: Message['parts'][number]): Message[] => [
  user('weather?'),
  { role: 'assistant', parts: [{ type: 'tool-call', id, name: 'get_weather', arguments: { city: 'Paris' } }] },
  { role: 'tool', parts: [result] },
];

describe('system and roles', () => {
  it('leading system messages become systemInstruction; a later one is moved there and reported', () => {
    const { value, losses } = encode({ messages: [{ role: 'system', parts: [{ type: 'text', text: 'be brief' }], stringContent: true }, user('hi'), { role: 'developer', parts: [{ type: 'text', text: 'in French' }], stringContent: true }] });
    expect(value['systemInstruction']).toEqual({ parts: [{ text: 'be brief' }, { text: 'in French' }] });
    expect(contents(value)).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(codes(losses).sort()).toEqual(['developer-role', 'system-moved']);
  });

  it('several leading system messages are joined into one systemInstruction (reported)', () => {
    const sys = (text: string): Message => ({ ...user(text), role: 'system' });
    const { value, losses } = encode({ messages: [sys('x'), sys('y'), user('hi')] });
    expect(value['systemInstruction']).toEqual({ parts: [{ text: 'x' }, { text: 'y' }] });
    expect(codes(losses)).toEqual(['system-joined']);
  });

  it('a single text block that was not a string is reported (Gemini reads one text part as a string)', () => {
    const { losses } = encode({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }] }] });
    expect(codes(losses)).toEqual(['content-form']);
  });

  it('assistant is model; a participant name is reported', () => {
    const { value, losses } = encode({ messages: [user('hi'), { role: 'assistant', name: 'bot', parts: [{ type: 'text', text: 'hello' }], stringContent: true }] });
    expect(contents(value)[1]).toEqual({ role: 'model', parts: [{ text: 'hello' }] });
    expect(codes(losses)).toEqual(['message-name']);
  });
});

describe('function calls and responses', () => {
  it('an OpenAI tool message gets the name of the call it answers, and a foreign id is kept as id', () => {
    const { value, losses } = encode({ messages: toolTurn('call_abc', { type: 'tool-result', callId: 'call_abc', content: [{ type: 'text', text: '21C' }], stringContent: true }) });
    expect(parts(value, 1)).toEqual([{ functionCall: { id: 'call_abc', name: 'get_weather', args: { city: 'Paris' } } }]);
    expect(contents(value)[2]).toEqual({ role: 'user', parts: [{ functionResponse: { id: 'call_abc', name: 'get_weather', response: { output: '21C' } } }] });
    expect(losses).toEqual([]);
  });

  it('a result that answers no earlier call (Gemini refuses it) is sent as text naming the tool, reported', () => {
    const { value, losses } = encode({ messages: [user('x'), { role: 'tool', parts: [{ type: 'tool-result', callId: 'orphan', content: [{ type: 'text', text: '42' }] }] }] });
    expect(parts(value, 1)).toEqual([{ text: '[result of tool orphan]' }, { text: '42' }]);
    expect(losses.map((l) => [l.code, l.path])).toEqual([['orphan-tool-result', ['messages', 1, 'parts', 0]]]);
  });

  it('a result is answered by an earlier call of the same name, as the API pairs them', () => {
    const { value, losses } = encode({
      messages: [
        user('x'),
        { role: 'assistant', parts: [{ type: 'tool-call', id: 'c1', name: 'f', arguments: {} }] },
        { role: 'tool', parts: [{ type: 'tool-result', callId: 'other-id', name: 'f', content: [{ type: 'text', text: '42' }] }] },
      ],
    });
    expect(Object.keys(parts(value, 2)[0] as object)).toEqual(['functionResponse']);
    expect(codes(losses)).not.toContain('orphan-tool-result');
  });

  it('ids the decoder minted are left out again, on the call and on its response', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } } }, { functionCall: { name: 'f', args: { a: 1 } } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'f', response: { output: 'one' } } }, { functionResponse: { name: 'f', response: { output: 'two' } } }] },
      ],
    };
    const req = decodeRequest(body);
    const ids = req.messages[1]?.parts.map((p) => (p.type === 'tool-call' ? p.id : ''));
    expect(new Set(ids).size).toBe(2);
    expect(req.messages[2]?.parts.map((p) => (p.type === 'tool-result' ? p.callId : ''))).toEqual(ids);
    // Through OpenAI Chat (no Gemini hints survive) and back: still no ids on the wire.
    const chat = convert(body, { from: 'gemini', to: 'openai-chat' });
    const back = convert({ model: 'gemini-2.5-flash', ...(chat.value as Json) }, { from: 'openai-chat', to: 'gemini' });
    expect((back.value as Json)['contents']).toEqual(body.contents);
  });

  it('results: text as output, error text as error, objects as they are, others wrapped (reported)', () => {
    const result = (content: Message['parts'], extra: Json = {}): Json => {
      const { value } = encode({ messages: toolTurn('c', { type: 'tool-result', callId: 'c', content, ...extra } as Message['parts'][number]) });
      return (parts(value, 2)[0]?.['functionResponse'] as Json)['response'] as Json;
    };
    expect(result([{ type: 'text', text: 'boom' }], { isError: true, stringContent: true })).toEqual({ error: 'boom' });
    expect(result([{ type: 'data', data: { temp: 21 } }])).toEqual({ temp: 21 });
    expect(result([{ type: 'data', data: [1, 2] }])).toEqual({ output: [1, 2] });
    const { losses } = encodeRequest({ messages: toolTurn('c', { type: 'tool-result', callId: 'c', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }) });
    expect(codes(losses)).toEqual(['text-joined']);
  });

  it('image results ride in functionResponse.parts', () => {
    const { value } = encode({ messages: toolTurn('c', { type: 'tool-result', callId: 'c', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } }] }) });
    expect(parts(value, 2)[0]?.['functionResponse']).toEqual({ id: 'c', name: 'get_weather', response: {}, parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] });
  });

  it('non-object arguments are wrapped, differently spelled argument text is reported', () => {
    const call = (args: unknown, argumentsJson?: string): string[] =>
      codes(encodeRequest({ messages: [user('x'), { role: 'assistant', parts: [{ type: 'tool-call', id: 'c', name: 'f', arguments: args as never, ...(argumentsJson ? { argumentsJson } : {}) }] }] }).losses);
    expect(call([1])).toEqual(['tool-arguments-not-object']);
    expect(call({ a: 1 }, '{ "a": 1 }')).toEqual(['arguments-text']);
    expect(call({ a: 1 }, '{"a":1}')).toEqual([]);
  });

  it('a tool name Gemini rejects is rewritten the same way everywhere and reported', () => {
    const { value, losses } = encode({
      messages: [user('x'), { role: 'assistant', parts: [{ type: 'tool-call', id: 'c', name: '1 bad/name', arguments: {} }] }, { role: 'tool', parts: [{ type: 'tool-result', callId: 'c', content: [] }] }],
      tools: [{ type: 'function', name: '1 bad/name' }],
      toolChoice: { type: 'tool', name: '1 bad/name' },
    });
    const decl = ((value['tools'] as Json[])[0]?.['functionDeclarations'] as Json[])[0]?.['name'];
    expect(decl).toMatch(/^_1_bad_name_[0-9a-f]{8}$/);
    expect((parts(value, 1)[0]?.['functionCall'] as Json)['name']).toBe(decl);
    expect((parts(value, 2)[0]?.['functionResponse'] as Json)['name']).toBe(decl);
    expect(value['toolConfig']).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [decl] } });
    expect(codes(losses).filter((c) => c === 'tool-name')).toHaveLength(4);
  });
});

describe('thought signatures', () => {
  const call = { role: 'assistant' as const, parts: [{ type: 'tool-call' as const, id: 'c', name: 'f', arguments: {} }] };
  const answered: Message[] = [user('x'), call, { role: 'tool', parts: [{ type: 'tool-result', callId: 'c', content: [] }] }];

  it("a call replayed to Gemini 3 without a signature gets Google's skip sentinel (reported)", () => {
    const { value, losses } = encode({ model: 'gemini-3-pro-preview', messages: answered });
    expect(parts(value, 1)[0]?.['thoughtSignature']).toBe('skip_thought_signature_validator');
    expect(losses).toEqual([expect.objectContaining({ code: 'thought-signature', path: ['messages', 1, 'parts', 0], action: 'approximated' })]);
  });

  it('no sentinel for earlier models, nor when the turn carries a real signature', () => {
    expect(parts(encode({ model: 'gemini-2.5-flash', messages: answered }).value, 1)[0]).not.toHaveProperty('thoughtSignature');
    const signed: Message = { role: 'assistant', parts: [{ type: 'tool-call', id: 'c', name: 'f', arguments: {}, ext: { gemini: { thoughtSignature: 'CiQBc2ln' } } }] };
    const { value, losses } = encode({ model: 'gemini-3-pro-preview', messages: [user('x'), signed, answered[2] as Message] });
    expect(parts(value, 1)[0]?.['thoughtSignature']).toBe('CiQBc2ln');
    expect(losses).toEqual([]);
  });

  it('Gemini thoughts go back with their signature; reasoning of another origin is dropped (reported)', () => {
    const { value, losses } = encode({
      messages: [
        user('x'),
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', origin: 'gemini', text: 'hm', signature: 'U0lH' },
            { type: 'reasoning', origin: 'anthropic-messages', text: 'hmm', signature: 'EqQB' },
            { type: 'text', text: 'ok' },
          ],
        },
      ],
    });
    expect(parts(value, 1)).toEqual([{ text: 'hm', thought: true, thoughtSignature: 'U0lH' }, { text: 'ok' }]);
    expect(codes(losses)).toEqual(['foreign-reasoning']);
  });

  it('a Gemini signature never reaches another provider: it is reported as dropped there', () => {
    const body = { model: 'gemini-3-pro-preview', contents: [{ role: 'user', parts: [{ text: 'x' }] }, { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'U0lHTkVE' }] }, { role: 'user', parts: [{ functionResponse: { name: 'f', response: {} } }] }] };
    const out = convert(body, { from: 'gemini', to: 'anthropic-messages' });
    expect(JSON.stringify(out.value)).not.toContain('U0lHTkVE');
    expect(out.losses).toContainEqual(expect.objectContaining({ code: 'unsupported-field', action: 'dropped', path: ['messages', 1, 'parts', 0, 'thoughtSignature'] }));
  });
});

describe('media', () => {
  const media = (part: Message['parts'][number]): { value: Json; losses: string[] } => {
    const { value, losses } = encode({ messages: [{ role: 'user', parts: [{ type: 'text', text: 'see' }, part] }] });
    return { value: parts(value, 0)[1] ?? {}, losses: codes(losses) };
  };

  it('base64 and data URLs are inlineData; other URLs fileData with the media type only when known', () => {
    expect(media({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' } })).toEqual({ value: { inlineData: { mimeType: 'image/png', data: 'AAAA' } }, losses: [] });
    expect(media({ type: 'image', source: { kind: 'url', url: 'data:image/jpeg;base64,BBBB' } }).value).toEqual({ inlineData: { mimeType: 'image/jpeg', data: 'BBBB' } });
    expect(media({ type: 'document', source: { kind: 'url', url: 'gs://b/f.pdf', mediaType: 'application/pdf' } })).toEqual({ value: { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/f.pdf' } }, losses: [] });
  });

  it('an image URL without a media type reads back as a document: reported', () => {
    expect(media({ type: 'image', source: { kind: 'url', url: 'https://x/y.jpg' } })).toEqual({ value: { fileData: { fileUri: 'https://x/y.jpg' } }, losses: ['media-kind'] });
  });

  it("another provider's file id, S3 locations and image detail are reported", () => {
    expect(media({ type: 'document', source: { kind: 'file-id', fileId: 'file-abc' } }).losses).toEqual(['foreign-file']);
    expect(media({ type: 'document', source: { kind: 's3', uri: 's3://b/k' } }).losses).toEqual(['unsupported-source']);
    expect(media({ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'AAAA' }, detail: 'high' }).losses).toEqual(['image-detail']);
  });
});

describe('tools, tool choice and generation config', () => {
  it('function tools share one Tool; provider tools of another origin are dropped (reported)', () => {
    const { value, losses } = encode({
      messages: [user('x')],
      tools: [
        { type: 'function', name: 'a', description: 'A', parameters: { type: 'object', properties: { q: { type: 'string' } } } },
        { type: 'function', name: 'b', strict: true },
        { type: 'provider', origin: 'anthropic-messages', name: 'web_search', config: { type: 'web_search_20250305', name: 'web_search' } },
      ],
    });
    expect(value['tools']).toEqual([{ functionDeclarations: [{ name: 'a', description: 'A', parameters: { type: 'object', properties: { q: { type: 'string' } } } }, { name: 'b' }] }]);
    expect(codes(losses)).toEqual(['tool-strict', 'provider-tool']);
  });

  it('tool choice maps to functionCallingConfig; parallel calls have no switch (reported)', () => {
    const mode = (toolChoice: Request['toolChoice']): unknown => encode({ messages: [user('x')], tools: [{ type: 'function', name: 'f' }], ...(toolChoice ? { toolChoice } : {}) }).value['toolConfig'];
    expect(mode({ type: 'auto' })).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(mode({ type: 'none' })).toEqual({ functionCallingConfig: { mode: 'NONE' } });
    expect(mode({ type: 'required' })).toEqual({ functionCallingConfig: { mode: 'ANY' } });
    expect(mode({ type: 'tool', name: 'f' })).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } });
    expect(codes(encodeRequest({ messages: [user('x')], parallelToolCalls: false }).losses)).toEqual(['unsupported-field']);
  });

  it('sampling fields go to generationConfig', () => {
    const { value, losses } = encode({ messages: [user('x')], maxTokens: 100, temperature: 0.2, topP: 0.9, topK: 5, stop: ['END'], seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.3, candidateCount: 2 });
    expect(value['generationConfig']).toEqual({ maxOutputTokens: 100, temperature: 0.2, topP: 0.9, topK: 5, stopSequences: ['END'], seed: 7, presencePenalty: 0.1, frequencyPenalty: 0.3, candidateCount: 2 });
    expect(losses).toEqual([]);
  });

  it('response formats: text/plain, application/json, a schema rewritten for Schema (name reported)', () => {
    const gc = (rf: Request['responseFormat']): ReturnType<typeof encodeRequest> => encode({ messages: [user('x')], ...(rf ? { responseFormat: rf } : {}) });
    expect(gc({ type: 'text' }).value['generationConfig']).toEqual({ responseMimeType: 'text/plain' });
    expect(gc({ type: 'json' }).value['generationConfig']).toEqual({ responseMimeType: 'application/json' });
    const { value, losses } = gc({ type: 'json-schema', name: 'planet', schema: { type: 'object', properties: { n: { type: 'string' } }, additionalProperties: false } });
    expect(value['generationConfig']).toEqual({ responseMimeType: 'application/json', responseSchema: { type: 'object', properties: { n: { type: 'string' } } } });
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['schema-rewrite', 'responseFormat.schema.additionalProperties'],
      ['response-format', 'responseFormat.name'],
    ]);
  });

  it.each([
    [{ enabled: false }, { thinkingBudget: 0 }, []],
    [{ enabled: true, budgetTokens: 2048 }, { thinkingBudget: 2048 }, []],
    [{ mode: 'adaptive' }, { thinkingBudget: -1 }, []],
    [{ effort: 'low' }, { thinkingLevel: 'LOW' }, []],
    [{ effort: 'xhigh' }, { thinkingLevel: 'HIGH' }, ['reasoning-effort']],
    [{ effort: 'none' }, { thinkingBudget: 0 }, ['reasoning-effort']],
    [{ enabled: true }, undefined, ['reasoning-mode']],
  ] as const)('reasoning %j -> thinkingConfig %j', (reasoning, thinking, lost) => {
    const { value, losses } = encode({ messages: [user('x')], reasoning: reasoning as Request['reasoning'] & object });
    expect((value['generationConfig'] as Json | undefined)?.['thinkingConfig']).toEqual(thinking);
    expect(codes(losses)).toEqual(lost);
  });

  it('user, stream and metadata have no Gemini field: reported, and stashed under preserve', () => {
    const req: Request = { messages: [user('x')], user: 'u1', stream: true, metadata: { k: 'v' } };
    const plain = encode(req);
    expect(plain.losses.map((l) => [l.code, l.path[0], l.action])).toEqual([
      ['unsupported-field', 'user', 'dropped'],
      ['unsupported-field', 'stream', 'dropped'],
      ['unsupported-field', 'metadata', 'dropped'],
    ]);
    const kept = encodeRequest(req, true);
    expect(kept.losses.every((l) => l.action === 'stashed')).toBe(true);
    expect(decodeRequest(kept.value)).toEqual(req);
  });
});
