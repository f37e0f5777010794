/**
 * The official SDKs as gateway clients (only the base URL points at the gateway), each call read
 * back into one shape: the text, the tool calls with their arguments, the stop reason in the
 * client's own vocabulary and the usage by the client's own accounting.
 */
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, type Part } from '@google/genai';
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type ContentBlock } from '@aws-sdk/client-bedrock-runtime';
import type { Dialect } from './replay-upstream.js';

export interface ReadBack {
  text: string;
  calls: { name: string; args: unknown }[];
  stop: string | undefined;
  usage: { input: number | undefined; output: number | undefined };
}

export const QUESTION = "What's the weather in Paris?";
const SCHEMA: { type: 'object'; properties: Record<string, { type: 'string' }>; required: string[] } = { type: 'object', properties: { location: { type: 'string' } }, required: ['location'] };

export interface ClientOptions {
  key?: string;
  headers?: Record<string, string>;
}

export function openaiClient(base: string, o: ClientOptions = {}): OpenAI {
  return new OpenAI({ baseURL: `${base}/v1`, apiKey: o.key ?? 'client-key', maxRetries: 0, timeout: 15_000, ...(o.headers ? { defaultHeaders: o.headers } : {}) });
}
export function anthropicClient(base: string, o: ClientOptions = {}): Anthropic {
  return new Anthropic({ baseURL: base, apiKey: o.key ?? 'client-key', maxRetries: 0, timeout: 15_000, ...(o.headers ? { defaultHeaders: o.headers } : {}) });
}
export function geminiClient(base: string, o: ClientOptions = {}): GoogleGenAI {
  return new GoogleGenAI({ apiKey: o.key ?? 'client-key', httpOptions: { baseUrl: base, timeout: 15_000, ...(o.headers ? { headers: o.headers } : {}) } });
}
export function bedrockClient(base: string, o: ClientOptions & { bearer?: boolean } = {}): BedrockRuntimeClient {
  const client = new BedrockRuntimeClient({
    region: 'us-east-1',
    endpoint: base,
    maxAttempts: 1,
    ...(o.bearer === true ? { token: { token: o.key ?? 'client-key' }, authSchemePreference: ['httpBearerAuth'] } : { credentials: { accessKeyId: 'AKIDCLIENT', secretAccessKey: 'client-secret' } }),
  });
  if (o.headers !== undefined) {
    const extra = o.headers;
    client.middlewareStack.add(
      (next) => async (args) => {
        const req = args.request as { headers: Record<string, string> };
        Object.assign(req.headers, extra);
        return next(args);
      },
      { step: 'build', name: 'testHeaders' },
    );
  }
  return client;
}

function parseArgs(s: string | undefined): unknown {
  return s === undefined || s === '' ? {} : JSON.parse(s);
}

