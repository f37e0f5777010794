/**
 * Cross-check against agentgateway's Anthropic <-> Chat Completions conversion vectors
 * (test/fixtures/conversion/agentgateway, Apache-2.0). Each vector's input goes through our
 * `convert` and the result is compared with agentgateway's expected output. Forms the two APIs
 * document as equivalent are normalised first (NORMALISED below); every difference that remains is
 * listed per vector with who is right by the official API docs and why
 * (docs/decisions/0002-agentgateway-vectors.md), so a new difference fails, and so does a listed
 * one that goes away. The bugs of ours the vectors showed (B1-B3) are fixed and checked at the end.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convert, ValidationError } from '../../src/index.js';
import { compare, expected, expectListed, isObj, readJson, ROOT, type Json, type Known, type Kind, type Vector } from './agentgateway-support.js';
import { diff } from './diff.js';

type Dialect = 'anthropic-messages' | 'openai-chat';

const SETS: { dir: string; suffix: string; from: Dialect; to: Dialect; kind: Kind }[] = [
  { dir: 'requests/completions', suffix: '.anthropic.snap', from: 'openai-chat', to: 'anthropic-messages', kind: 'request' },
  { dir: 'requests/messages', suffix: '.completions.snap', from: 'anthropic-messages', to: 'openai-chat', kind: 'request' },
  { dir: 'response/anthropic', suffix: '.messages-completions.snap', from: 'anthropic-messages', to: 'openai-chat', kind: 'response' },
  { dir: 'response/completions', suffix: '.completions-messages.snap', from: 'openai-chat', to: 'anthropic-messages', kind: 'response' },
];

// --- reasons shared by several vectors -------------------------------------------------------
const REFUSAL: Known = { verdict: 'ours', reason: 'ChatCompletion message.refusal is a required (nullable) field' };
const LOGPROBS: Known = { verdict: 'ours', reason: 'ChatCompletion choices[].logprobs is a required (nullable) field' };
const OAI_TIER: Known = {
  verdict: 'ours',
  reason: "Anthropic 'standard' is no Chat Completions service_tier (auto|default|flex|scale|priority)",
  loss: 'unsupported-field',
};
const ANT_TIER: Known = {
  verdict: 'ours',
  reason: "OpenAI 'default' is no Anthropic usage.service_tier (standard|priority|batch)",
  loss: 'unsupported-field',
};
const PROMPT_TOKENS: Known = {
  verdict: 'ours',
  reason: 'prompt_tokens include cached tokens (cached_tokens are "present in the prompt"); Anthropic input_tokens exclude cache reads and writes, so they are added',
};
const CACHE_EXTRAS: Known = { verdict: 'ours', reason: 'not a Chat Completions usage field (cache counts go in prompt_tokens_details)' };
const BREAKPOINT: Known = {
  verdict: 'theirs',
  reason: 'Chat Completions text parts take prompt_cache_breakpoint (GPT-5.6+); we drop cache_control instead (valid, reported)',
  loss: 'cache-control',
};
const JOINED: Known = {
  verdict: 'theirs',
  reason: 'Chat Completions takes an array of text parts for every role; we join the blocks with blank lines (valid, reported)',
  loss: 'text-joined',
};
const EFFORT: Known = {
  verdict: 'ours',
  reason:
    'effort docs pair output_config.effort with adaptive thinking (Claude reasons only with thinking on); theirs invents a budget with thinking.enabled, deprecated on Opus 4.6 and rejected from Opus 4.7 (adaptive-thinking docs)',
};

const SAMPLING: Known = {
  verdict: 'ours',
  reason:
    'API version 2026-10-21 (the official SDK\'s default, whose MessageCreateParams has no sampling fields) refuses temperature, top_p and top_k, and newer models refuse them under every version; we drop them (reported), theirs copies them',
  loss: 'unsupported-field',
};

/** Merges consecutive same-role messages, as the Messages API does with consecutive turns. */
function mergeTurns(body: Json): Json {
  const out: Json[] = [];
  for (const m of body['messages'] as Json[]) {
    const prev = out[out.length - 1];
    if (prev && prev['role'] === m['role']) prev['content'] = [...(prev['content'] as unknown[]), ...(m['content'] as unknown[])];
    else out.push({ ...m });
  }
  return { ...body, messages: out };
}

