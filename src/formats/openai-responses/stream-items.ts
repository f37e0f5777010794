/**
 * Output items of the stream encoder that are not built delta by delta: the message item that
 * content blocks join (its fields and parts, written once when it is done), and items that come
 * whole (`part` events: built-in tool items of this codec, and any other part the response codec
 * turns into items), including the built-in items this codec's own provider events announced.
 */
import type { JsonObject } from '../../model/json.js';
import type { Part } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { CONTENT_TYPES } from './content-decode.js';
import { own } from './content-encode.js';
import { encodeItems } from './items-encode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';

const OR = OPENAI_RESPONSES;

export class MessageItem {
  sealed = false;
  private readonly content: (JsonObject | undefined)[] = [];
  private pending = 0;
  /** The item's final fields, when a block of this codec carried them. */
  private fields: JsonObject | undefined;

  constructor(
    readonly oi: number,
    readonly id: string,
    private readonly startFields: JsonObject | undefined,
  ) {}

  added(): JsonObject {
    const item: JsonObject = { ...this.startFields, id: this.id };
    item['type'] ??= 'message';
    item['status'] ??= 'in_progress';
    return Object.assign(item, { content: [], role: 'assistant' });
  }

  /** A content part opens: its content index. */
  open(): number {
    this.pending++;
    return this.content.push(undefined) - 1;
  }

  close(ci: number, part: JsonObject, fields: JsonObject | undefined): void {
    this.content[ci] = part;
    this.pending--;
    if (fields !== undefined) this.fields = fields;
  }

  get complete(): boolean {
    return this.pending === 0;
  }

  /** The done item; one made up here is `incomplete` when the response was cut short. */
  final(cut: boolean): JsonObject {
    const content = this.content.filter((p): p is JsonObject => p !== undefined);
    const head: JsonObject = this.fields !== undefined ? { ...this.fields } : { id: this.id, type: 'message', status: cut ? 'incomplete' : 'completed' };
    return Object.assign(head, { content, role: 'assistant' });
  }
}

type Written = [type: string, fields: JsonObject];

export class WholeItems {
  /** Source output index -> ours, for this codec's provider events. */
  private readonly moves = new Map<number, number>();
  /** Items announced by an own output_item.added and not done yet, by item id (or type). */
  private readonly announced = new Map<string, number>();

  /** An own output_item.added written at `oi`: later events of its source index go there. */
  open(data: JsonObject, oi: number): number {
    if (typeof data['output_index'] === 'number') this.moves.set(data['output_index'], oi);
    const item = data['item'];
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) this.announced.set(key(item), oi);
    return oi;
  }

  moved(source: number): number | undefined {
    return this.moves.get(source);
  }

  /**
   * The items of a whole part, each with the output index an own provider event gave it already.
   * Ids the response codec makes up at random for other origins' content are made up from the
   * encoder's counter instead.
   */
  items(part: Part, losses: LossSink, mint: (prefix: string) => string): { item: JsonObject; oi?: number }[] {
    if (part.type === 'provider-block' && part.origin === OR && !CONTENT_TYPES.has(String(part.block['type']))) {
      const k = key(part.block);
      const oi = this.announced.get(k);
      this.announced.delete(k);
      return [oi === undefined ? { item: part.block } : { item: part.block, oi }];
    }
    const { items } = encodeItems([{ role: 'assistant', parts: [part] }], { preserve: false, losses }, 'output', 0, () => []);
    const foreign = own(part.ext) === undefined;
    for (const item of items) {
      if (foreign && item['type'] === 'message') item['id'] = mint('msg');
      if (foreign && item['type'] === 'function_call') Object.assign(item, { id: mint('fc'), status: 'completed' });
      if (item['type'] === 'reasoning' && typeof item['id'] !== 'string') item['id'] = mint('rs');
    }
    return items.map((item) => ({ item }));
  }

  /** The events of a whole item: done only when it was announced, else its whole lifecycle. */
  events(item: JsonObject, oi: number, announced: boolean): Written[] {
    const out: Written[] = [];
    const done: Written = ['response.output_item.done', { output_index: oi, item }];
    if (announced) return [done];
    const content = item['content'];
    if (item['type'] !== 'message' || !Array.isArray(content)) return [['response.output_item.added', { output_index: oi, item }], done];
    out.push(['response.output_item.added', { output_index: oi, item: { ...item, status: 'in_progress', content: [] } }]);
    const id = item['id'] as string;
    content.forEach((p, ci) => {
      if (p === null || typeof p !== 'object' || Array.isArray(p)) return;
      const where = { item_id: id, output_index: oi, content_index: ci };
      const refusal = p['type'] === 'refusal';
      const text = String((refusal ? p['refusal'] : p['text']) ?? '');
      out.push(['response.content_part.added', { ...where, part: refusal ? { type: 'refusal', refusal: '' } : { ...p, text: '', annotations: [] } }]);
      if (refusal) {
        if (text !== '') out.push(['response.refusal.delta', { ...where, delta: text }]);
        out.push(['response.refusal.done', { ...where, refusal: text }]);
      } else {
        if (text !== '') out.push(['response.output_text.delta', { ...where, delta: text, logprobs: [] }]);
        out.push(['response.output_text.done', { ...where, text, logprobs: [] }]);
      }
      out.push(['response.content_part.done', { ...where, part: p }]);
    });
    out.push(done);
    return out;
  }
}

function key(item: JsonObject): string {
  return typeof item['id'] === 'string' ? `id:${item['id']}` : `type:${String(item['type'])}`;
}
