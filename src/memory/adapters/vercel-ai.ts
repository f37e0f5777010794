/**
 * `interlingua/memory/vercel-ai`: conversation memory for the Vercel AI SDK, as a language-model
 * middleware (`LanguageModelV4Middleware`, specificationVersion 'v4'):
 * `wrapLanguageModel({ model, middleware: aiSdkMemory(mem, { userId, agentId }) })`.
 * Only types come from `ai` / `@ai-sdk/provider`; nothing of theirs is loaded at run time.
 *
 * On every model call (each step of generateText / streamText):
 * 1. transformParams: the session's last k turns go into the prompt after its leading system
 *    messages and before the caller's messages. Memory and the caller may hold the same messages
 *    (a later step of the same call carries the earlier steps' assistant and tool messages; a chat
 *    UI may send its whole history): where the caller's messages repeat memory's last ones, those
 *    are not sent twice, and only the caller's messages after them are new. Messages are matched
 *    by role and what they say (texts, tool call / result ids, reasoning text, files).
 *    The new messages (the user's, or the tool results of the step before) are stored then.
 * 2. wrapGenerate / wrapStream: the model's answer (text, reasoning with its signature, tool calls,
 *    files, results of tools the provider ran) is stored as one assistant message once it is
 *    complete; a stream is passed through part by part and stored when it ends. A stream that
 *    reports an error part, or a call that throws, stores no answer.
 * The caller's own system messages are sent, never stored. Storage errors are thrown (the call
 * fails rather than forgets); losses go to `middleware.losses` and `onLoss`. Two calls on one session
 * at the same time are not ordered against each other.
 */
import type { LanguageModelV4Message, LanguageModelV4Middleware, LanguageModelV4Prompt, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import type { FormatId } from '../../model/format-id.js';
import type { Loss } from '../../model/loss.js';
import { createMemoryHooks, resolveSession, type SessionIds, type SessionRef } from '../hooks.js';
import type { Memory } from '../messages.js';
import { fromAiSdk, originOfProvider, toAiSdk } from './ai-sdk-messages.js';
import { answerMessage, StreamAnswer } from './ai-sdk-response.js';

export { fromAiSdk, toAiSdk, originOfProvider } from './ai-sdk-messages.js';

export interface AiSdkMemoryOptions {
  /** Turns put before the caller's messages; default 10. */
  k?: number;
  /** The origin of reasoning without a known signature; default from the model's provider id. */
  reasoningOrigin?: FormatId;
  /** Called with each loss as it happens. */
  onLoss?: (loss: Loss) => void;
}

export type AiSdkMemoryMiddleware = LanguageModelV4Middleware & {
  readonly session: SessionIds;
  /** Everything that could not be stored or recalled as given, in order. */
  readonly losses: Loss[];
};

type Obj = Record<string, unknown>;

function fileKey(data: unknown): string {
  const d = data as Obj | undefined;
  if (d?.['type'] === 'url') return String(d['url']);
  if (d?.['type'] === 'data') return d['data'] instanceof Uint8Array ? Buffer.from(d['data']).toString('base64') : String(d['data']);
  return JSON.stringify(d ?? null);
}

/** What a prompt message says, for telling whether two are the same message. */
export function messageKey(m: LanguageModelV4Message): string {
  if (m.role === 'system') return `system|${m.content}`;
  const parts = (m.content as unknown as Obj[]).map((p) => {
    switch (p['type']) {
      case 'text':
      case 'reasoning':
        return `${p['type'] as string}:${p['text'] as string}`;
      case 'tool-call':
      case 'tool-result':
        return `${p['type'] as string}:${p['toolCallId'] as string}`;
      case 'file':
      case 'reasoning-file':
        return `file:${p['mediaType'] as string}:${fileKey(p['data'])}`;
      default:
        return String(p['type']);
    }
  });
  return `${m.role}|${JSON.stringify(parts)}`;
}

/**
 * Where the caller's messages repeat memory's last ones: the caller's message equal to memory's last
 * (searching from the caller's end), and how many before it also match in order.
 */
function overlap(memory: readonly string[], caller: readonly string[]): { at: number; run: number } | undefined {
  const last = memory[memory.length - 1];
  if (last === undefined) return undefined;
  for (let at = caller.length - 1; at >= 0; at--) {
    if (caller[at] !== last) continue;
    let run = 1;
    while (run <= at && run < memory.length && caller[at - run] === memory[memory.length - 1 - run]) run++;
    return { at, run };
  }
  return undefined;
}

export function aiSdkMemory(mem: Memory, session: SessionRef, options: AiSdkMemoryOptions = {}): AiSdkMemoryMiddleware {
  const ids = resolveSession(session, 'aiSdkMemory');
  const hooks = createMemoryHooks(mem, options.k === undefined ? {} : { k: options.k });
  const losses: Loss[] = [];
  const report = (list: readonly Loss[]): void => {
    for (const loss of list) {
      losses.push(loss);
      options.onLoss?.(loss);
    }
  };
  const originOf = (provider: string): FormatId => options.reasoningOrigin ?? originOfProvider(provider);

  async function storeAnswer(message: LanguageModelV4Message | undefined, origin: FormatId): Promise<void> {
    if (message === undefined) return;
    const stored = await hooks.store(ids, fromAiSdk([message], origin));
    report(stored.losses);
  }

  return {
    specificationVersion: 'v4',
    session: ids,
    losses,

    async transformParams({ params, model }) {
      const prompt: LanguageModelV4Prompt = params.prompt;
      let head = 0;
      while (prompt[head]?.role === 'system') head++;
      const caller = prompt.slice(head);
      const recent = await hooks.recent(ids);
      report(recent.losses);
      const history = toAiSdk(recent.messages);
      report(history.losses);
      const match = overlap(history.messages.map(messageKey), caller.map(messageKey));
      const fresh = match === undefined ? caller : caller.slice(match.at + 1);
      if (fresh.length > 0) report((await hooks.store(ids, fromAiSdk(fresh, originOf(model.provider)))).losses);
      const before = match === undefined ? history.messages : history.messages.slice(0, history.messages.length - match.run);
      return { ...params, prompt: [...prompt.slice(0, head), ...before, ...caller] };
    },

    async wrapGenerate({ doGenerate, model }) {
      const result = await doGenerate();
      const answerLosses: Loss[] = [];
      const message = answerMessage(result.content, answerLosses);
      report(answerLosses);
      await storeAnswer(message, originOf(model.provider));
      return result;
    },

    async wrapStream({ doStream, model }) {
      const { stream, ...rest } = await doStream();
      const answer = new StreamAnswer();
      const origin = originOf(model.provider);
      const gather = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        transform(part, controller) {
          answer.push(part);
          controller.enqueue(part);
        },
        async flush() {
          if (answer.failed) return;
          const answerLosses: Loss[] = [];
          const message = answerMessage(answer.content, answerLosses);
          report(answerLosses);
          await storeAnswer(message, origin);
        },
      });
      return { ...rest, stream: stream.pipeThrough(gather) };
    },
  };
}