const VECTORS: Record<string, Vector> = {
  'requests/completions/basic': {},
  'requests/completions/full': {
    known: {
      output_config: {
        verdict: 'ours',
        reason:
          'json_object has no Anthropic form: structured outputs need additionalProperties false on every object (the SDK forces it), so there is no "any object" schema; we send none and report it, theirs sets true, which is rejected',
        loss: 'json-object-format',
      },
      temperature: SAMPLING,
      top_p: SAMPLING,
    },
  },
  'requests/completions/image-url': {},
  'requests/completions/reasoning': { known: { output_config: EFFORT, 'thinking.budget_tokens': EFFORT, 'thinking.type': EFFORT } },
  'requests/completions/reasoning_max': { known: { output_config: EFFORT, 'thinking.budget_tokens': EFFORT, 'thinking.type': EFFORT } },
  'requests/completions/tool-call': {
    reshape: {
      side: 'theirs',
      apply: mergeTurns,
      verdict: 'ours',
      reason:
        'same turns for the API (consecutive user turns are combined); the tool-use docs ask for all results of parallel calls in one user message',
    },
  },
  'requests/messages/basic': {},
  'requests/messages/cache_control': {
    reshape: {
      side: 'ours',
      apply: (b) => ({ ...b, messages: (b['messages'] as Json[]).filter((_, i) => i !== 8) }),
      verdict: 'ours',
      reason: 'tool messages hold text only: we move the tool-result images to a user message after the tool messages; theirs drops them',
    },
    known: {
      'messages.0.content': JOINED,
      'messages.1.content': JOINED,
      'messages.4.content.0.prompt_cache_breakpoint': BREAKPOINT,
      'messages.5.content.0.prompt_cache_breakpoint': BREAKPOINT,
      'messages.6.content.0.prompt_cache_breakpoint': BREAKPOINT,
      'messages.6.content.0.text': {
        verdict: 'ours',
        reason: 'the image-only result says where its content went; theirs sends empty text (the image is lost)',
        loss: 'tool-result-media',
      },
      'messages.7.content.1.prompt_cache_breakpoint': BREAKPOINT,
      'messages.8.content.0.prompt_cache_breakpoint': BREAKPOINT,
    },
  },
  'requests/messages/gpt_adaptive_thinking_with_tools': {
    known: {
      reasoning_effort: {
        verdict: 'model',
        reason:
          "adaptive ('model decides') has no Chat Completions value, we omit it (reported); 'none' turns reasoning off, but gpt-5.6 rejects function tools in Chat Completions without it",
        loss: 'reasoning-mode',
      },
    },
  },
  'requests/messages/metadata': {},
  'requests/messages/reasoning': {
    rejects: {
      path: 'output_format',
      verdict: 'ours',
      reason: "output_format is the retired beta name of output_config.format, an object: 'markdown' is no valid value",
    },
  },
  'requests/messages/server_tools': {},
  'requests/messages/structured-output': {
    known: {
      'response_format.json_schema.name': { verdict: 'either', reason: 'Chat Completions requires a name; Anthropic has none, so any valid name will do' },
      reasoning_effort: {
        verdict: 'either',
        reason: "Anthropic effort (all output; 'high' is its default) has no exact Chat Completions twin; we carry the stated level, they drop it",
      },
    },
  },
  'requests/messages/system_message': { known: { 'messages.0.content': JOINED } },
  'requests/messages/tools': {},
  'response/anthropic/basic': {
    known: {
      'choices.0.message.refusal': REFUSAL,
      'choices.0.logprobs': LOGPROBS,
      'usage.prompt_tokens': PROMPT_TOKENS,
      'usage.total_tokens': PROMPT_TOKENS,
      'usage.cache_read_input_tokens': CACHE_EXTRAS,
      'usage.cache_creation_input_tokens': CACHE_EXTRAS,
      service_tier: OAI_TIER,
    },
  },
  'response/anthropic/multiple_text_blocks': {
    known: { 'choices.0.message.refusal': REFUSAL, 'choices.0.logprobs': LOGPROBS, service_tier: OAI_TIER },
  },
  'response/anthropic/thinking': {
    known: {
      'choices.0.message.refusal': REFUSAL,
      'choices.0.message.reasoning_content': {
        verdict: 'ours',
        reason: 'the Chat Completions message has no reasoning field (reasoning_content is a DeepSeek/vLLM extension); we report the dropped thinking',
        loss: 'foreign-reasoning',
      },
      'choices.0.logprobs': LOGPROBS,
      'usage.prompt_tokens': PROMPT_TOKENS,
      'usage.total_tokens': PROMPT_TOKENS,
      'usage.cache_read_input_tokens': CACHE_EXTRAS,
      'usage.cache_creation_input_tokens': CACHE_EXTRAS,
      service_tier: OAI_TIER,
    },
  },
  'response/anthropic/tool': {
    known: {
      'choices.0.message.refusal': REFUSAL,
      'choices.0.logprobs': LOGPROBS,
      'usage.prompt_tokens': PROMPT_TOKENS,
      'usage.total_tokens': PROMPT_TOKENS,
      'usage.cache_read_input_tokens': CACHE_EXTRAS,
      'usage.cache_creation_input_tokens': CACHE_EXTRAS,
      service_tier: OAI_TIER,
    },
  },
  'response/completions/audio': { known: { 'usage.service_tier': ANT_TIER } },
  'response/completions/basic': { known: { 'usage.service_tier': ANT_TIER } },
  'response/completions/cache_write': { known: { 'usage.service_tier': ANT_TIER } },
  'response/completions/gemini_with_completion_tokens': {},
  'response/completions/gemini_zero_completion_tokens': {},
  'response/completions/openrouter_reasoning': {},
  'response/completions/tool_call': { known: { 'usage.service_tier': ANT_TIER } },
  'response/completions/truncated_tool_call': {
    known: {
      'content.0.input': {
        verdict: 'ours',
        reason:
          'the reference says arguments are not always valid JSON, so the response is valid; tool_use.input is an object: we send {} and report the text, theirs writes the string',
        loss: 'invalid-arguments',
      },
    },
  },
};

