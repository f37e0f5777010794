/**
 * Whole parts (canonical `part` events) as the block events a Chat stream writes them with: text,
 * refusal, reasoning and tool calls; anything else has no place in a Chat stream (undefined).
 */
import type { Part } from '../../model/part.js';
import type { StreamEvent } from '../../model/stream-event.js';

/** A whole part as the block events that carry it here; undefined where Chat has no place for it. */
export function partEvents(p: Part, choice: number | undefined, index: number): (StreamEvent | undefined)[] {
  const ref = choice === undefined ? { index } : { choice, index };
  switch (p.type) {
    case 'text':
    case 'refusal':
      return [
        { type: 'text-start', ...ref, ...(p.type === 'refusal' ? { refusal: true as const } : {}), ...(p.ext ? { ext: p.ext } : {}) },
        { type: 'text-delta', ...ref, delta: p.text },
        ...(p.type === 'text' ? (p.citations ?? []).map((citation): StreamEvent => ({ type: 'citation', ...ref, citation })) : []),
        { type: 'text-end', ...ref },
      ];
    case 'reasoning':
      return [
        { type: 'reasoning-start', ...ref, origin: p.origin, ...(p.ext ? { ext: p.ext } : {}) },
        ...(p.text !== undefined ? [{ type: 'reasoning-delta' as const, ...ref, text: p.text }] : []),
        { type: 'reasoning-end', ...ref, ...(p.signature !== undefined ? { signature: p.signature } : {}) },
      ];
    case 'tool-call': {
      const args = p.argumentsJson ?? JSON.stringify(p.arguments);
      return [
        { type: 'tool-call-start', ...ref, id: p.id, name: p.name, ...(p.providerExecuted ? { providerExecuted: true as const } : {}), ...(p.ext ? { ext: p.ext } : {}) },
        { type: 'tool-call-end', ...ref, arguments: args },
      ];
    }
    default:
      return [undefined];
  }
}
