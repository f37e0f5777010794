/** Round trips and decoded meaning on the real captures copied into test/fixtures. */
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ReasoningPart, TextPart, ToolResultPart } from '../../../src/model/part.js';
import { listFiles, LOCAL_FIXTURES, readExchanges } from '../../support/captures.js';
import { decodeReq, decodeRes, encodeReq, encodeRes, issuesOf } from './helpers.js';

const DIR = join(LOCAL_FIXTURES, 'anthropic-messages');
const json = (rel: string): unknown => JSON.parse(readFileSync(join(DIR, rel), 'utf8'));
const exchanges = listFiles(join(DIR, 'exchanges'), ['.yaml', '.json']).flatMap((f) => readExchanges(f, DIR));
const REJECTED = 'exchanges/TestSyncRunTools__tool_call_error__f59a9391.json#1';

describe('round trip on copied captures (A -> canonical -> A is deep-equal, no losses)', () => {
  for (const file of listFiles(join(DIR, 'response'), ['.json'])) {
    it(`response ${basename(file)}`, () => {
      const body: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const { value, losses } = encodeRes(decodeRes(body));
      expect(value).toEqual(body);
      expect(losses).toEqual([]);
    });
  }
  for (const file of listFiles(join(DIR, 'requests'), ['.json'])) {
    if (basename(file) === 'reasoning.json') continue; // invalid vector, tested below
    it(`request ${basename(file)}`, () => {
      const body: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const { value, losses } = encodeReq(decodeReq(body));
      expect(value).toEqual(body);
      expect(losses).toEqual([]);
    });
  }
  it('finds the exchanges', () => expect(exchanges.length).toBeGreaterThanOrEqual(12));
  for (const ex of exchanges) {
    if (ex.name === REJECTED) continue;
    it(`exchange ${ex.name}`, () => {
      const req = encodeReq(decodeReq(ex.request));
      expect(req.value).toEqual(ex.request);
      expect(req.losses).toEqual([]);
      if (ex.response !== undefined && ex.status === 200) expect(encodeRes(decodeRes(ex.response)).value).toEqual(ex.response);
    });
  }
});

describe('what the captures decode to', () => {
  it('rejects the request the real API rejected, at the orphan tool_result', () => {
    const ex = exchanges.find((e) => e.name === REJECTED);
    expect(ex?.status).toBe(400);
    const issues = issuesOf(() => decodeReq(ex?.request));
    // The API merged the two user turns first and said messages.0.content.1; we name the wire spot.
    expect(issues.map((i) => [i.code, i.path])).toEqual([['tool_result_without_use', ['messages', 1, 'content', 0, 'tool_use_id']]]);
  });

  it('rejects the agentgateway vector whose output_format is a string', () => {
    expect(issuesOf(() => decodeReq(json('requests/reasoning.json'))).map((i) => i.path)).toEqual([['output_format']]);
  });

  it('keeps thinking text and signature byte-exact, in order before the answer', () => {
    const body = json('response/anthropic-clear-thinking.1.json') as { content: { type: string; thinking?: string; signature?: string }[] };
    const parts = decodeRes(body).choices[0]!.message.parts;
    const wire = body.content[0]!;
    expect(wire.type).toBe('thinking');
    expect(parts[0]).toEqual({ type: 'reasoning', origin: 'anthropic-messages', text: wire.thinking, signature: wire.signature });
  });

  it('keeps redacted thinking data byte-exact', () => {
    const ex = exchanges.find((e) => e.name.startsWith('exchanges/test_anthropic_model_thinking_part_redacted.yaml#0'));
    const res = ex?.response as { content: { type: string; data?: string }[] };
    const wire = res.content.find((b) => b.type === 'redacted_thinking');
    expect(wire?.data?.length).toBeGreaterThan(100);
    const part = decodeRes(res).choices[0]!.message.parts.find((p) => p.type === 'reasoning' && p.redactedData !== undefined) as ReasoningPart;
    expect(part.redactedData).toBe(wire?.data);
  });

  it('turns web search citations into url citations with the encrypted index', () => {
    const res = decodeRes(json('response/anthropic-web-search-tool.1.json'));
    const cited = res.choices[0]!.message.parts.find((p): p is TextPart => p.type === 'text' && p.citations !== undefined);
    expect(cited?.citations?.[0]).toMatchObject({ type: 'url', url: expect.stringMatching(/^https?:/), encryptedIndex: expect.any(String), citedText: expect.any(String) });
    const results = res.choices[0]!.message.parts.find((p): p is ToolResultPart => p.type === 'tool-result');
    expect(results?.providerExecuted).toBe(true);
    expect(results?.content[0]).toMatchObject({ type: 'search-result', source: expect.stringMatching(/^https?:/), encryptedContent: expect.any(String) });
  });

  it('adds cache reads and writes into inputTokens (Anthropic input_tokens excludes them)', () => {
    const ex = exchanges.find((e) => e.name.startsWith('exchanges/test_anthropic_cache_real_api.yaml#1'));
    const wire = (ex?.response as { usage: Record<string, number> }).usage;
    const usage = decodeRes(ex?.response).usage!;
    const read = wire['cache_read_input_tokens'] ?? 0;
    const write = wire['cache_creation_input_tokens'] ?? 0;
    expect(read + write).toBeGreaterThan(0);
    expect(usage.inputTokens).toBe(wire['input_tokens']! + read + write);
    expect(usage.cacheReadTokens).toBe(read);
    expect(usage.cacheWriteTokens).toBe(write);
    expect(usage.raw).toBe(wire);
  });

  it('maps mid-conversation system messages (SDK SystemMessageParam) in place and back', () => {
    const req = decodeReq(json('requests/system_message.json'));
    expect(req.messages.map((m) => m.role)).toEqual(['user', 'system']);
  });
});
