/**
 * The generated conversation written in each source dialect: the Anthropic body converted to the
 * dialect (what each dialect cannot hold is dropped, as a client of that dialect would send it:
 * OpenAI Chat has no reasoning, so its body has none). ag-ui's request is a RunAgentInput, a2a's a
 * list of A2A messages; both come out of `convert` like the others. A source that cannot be written
 * is reported with the reason instead of stopping the bench.
 */
import { convert } from '../../src/index.js';
import { anthropicRequest, anthropicResponse, type Images } from './generate.js';

export const PROVIDERS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'] as const;
export const SOURCES: readonly string[] = [...PROVIDERS, 'agent-input', 'ag-ui', 'a2a'];
export const TARGETS: readonly string[] = [...PROVIDERS, 'agent-input'];

const listEnv = (name: string, fallback: readonly string[]): string[] => {
  const v = process.env[name];
  return v === undefined || v === '' ? [...fallback] : v.split(',').map((s) => s.trim());
};
export const sourcesFromEnv = (): string[] => listEnv('BENCH_SOURCES', SOURCES);
export const targetsFromEnv = (): string[] => listEnv('BENCH_TARGETS', TARGETS);

export interface Bodies {
  /** Source dialect -> its body, as JSON text (what a server receives). */
  text: Map<string, string>;
  /** Source dialect -> why it could not be written. */
  failed: Map<string, string>;
}

function write(source: unknown, dialects: readonly string[], kind: 'request' | 'response'): Bodies {
  const text = new Map<string, string>();
  const failed = new Map<string, string>();
  for (const d of dialects) {
    try {
      const body = d === 'anthropic-messages' ? source : convert(source, { from: 'anthropic-messages', to: d, kind }).value;
      text.set(d, JSON.stringify(body));
    } catch (err) {
      failed.set(d, (err as Error).message.slice(0, 160));
    }
  }
  return { text, failed };
}

export function requestBodies(messages: number, images: Images, dialects: readonly string[]): Bodies {
  return write(anthropicRequest({ messages, images }), dialects, 'request');
}

/** Response bodies: only the dialects with a response codec (the five providers). */
export function responseBodies(dialects: readonly string[] = PROVIDERS): Bodies {
  return write(anthropicResponse(), dialects, 'response');
}
