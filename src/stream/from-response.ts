/**
 * A final canonical Response as a canonical stream, so any final response can be re-emitted as a
 * valid stream in any dialect: the response starts, each part of each choice becomes its block
 * (text in one delta, arguments in one delta and again whole at the end, reasoning text, summary
 * and signature as deltas), usage, each choice's stop reason, and the end.
 */
import type { Part } from '../model/part.js';
import type { Response } from '../model/response.js';
import type { ResponseStartEvent, StreamEvent } from '../model/stream-event.js';

export function responseToEvents(res: Response): StreamEvent[] {
  const start: ResponseStartEvent = { type: 'response-start' };
  if (res.id !== undefined) start.id = res.id;
  if (res.model !== undefined) start.model = res.model;
  if (res.created !== undefined) start.created = res.created;
  if (res.ext !== undefined) start.ext = res.ext;
  const out: StreamEvent[] = [start];
  for (const c of res.choices) {
    const choice = c.index === 0 ? {} : { choice: c.index };
    c.message.parts.forEach((p, index) => out.push(...partEvents(p, { ...choice, index })));
  }
  if (res.usage !== undefined) out.push({ type: 'usage', usage: res.usage });
  for (const c of res.choices) {
    if (c.stopReason === undefined) continue;
    out.push({ type: 'finish', ...(c.index === 0 ? {} : { choice: c.index }), stopReason: c.stopReason, ...(c.ext ? { ext: c.ext } : {}) });
  }
  out.push({ type: 'response-end' });
  return out;
}

function partEvents(p: Part, ref: { choice?: number; index: number }): StreamEvent[] {
  switch (p.type) {
    case 'text':
    case 'refusal': {
      const out: StreamEvent[] = [{ type: 'text-start', ...ref, ...(p.type === 'refusal' ? { refusal: true as const } : {}), ...(p.ext ? { ext: p.ext } : {}) }];
      if (p.text !== '') out.push({ type: 'text-delta', ...ref, delta: p.text });
      if (p.type === 'text') for (const citation of p.citations ?? []) out.push({ type: 'citation', ...ref, citation });
      out.push({ type: 'text-end', ...ref });
      return out;
    }
    case 'reasoning': {
      const out: StreamEvent[] = [
        {
          type: 'reasoning-start',
          ...ref,
          origin: p.origin,
          ...(p.id !== undefined ? { id: p.id } : {}),
          ...(p.redactedData !== undefined ? { redactedData: p.redactedData } : {}),
          ...(p.ext ? { ext: p.ext } : {}),
        },
      ];
      if (p.text !== undefined) out.push({ type: 'reasoning-delta', ...ref, text: p.text });
      (p.summary ?? []).forEach((text, summaryIndex) => out.push({ type: 'reasoning-delta', ...ref, text, summaryIndex }));
      if (p.signature !== undefined) out.push({ type: 'reasoning-delta', ...ref, signature: p.signature });
      out.push({ type: 'reasoning-end', ...ref, ...(p.encryptedContent !== undefined ? { encryptedContent: p.encryptedContent } : {}) });
      return out;
    }
    case 'tool-call': {
      const args = p.argumentsJson ?? JSON.stringify(p.arguments);
      return [
        { type: 'tool-call-start', ...ref, id: p.id, name: p.name, ...(p.providerExecuted ? { providerExecuted: true as const } : {}), ...(p.ext ? { ext: p.ext } : {}) },
        { type: 'tool-call-delta', ...ref, delta: args },
        { type: 'tool-call-end', ...ref, arguments: args },
      ];
    }
    default:
      return [{ type: 'part', ...ref, part: p }];
  }
}
