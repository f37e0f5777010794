/**
 * Whole parts (canonical `part` events) as ConverseStream writes them: text, reasoning and tool
 * calls as the block events they stand for; tool results and images split into Bedrock's
 * contentBlockStart + one contentBlockDelta (ContentBlockStart / ContentBlockDelta unions).
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part } from '../../model/part.js';
import type { StreamEvent } from '../../model/stream-event.js';
import type { LossSink } from '../codec.js';
import { lose } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

/** Text, refusal, reasoning and tool-call parts as the block events they stand for. */
export function partEvents(p: Part, index: number): StreamEvent[] | undefined {
  switch (p.type) {
    case 'text':
    case 'refusal': {
      const out: StreamEvent[] = [{ type: 'text-start', index, ...(p.type === 'refusal' ? { refusal: true as const } : {}), ...(p.ext ? { ext: p.ext } : {}) }];
      if (p.text !== '') out.push({ type: 'text-delta', index, delta: p.text });
      if (p.type === 'text') for (const citation of p.citations ?? []) out.push({ type: 'citation', index, citation });
      out.push({ type: 'text-end', index });
      return out;
    }
    case 'reasoning':
      return [
        { type: 'reasoning-start', index, origin: p.origin, ...(p.redactedData !== undefined ? { redactedData: p.redactedData } : {}), ...(p.ext ? { ext: p.ext } : {}) },
        ...(p.text !== undefined ? [{ type: 'reasoning-delta' as const, index, text: p.text }] : []),
        ...(p.signature !== undefined ? [{ type: 'reasoning-delta' as const, index, signature: p.signature }] : []),
        { type: 'reasoning-end', index, ...(p.encryptedContent !== undefined ? { encryptedContent: p.encryptedContent } : {}) },
      ];
    case 'tool-call': {
      const args = p.argumentsJson ?? JSON.stringify(p.arguments);
      return [
        { type: 'tool-call-start', index, id: p.id, name: p.name, ...(p.providerExecuted ? { providerExecuted: true as const } : {}), ...(p.ext ? { ext: p.ext } : {}) },
        { type: 'tool-call-end', index, arguments: args },
      ];
    }
    default:
      return undefined;
  }
}

/**
 * A Converse content block as ConverseStream carries it: toolResult -> start {toolUseId, type,
 * status} + delta [text | json items]; image -> start {format} + delta {source}. Undefined for
 * blocks a stream cannot carry.
 */
export function splitBlock(block: JsonObject, path: Path, losses: LossSink): { start: JsonObject; delta?: JsonObject } | undefined {
  const result = block['toolResult'];
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) {
    const { content, ...start } = result;
    const items: JsonValue[] = [];
    (Array.isArray(content) ? content : []).forEach((c, k) => {
      const item = c as JsonObject;
      if ('text' in item || 'json' in item) items.push(item);
      else lose(losses, 'unsupported-part', childPath(path, 'content', k), 'a streamed Bedrock tool result holds text and JSON only');
    });
    return items.length > 0 ? { start: { toolResult: start }, delta: { toolResult: items } } : { start: { toolResult: start } };
  }
  const image = block['image'];
  if (typeof image === 'object' && image !== null && !Array.isArray(image)) {
    const { source, ...start } = image;
    return source === undefined ? { start: { image: start } } : { start: { image: start }, delta: { image: { source } } };
  }
  return undefined;
}

/** A loss sink that puts `prefix` before every path (codec helpers report paths of their own object). */
export function prefixed(losses: LossSink, prefix: Path): LossSink {
  return { push: (l) => losses.push({ ...l, path: [...prefix, ...l.path] }) };
}
