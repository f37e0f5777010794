/**
 * An agent run streamed as one canonical response (Agent.stream: each step's blocks, tool results
 * as parts) back into the conversation's messages: assistant text and calls, then a tool message
 * per group of results, then the next assistant message, as the Agent itself added them.
 */
import type { Message } from '../model/message.js';
import type { Part } from '../model/part.js';
import type { StreamEvent } from '../model/stream-event.js';
import { Accumulator } from '../stream/accumulate.js';

export function splitRun(parts: readonly Part[]): Message[] {
  const out: Message[] = [];
  let current: Message | undefined;
  for (const p of parts) {
    const role = p.type === 'tool-result' && p.providerExecuted !== true ? 'tool' : 'assistant';
    if (current === undefined || current.role !== role) {
      current = { role, parts: [] };
      out.push(current);
    }
    current.parts.push(p);
  }
  return out;
}

/** Folds a run's events as they pass: `messages()` gives what the run said so far, split into messages. */
export class RunRecorder {
  private readonly acc = new Accumulator();
  failed = false;

  push(e: StreamEvent): void {
    if (e.type === 'error') this.failed = true;
    this.acc.push(e);
  }

  messages(): Message[] {
    const r = this.acc.result();
    return splitRun(r.response.choices[0]?.message.parts ?? []);
  }
}
