/**
 * A language model's answer (the content of `doGenerate`, or the parts of `doStream` gathered) as
 * the assistant prompt message the AI SDK itself sends back in its next step, so that what memory
 * stores is what the next call's prompt will hold (the middleware matches them up).
 * As the SDK does (`toResponseMessages`): text, reasoning, files, custom parts and tool calls with
 * their providerMetadata as providerOptions; tool calls with parsed `input`; tool results only when
 * the provider ran the tool (client tool results come back in the next prompt's tool message).
 * Not kept, reported: sources (the SDK sends none back) and tool approval requests; a tool call
 * whose input is not JSON is kept with input `{}` (`invalid-arguments`).
 */
import type { LanguageModelV4Content, LanguageModelV4Message, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { Loss } from '../../model/loss.js';

type Obj = Record<string, unknown>;

const withOptions = (out: Obj, metadata: unknown): Obj => (metadata === undefined ? out : { ...out, providerOptions: metadata });

/** The assistant message of an answer, or undefined when it holds nothing to send back. */
export function answerMessage(content: readonly LanguageModelV4Content[], losses: Loss[]): LanguageModelV4Message | undefined {
  const parts: Obj[] = [];
  content.forEach((c, i) => {
    const lose = (code: string, message: string): void => void losses.push({ code, path: ['content', i], message, action: 'dropped' });
    switch (c.type) {
      case 'text':
        if (c.text === '' && c.providerMetadata === undefined) return;
        parts.push(withOptions({ type: 'text', text: c.text }, c.providerMetadata));
        return;
      case 'reasoning':
        parts.push(withOptions({ type: 'reasoning', text: c.text }, c.providerMetadata));
        return;
      case 'file':
      case 'reasoning-file':
        parts.push(withOptions({ type: c.type, data: c.data, mediaType: c.mediaType }, c.providerMetadata));
        return;
      case 'custom':
        parts.push(withOptions({ type: 'custom', kind: c.kind }, c.providerMetadata));
        return;
      case 'tool-call': {
        let input: unknown;
        try {
          input = JSON.parse(c.input === '' ? '{}' : c.input);
        } catch {
          losses.push({ code: 'invalid-arguments', path: ['content', i, 'input'], message: `tool call ${c.toolCallId}: input is not JSON, stored as {}`, action: 'approximated' });
          input = {};
        }
        const out: Obj = { type: 'tool-call', toolCallId: c.toolCallId, toolName: c.toolName, input };
        if (c.providerExecuted === true) out['providerExecuted'] = true;
        parts.push(withOptions(out, c.providerMetadata));
        return;
      }
      case 'tool-result':
        if (c.isError === true) parts.push(withOptions({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'error-json', value: c.result } }, c.providerMetadata));
        else parts.push(withOptions({ type: 'tool-result', toolCallId: c.toolCallId, toolName: c.toolName, output: { type: 'json', value: c.result } }, c.providerMetadata));
        return;
      case 'source':
        lose('source', `source ${c.id} is not stored: the AI SDK sends sources back to no model`);
        return;
      default:
        lose('tool-approval-request', 'a tool approval request is not stored: its answer comes in the next prompt');
    }
  });
  return parts.length === 0 ? undefined : ({ role: 'assistant', content: parts } as unknown as LanguageModelV4Message);
}

const merge = (a: unknown, b: unknown): unknown => {
  if (b === undefined) return a;
  if (a === undefined) return b;
  const out: Obj = { ...(a as Obj) };
  for (const [k, v] of Object.entries(b as Obj)) out[k] = { ...(out[k] as Obj | undefined), ...(v as Obj) };
  return out;
};

/**
 * Gathers a stream's parts into the content `doGenerate` would have given: text and reasoning by id
 * in the order they started (their providerMetadata merged from start, deltas and end), whole parts
 * as they come. `failed` is set when the stream carried an error part.
 */
export class StreamAnswer {
  readonly content: LanguageModelV4Content[] = [];
  failed = false;
  private readonly open = new Map<string, Obj>();

  push(part: LanguageModelV4StreamPart): void {
    switch (part.type) {
      case 'text-start':
      case 'reasoning-start': {
        const entry: Obj = { type: part.type === 'text-start' ? 'text' : 'reasoning', text: '' };
        if (part.providerMetadata !== undefined) entry['providerMetadata'] = part.providerMetadata;
        this.open.set(`${entry['type'] as string}:${part.id}`, entry);
        this.content.push(entry as unknown as LanguageModelV4Content);
        return;
      }
      case 'text-delta':
      case 'reasoning-delta':
      case 'text-end':
      case 'reasoning-end': {
        const entry = this.open.get(`${part.type.startsWith('text') ? 'text' : 'reasoning'}:${part.id}`);
        if (entry === undefined) return;
        if ('delta' in part) entry['text'] = (entry['text'] as string) + part.delta;
        const metadata = merge(entry['providerMetadata'], part.providerMetadata);
        if (metadata !== undefined) entry['providerMetadata'] = metadata;
        return;
      }
      case 'tool-call':
      case 'tool-result':
      case 'file':
      case 'reasoning-file':
      case 'custom':
      case 'source':
      case 'tool-approval-request':
        this.content.push(part);
        return;
      case 'error':
        this.failed = true;
        return;
      default:
        // tool-input-* (the whole call follows), stream-start, response-metadata, finish, raw, ping.
        return;
    }
  }
}
