/**
 * The tool call ids of one streamed response. A repeat is refused: a tool result answers its call
 * by id, so two calls with one id cannot both be answered (Anthropic and OpenAI refuse such a
 * conversation), and the canonical stream holds each id once (src/stream/verify.ts).
 */
import { ValidationError } from '../../model/errors.js';
import type { Path } from '../../model/loss.js';

export class ToolCallIds {
  private readonly seen = new Set<string>();

  /** Records `id`; a ValidationError at `path` when an earlier call of the response had it. */
  claim(id: string, path: Path): void {
    if (this.seen.has(id)) {
      throw new ValidationError([{ code: 'duplicate_tool_call_id', path, message: `tool call id '${id}' was used by an earlier call of this response` }]);
    }
    this.seen.add(id);
  }
}
