/**
 * Bedrock responses: usage accounting (inputTokens excludes cache), every stop reason, residue
 * (metrics, trace, additionalModelResponseFields), and encoding responses of other origins.
 */
import { describe, expect, it } from 'vitest';
import { convert } from '../../../src/formats/convert.js';
import type { Response } from '../../../src/model/response.js';
import { validateBedrockConverse } from '../../support/validators/bedrock-converse.js';
import { codes, decodeRes, encodeRes, sample } from './helpers.js';

const body = (stopReason: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  output: { message: { role: 'assistant', content: [{ text: 'ok' }] } },
  stopReason,
  usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
  metrics: { latencyMs: 12 },
  ...extra,
});

describe('usage', () => {
  it('adds cache reads and writes into canonical inputTokens (Bedrock inputTokens excludes them)', () => {
    const res = decodeRes(sample('response', 'agentgateway-cache_write'));
    expect(res.usage).toMatchObject({ inputTokens: 16 + 2387, outputTokens: 9, totalTokens: 2412, cacheReadTokens: 0, cacheWriteTokens: 2387 });
    expect(res.usage?.inputTokens).toBe((res.usage?.totalTokens ?? 0) - (res.usage?.outputTokens ?? 0));
  });

  it('keeps the legacy *Count fields and serverToolUsage as residue; raw is the object as received', () => {
    const wire = sample('response', 'amazon-bedrock-reasoning') as Record<string, unknown>;
    const res = decodeRes(wire);
    expect(res.usage?.raw).toEqual(wire['usage']);
    expect(res.usage?.ext?.['bedrock-converse']).toEqual({ cacheReadInputTokenCount: 0, cacheWriteInputTokenCount: 0, serverToolUsage: {} });
  });

  it('converts Anthropic usage to Bedrock numbers', () => {
    const anthropic = {
      id: 'msg_1', type: 'message', role: 'assistant', model: 'claude', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20 },
    };
    const { value, losses } = convert(anthropic, { from: 'anthropic-messages', to: 'bedrock-converse', kind: 'response' });
    expect((value as Record<string, unknown>)['usage']).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 135, cacheReadInputTokens: 100, cacheWriteInputTokens: 20 });
    expect(validateBedrockConverse('response', value)).toEqual([]);
    expect(codes(losses)).toEqual(['missing-metrics', 'unsupported-field', 'unsupported-field']);
  });
});

describe('stop reasons', () => {
  const all: [string, string][] = [
    ['end_turn', 'stop'],
    ['tool_use', 'tool-calls'],
    ['max_tokens', 'length'],
    ['stop_sequence', 'stop-sequence'],
    ['guardrail_intervened', 'content-filter'],
    ['content_filtered', 'content-filter'],
    ['malformed_model_output', 'error'],
    ['malformed_tool_use', 'error'],
    ['model_context_window_exceeded', 'length'],
  ];
  for (const [raw, unified] of all) {
    it(`${raw} -> ${unified}, and back exactly`, () => {
      const res = decodeRes(body(raw));
      expect(res.choices[0]?.stopReason).toEqual({ unified, raw });
      const { value, losses } = encodeRes(res);
      expect(value['stopReason']).toBe(raw);
      expect(losses).toEqual([]);
    });
  }

  it('keeps a stop reason newer than the codec for Bedrock, and maps it elsewhere', () => {
    const res = decodeRes(body('tool_budget_exhausted'));
    expect(res.choices[0]?.stopReason).toEqual({ unified: 'other', raw: 'tool_budget_exhausted' });
    expect(encodeRes(res).value['stopReason']).toBe('tool_budget_exhausted');
    const other = convert(body('tool_budget_exhausted'), { from: 'bedrock-converse', to: 'anthropic-messages', kind: 'response' });
    expect((other.value as Record<string, unknown>)['stop_reason']).toBe('end_turn');
  });

  it('maps other formats\' reasons, reporting the approximate ones', () => {
    const res = (unified: 'refusal' | 'pause' | 'stop-sequence', raw: string, sequence?: string): Response => ({
      choices: [{ index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: 'x' }] }, stopReason: { unified, raw, ...(sequence ? { sequence } : {}) } }],
      usage: { inputTokens: 1, outputTokens: 1 },
    });
    const refusal = encodeRes(res('refusal', 'refusal'));
    expect(refusal.value['stopReason']).toBe('content_filtered');
    expect(codes(refusal.losses)).toEqual(['stop-reason', 'missing-metrics']);
    const stop = encodeRes(res('stop-sequence', 'stop_sequence', 'END'));
    expect(stop.value['stopReason']).toBe('stop_sequence');
    expect(codes(stop.losses)).toEqual(['stop-sequence', 'missing-metrics']);
  });
});