/** One call of `client`'s dialect for `model`, plain or streaming, read back. */
export async function callThrough(client: Dialect, base: string, model: string, stream: boolean, o: ClientOptions = {}): Promise<ReadBack> {
  switch (client) {
    case 'openai-chat': {
      const c = openaiClient(base, o);
      const params = { model, messages: [{ role: 'user' as const, content: QUESTION }], tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: SCHEMA } }] };
      const r = stream ? await c.chat.completions.stream({ ...params, stream_options: { include_usage: true } }).finalChatCompletion() : await c.chat.completions.create(params);
      const m = r.choices[0]?.message;
      return {
        text: m?.content ?? '',
        // Some Chat providers (Mistral) leave out `type: function`; pass-through keeps their bytes.
        calls: (m?.tool_calls ?? []).map((t) => ('function' in t ? { name: t.function.name, args: parseArgs(t.function.arguments) } : { name: '?', args: null })),
        stop: r.choices[0]?.finish_reason,
        usage: { input: r.usage?.prompt_tokens, output: r.usage?.completion_tokens },
      };
    }
    case 'openai-responses': {
      const c = openaiClient(base, o);
      const params = { model, input: QUESTION, tools: [{ type: 'function' as const, name: 'get_weather', parameters: SCHEMA, strict: false }] };
      const r = stream ? await c.responses.stream(params).finalResponse() : await c.responses.create(params);
      return {
        text: r.output_text,
        calls: r.output.flatMap((i) => (i.type === 'function_call' ? [{ name: i.name, args: parseArgs(i.arguments) }] : [])),
        stop: r.status,
        usage: { input: r.usage?.input_tokens, output: r.usage?.output_tokens },
      };
    }
    case 'anthropic-messages': {
      const c = anthropicClient(base, o);
      const params = { model, max_tokens: 1024, messages: [{ role: 'user' as const, content: QUESTION }], tools: [{ name: 'get_weather', input_schema: SCHEMA }] };
      const m = stream ? await c.messages.stream(params).finalMessage() : await c.messages.create(params);
      const u = m.usage;
      return {
        text: m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join(''),
        calls: m.content.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, args: b.input }] : [])),
        stop: m.stop_reason ?? undefined,
        usage: { input: u.input_tokens + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0), output: u.output_tokens },
      };
    }
    case 'gemini': {
      const c = geminiClient(base, o);
      const params = { model, contents: QUESTION, config: { tools: [{ functionDeclarations: [{ name: 'get_weather', parametersJsonSchema: SCHEMA }] }] } };
      const parts: Part[] = [];
      let stop: string | undefined;
      let usage: ReadBack['usage'] = { input: undefined, output: undefined };
      const take = (r: Awaited<ReturnType<typeof c.models.generateContent>>): void => {
        const cand = r.candidates?.[0];
        parts.push(...(cand?.content?.parts ?? []));
        if (cand?.finishReason !== undefined) stop = cand.finishReason;
        const um = r.usageMetadata;
        if (um !== undefined) usage = { input: um.promptTokenCount, output: um.candidatesTokenCount === undefined && um.thoughtsTokenCount === undefined ? undefined : (um.candidatesTokenCount ?? 0) + (um.thoughtsTokenCount ?? 0) };
      };
      if (stream) for await (const chunk of await c.models.generateContentStream(params)) take(chunk);
      else take(await c.models.generateContent(params));
      return {
        text: parts.flatMap((p) => (p.text !== undefined && p.thought !== true ? [p.text] : [])).join(''),
        calls: parts.flatMap((p) => (p.functionCall ? [{ name: p.functionCall.name ?? '', args: p.functionCall.args ?? {} }] : [])),
        stop,
        usage,
      };
    }
    case 'bedrock-converse': {
      const c = bedrockClient(base, o);
      const input = { modelId: model, messages: [{ role: 'user' as const, content: [{ text: QUESTION }] }], toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: SCHEMA } } }] } };
      try {
        if (!stream) {
          const r = await c.send(new ConverseCommand(input as never));
          const content: ContentBlock[] = r.output?.message?.content ?? [];
          return {
            text: content.flatMap((b) => (b.text !== undefined ? [b.text] : [])).join(''),
            calls: content.flatMap((b) => (b.toolUse ? [{ name: b.toolUse.name ?? '', args: b.toolUse.input }] : [])),
            stop: r.stopReason,
            usage: { input: r.usage === undefined ? undefined : (r.usage.inputTokens ?? 0) + (r.usage.cacheReadInputTokens ?? 0) + (r.usage.cacheWriteInputTokens ?? 0), output: r.usage?.outputTokens },
          };
        }
        const r = await c.send(new ConverseStreamCommand(input as never));
        const out: ReadBack = { text: '', calls: [], stop: undefined, usage: { input: undefined, output: undefined } };
        const pending = new Map<number, { name: string; json: string }>();
        for await (const e of r.stream ?? []) {
          if (e.contentBlockStart?.start?.toolUse) pending.set(e.contentBlockStart.contentBlockIndex ?? 0, { name: e.contentBlockStart.start.toolUse.name ?? '', json: '' });
          const d = e.contentBlockDelta;
          if (d?.delta?.text !== undefined) out.text += d.delta.text;
          if (d?.delta?.toolUse) (pending.get(d.contentBlockIndex ?? 0) as { json: string }).json += d.delta.toolUse.input ?? '';
          if (e.contentBlockStop) {
            const p = pending.get(e.contentBlockStop.contentBlockIndex ?? 0);
            if (p) out.calls.push({ name: p.name, args: parseArgs(p.json) });
          }
          if (e.messageStop) out.stop = e.messageStop.stopReason;
          if (e.metadata?.usage) out.usage = { input: (e.metadata.usage.inputTokens ?? 0) + (e.metadata.usage.cacheReadInputTokens ?? 0) + (e.metadata.usage.cacheWriteInputTokens ?? 0), output: e.metadata.usage.outputTokens };
        }
        return out;
      } finally {
        c.destroy();
      }
    }
  }
}

/** The stop reason a tool-call answer has in each client dialect. */
export const TOOL_STOP: Record<Dialect, string> = {
  'openai-chat': 'tool_calls',
  'openai-responses': 'completed',
  'anthropic-messages': 'tool_use',
  gemini: 'STOP',
  'bedrock-converse': 'tool_use',
};