// --- NORMALISED: forms the APIs document as the same ------------------------------------------
/** A string `content` is shorthand for one text block / part (both references: string or array). */
const blocks = (c: unknown): unknown => (typeof c === 'string' ? [{ type: 'text', text: c }] : c);

/**
 * String content as one text block (messages and Anthropic tool results), `stream: false` as absent
 * (the default of both), and no response `id` / `created` (insta redacts them to "[id]" / "[date]").
 */
function normalise(body: Json, kind: Kind): Json {
  const out: Json = { ...body };
  if (out['stream'] === false) delete out['stream'];
  if (kind === 'response') {
    delete out['id'];
    delete out['created'];
  }
  if (Array.isArray(out['messages'])) {
    out['messages'] = (out['messages'] as Json[]).map((m) => {
      const content = blocks(m['content']);
      if (!Array.isArray(content)) return { ...m, content };
      return { ...m, content: content.map((b: unknown) => (isObj(b) && b['type'] === 'tool_result' ? { ...b, content: blocks(b['content']) } : b)) };
    });
  }
  return out;
}

/** The cases of a set: inputs that have this set's snapshot (the folders hold other targets' too). */
const namesOf = (set: (typeof SETS)[number]): string[] =>
  readdirSync(join(ROOT, set.dir))
    .filter((f) => f.endsWith(set.suffix))
    .map((f) => f.slice(0, -set.suffix.length));

for (const set of SETS) {
  describe(`agentgateway ${set.dir}: ${set.from} -> ${set.to}`, () => {
    const names = namesOf(set);

    it('has vectors, each with an entry here', () => {
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((n) => !(`${set.dir}/${n}` in VECTORS))).toEqual([]);
    });

    for (const name of names) {
      const v = VECTORS[`${set.dir}/${name}`] ?? {};
      it(`${name}: agrees except where listed`, () => {
        const input = readJson(`${set.dir}/${name}.json`);
        const theirs = expected(`${set.dir}/${name}${set.suffix}`);
        const run = () => convert<Json>(input, { from: set.from, to: set.to, kind: set.kind });
        if (v.rejects) {
          expect(run).toThrow(ValidationError);
          try {
            run();
          } catch (e) {
            expect((e as ValidationError).issues.map((i) => i.path.join('.'))).toContain(v.rejects.path);
          }
          return;
        }
        const out = run();
        expectListed(compare(normalise(out.value, set.kind), normalise(theirs, set.kind), v), v, out.losses);
      });
    }
  });
}

describe('agentgateway vectors: bookkeeping', () => {
  it('lists no vector that is not in the fixtures', () => {
    const present = new Set(SETS.flatMap((s) => namesOf(s).map((n) => `${s.dir}/${n}`)));
    expect(Object.keys(VECTORS).filter((k) => !present.has(k))).toEqual([]);
  });

  it('requests/messages/reasoning without its invalid output_format agrees entirely', () => {
    const { output_format: _dropped, ...input } = readJson('requests/messages/reasoning.json');
    const out = convert<Json>(input, { from: 'anthropic-messages', to: 'openai-chat' });
    expect(diff(normalise(out.value, 'request'), normalise(expected('requests/messages/reasoning.completions.snap'), 'request'))).toEqual([]);
  });
});

describe('bugs the vectors showed, fixed (docs/decisions/0002 B1-B3)', () => {
  it('B2: reasoning_effort reaches Anthropic as adaptive thinking with that effort, so Claude reasons', () => {
    const body = { model: 'claude-opus-4-6', messages: [{ role: 'user', content: 'hi' }], reasoning_effort: 'medium' };
    const out = convert<Json>(body, { from: 'openai-chat', to: 'anthropic-messages' });
    expect(out.value['thinking']).toEqual({ type: 'adaptive' });
    expect(out.value['output_config']).toEqual({ effort: 'medium' });
  });

  it('B1: json_object reaches Anthropic as no output format, reported', () => {
    const body = { model: 'claude-opus-4-6', messages: [{ role: 'user', content: 'hi' }], response_format: { type: 'json_object' } };
    const out = convert<Json>(body, { from: 'openai-chat', to: 'anthropic-messages' });
    expect(out.value['output_config']).toBeUndefined();
    expect(out.losses).toContainEqual(expect.objectContaining({ code: 'json-object-format', path: ['responseFormat'], action: 'dropped' }));
  });

  it('B3: a Chat Completions response whose tool arguments are not JSON converts, reported', () => {
    const body = readJson('response/completions/truncated_tool_call.json');
    const out = convert<Json>(body, { from: 'openai-chat', to: 'anthropic-messages', kind: 'response' });
    expect(out.value['stop_reason']).toBe('max_tokens');
    expect(out.value['content']).toEqual([{ type: 'tool_use', id: 'call_1', name: 'get_weather', input: {} }]);
    expect(out.losses.some((l) => l.path[0] === 'choices' && l.action !== 'stashed')).toBe(true);
  });
});