describe('response residue and content', () => {
  it('keeps metrics, trace and additionalModelResponseFields, reported when converting elsewhere', () => {
    const wire = body('end_turn', { trace: { guardrail: { actionReason: 'No action.' } }, additionalModelResponseFields: { stop_sequence: null } });
    const res = decodeRes(wire);
    expect(res.ext?.['bedrock-converse']).toEqual({ metrics: { latencyMs: 12 }, trace: { guardrail: { actionReason: 'No action.' } }, additionalModelResponseFields: { stop_sequence: null } });
    expect(encodeRes(res).value).toEqual(wire);
    const there = convert(wire, { from: 'bedrock-converse', to: 'openai-chat', kind: 'response' });
    expect(there.losses.filter((l) => l.code === 'unsupported-field').map((l) => l.path.join('.'))).toEqual(['metrics', 'trace', 'additionalModelResponseFields']);
  });

  it('decodes reasoning, redacted reasoning, server tool use and its typed result', () => {
    const res = decodeRes(sample('response', 'test_bedrock_model_with_code_execution_tool.yaml#0'));
    const parts = res.choices[0]?.message.parts ?? [];
    expect(parts.map((p) => p.type)).toEqual(['tool-call', 'tool-result', 'tool-call']);
    expect(parts[0]).toMatchObject({ type: 'tool-call', name: 'nova_code_interpreter', providerExecuted: true });
    expect(parts[1]).toMatchObject({ type: 'tool-result', providerExecuted: true, isError: false, content: [{ type: 'data', data: { stdOut: '7006652', exitCode: 0 } }] });
    const redacted = decodeRes(sample('response', 'test_bedrock_model_thinking_part_redacted.yaml#0')).choices[0]?.message.parts[0];
    expect(redacted).toMatchObject({ type: 'reasoning', origin: 'bedrock-converse' });
    expect(redacted?.type === 'reasoning' && redacted.redactedData?.startsWith('RXU4RUNrZ0lCeEFCR0FJ')).toBe(true);
  });

  it('Bedrock reasoning goes to no other provider: Anthropic drops it, reported', () => {
    const wire = sample('response', 'amazon-bedrock-reasoning');
    const there = convert(wire, { from: 'bedrock-converse', to: 'anthropic-messages', kind: 'response' });
    expect((there.value as { content: { type: string }[] }).content.map((b) => b.type)).toEqual(['text']);
    expect(there.losses.filter((l) => l.code === 'foreign-reasoning').map((l) => l.path.join('.'))).toEqual(['choices.0.message.parts.0']);
    // Under preserve the signature comes back byte-exact.
    const kept = convert(wire, { from: 'bedrock-converse', to: 'anthropic-messages', kind: 'response', preserve: true });
    expect(convert(kept.value, { from: 'anthropic-messages', to: 'bedrock-converse', kind: 'response' }).value).toEqual(wire);
  });

  it('writes a valid body for a response of another origin, reporting what Bedrock has no slot for', () => {
    const res: Response = {
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      created: 1700000000,
      choices: [
        { index: 0, message: { role: 'assistant', parts: [{ type: 'text', text: '' }, { type: 'tool-call', id: 'call_1', name: 'f', arguments: { a: 1 }, argumentsJson: '{"a": 1}' }] }, stopReason: { unified: 'tool-calls', raw: 'tool_calls' } },
        { index: 1, message: { role: 'assistant', parts: [{ type: 'text', text: 'alt' }] } },
      ],
    };
    const { value, losses } = encodeRes(res);
    expect(value).toEqual({
      output: { message: { role: 'assistant', content: [{ text: '' }, { toolUse: { toolUseId: 'call_1', name: 'f', input: { a: 1 } } }] } },
      stopReason: 'tool_use',
      usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
      metrics: { latencyMs: 0 },
    });
    expect(validateBedrockConverse('response', value)).toEqual([]);
    expect(losses.map((l) => [l.code, l.path.join('.')])).toEqual([
      ['arguments-text', 'choices.0.message.parts.1.argumentsJson'],
      ['extra-choices', 'choices'],
      ['missing-usage', 'usage'],
      ['missing-metrics', 'metrics'],
      ['unsupported-field', 'id'],
      ['unsupported-field', 'model'],
      ['unsupported-field', 'created'],
    ]);
    const kept = encodeRes(res, true);
    expect(decodeRes(kept.value)).toEqual(res);
  });
});
