/** Bedrock request/response validation: one ValidationError listing every issue with its JSON path. */
import { describe, expect, it } from 'vitest';
import { codec, decodeReq, decodeRes, issuesOf } from './helpers.js';

const at = (issues: { code: string; path: (string | number)[] }[]): string[] => issues.map((i) => `${i.code} ${i.path.join('.')}`);

describe('request shape (Smithy model)', () => {
  it('lists every shape problem at once, with paths', () => {
    const issues = issuesOf(() =>
      decodeReq({
        messages: [
          {
            role: 'user',
            content: [
              { text: 'a', image: { format: 'png', source: { bytes: 'AAAA' } } },
              { image: { format: 'bmp', source: { bytes: 'AAAA' } } },
              { document: { name: 'bad/name', source: { bytes: 'AAAA' } } },
              { sticker: {} },
              { image: { format: 'png', source: { bytes: 'not base64!' } } },
            ],
          },
        ],
        inferenceConfig: { maxTokens: 0, temperature: 2 },
        toolConfig: { tools: [{ toolSpec: { name: 'has space', inputSchema: { json: {} } } }], toolChoice: { none: {} } },
      }),
    );
    expect(at(issues)).toEqual([
      'union_members messages.0.content.0',
      'invalid_value messages.0.content.1.image.format',
      'invalid_format messages.0.content.2.document.name',
      'unknown_member messages.0.content.3.sticker',
      'invalid_format messages.0.content.4.image.source.bytes',
      'too_small inferenceConfig.maxTokens',
      'too_big inferenceConfig.temperature',
      'invalid_format toolConfig.tools.0.toolSpec.name',
      'unknown_member toolConfig.toolChoice.none',
    ]);
  });

  it('refuses bytes that are not standard padded base64 (a lone character holds no byte), naming the path', () => {
    const doc = (bytes: string) => ({ messages: [{ role: 'user', content: [{ text: 'q' }, { document: { name: 'd', format: 'txt', source: { bytes } } }] }] });
    for (const bytes of ['x', 'QUJDRA', 'QUJD-A==', 'QU=JD']) {
      expect(at(issuesOf(() => decodeReq(doc(bytes)))), bytes).toEqual(['invalid_format messages.0.content.1.document.source.bytes']);
    }
    expect(decodeReq(doc('QUJDRA==')).messages[0]?.parts[1]).toMatchObject({ source: { kind: 'base64', data: 'QUJDRA==' } });
  });

  it('rejects a body that is not an object', () => {
    expect(at(issuesOf(() => decodeReq([])))).toEqual(['invalid_type ']);
  });

  it('accepts an explicit null for an optional member (AWS JSON treats it as unset) and keeps it', () => {
    const body = { messages: [{ role: 'user', content: [{ text: 'q' }] }], system: null, inferenceConfig: { maxTokens: 5, temperature: null } };
    const req = decodeReq(body);
    expect(req.maxTokens).toBe(5);
    expect(req.temperature).toBeUndefined();
    const losses: unknown[] = [];
    expect(codec.request!.encode(req, { preserve: false, losses: { push: (l) => losses.push(l) } })).toEqual(body);
  });
});

describe('conversation rules Bedrock enforces', () => {
  it('the first turn is the user\'s and roles alternate', () => {
    const issues = issuesOf(() =>
      decodeReq({
        messages: [
          { role: 'assistant', content: [{ text: 'hi' }] },
          { role: 'user', content: [{ text: 'a' }] },
          { role: 'user', content: [{ text: 'b' }] },
        ],
      }),
    );
    expect(at(issues)).toEqual(['first_message_not_user messages.0.role', 'roles_not_alternating messages.2.role']);
  });

  it('a message has content, and client tool results sit in user turns', () => {
    const issues = issuesOf(() =>
      decodeReq({
        messages: [
          { role: 'user', content: [] },
          { role: 'assistant', content: [{ toolResult: { toolUseId: 't', content: [{ text: 'r' }] } }] },
        ],
        toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: { json: {} } } }] },
      }),
    );
    expect(at(issues)).toEqual(['tool_result_in_assistant messages.1.content.0.toolResult', 'empty_content messages.0.content']);
  });

  it('message text is not empty (whitespace is accepted, as Bedrock does)', () => {
    const issues = issuesOf(() => decodeReq({ messages: [{ role: 'user', content: [{ text: '' }, { text: '\n' }] }], system: [{ text: '' }] }));
    expect(at(issues)).toEqual(['too_small system.0.text', 'blank_text messages.0.content.0.text']);
  });

  it('tool uses and results pair up, and need a toolConfig', () => {
    const issues = issuesOf(() =>
      decodeReq({
        messages: [
          { role: 'user', content: [{ text: 'q' }] },
          { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }] },
          { role: 'user', content: [{ toolResult: { toolUseId: 't2', content: [{ text: 'r' }] } }] },
        ],
      }),
    );
    expect(at(issues)).toEqual([
      'tool_use_without_result messages.1.content.0.toolUse.toolUseId',
      'tool_result_without_use messages.2.content.0.toolResult.toolUseId',
      'tool_config_required toolConfig',
    ]);
  });

  it('the structured-output schema text is JSON', () => {
    const body = {
      messages: [{ role: 'user', content: [{ text: 'q' }] }],
      outputConfig: { textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: '{not json' } } } },
    };
    expect(at(issuesOf(() => decodeReq(body)))).toEqual(['invalid_json outputConfig.textFormat.structure.jsonSchema.schema']);
  });

  it('text over the size limit is refused, in messages and in tool results', () => {
    const big = 'x'.repeat(50);
    const body = {
      messages: [
        { role: 'user', content: [{ text: big }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't', name: 'f', input: {} } }] },
        { role: 'user', content: [{ toolResult: { toolUseId: 't', content: [{ text: big }] } }] },
      ],
      toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: { json: {} } } }] },
    };
    const issues = issuesOf(() => decodeReq(body, { maxTextBytes: 10 }));
    expect(at(issues)).toEqual(['too_large messages.0.content.0.text', 'too_large messages.2.content.0.toolResult.content.0.text']);
  });
});

describe('response shape', () => {
  it('names the missing and wrong members', () => {
    const issues = issuesOf(() => decodeRes({ output: { message: { role: 'user', content: [{ text: 1 }] } }, usage: { inputTokens: -1, outputTokens: 0, totalTokens: 0 } }));
    expect(at(issues)).toEqual(['invalid_value output.message.role', 'invalid_type output.message.content.0.text', 'invalid_type stopReason', 'too_small usage.inputTokens']);
  });
});
