/**
 * The canonical blocks an A2A stream decoder has open: text blocks keyed by the A2A message or
 * artifact they grow in, tool calls keyed by call id. Blocks take the next canonical index when
 * they start (stream-event.ts rules).
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part } from '../../model/part.js';
import type { StreamEvent } from '../../model/stream-event.js';
import { ToolCallIds } from '../shared/tool-call-ids.js';
import { A2A } from './a2a-api.js';

interface OpenText {
  index: number;
  chunks: string[];
}

interface OpenCall {
  index: number;
  /** Whether any argument text was sent. */
  args: boolean;
}

export class Blocks {
  private next = 0;
  private readonly texts = new Map<string, OpenText>();
  private readonly calls = new Map<string, OpenCall>();
  private readonly closedCalls = new Set<string>();
  private readonly toolIds = new ToolCallIds();
  /** Calls closed without a result in the stream: the client's to run. */
  private unanswered = new Set<string>();

  /** Appends to the text block of `key`, opening it (with `ext`) first if needed. */
  text(key: string, delta: string, ext: JsonObject | undefined, out: StreamEvent[]): void {
    let t = this.texts.get(key);
    if (t === undefined) {
      t = { index: this.next++, chunks: [] };
      this.texts.set(key, t);
      out.push({ type: 'text-start', index: t.index, ...(ext ? { ext: { [A2A]: ext } } : {}) });
    }
    if (delta === '') return;
    t.chunks.push(delta);
    out.push({ type: 'text-delta', index: t.index, delta });
  }

  isOpen(key: string): boolean {
    return this.texts.has(key);
  }

  /** Closes the text block of `key`; returns its text, or undefined when none was open. */
  closeText(key: string, out: StreamEvent[]): string | undefined {
    const t = this.texts.get(key);
    if (t === undefined) return undefined;
    this.texts.delete(key);
    out.push({ type: 'text-end', index: t.index });
    return t.chunks.join('');
  }

  /** A whole text block at once. */
  wholeText(text: string, ext: JsonObject | undefined, out: StreamEvent[]): void {
    const index = this.next++;
    out.push({ type: 'text-start', index, ...(ext ? { ext: { [A2A]: ext } } : {}) });
    if (text !== '') out.push({ type: 'text-delta', index, delta: text });
    out.push({ type: 'text-end', index });
  }

  part(part: Part, out: StreamEvent[]): void {
    out.push({ type: 'part', index: this.next++, part });
  }

  callStart(id: string, name: string, ext: JsonObject | undefined, path: Path, out: StreamEvent[]): void {
    this.toolIds.claim(id, path);
    const c = { index: this.next++, args: false };
    this.calls.set(id, c);
    out.push({ type: 'tool-call-start', index: c.index, id, name, ...(ext ? { ext: { [A2A]: ext } } : {}) });
  }

  callOpen(id: string): boolean {
    return this.calls.has(id);
  }

  callClosed(id: string): boolean {
    return this.closedCalls.has(id);
  }

  callArgs(id: string, delta: string, out: StreamEvent[]): void {
    const c = this.calls.get(id);
    if (c === undefined || delta === '') return;
    c.args = true;
    out.push({ type: 'tool-call-delta', index: c.index, delta });
  }

  callEnd(id: string, out: StreamEvent[]): void {
    const c = this.calls.get(id);
    if (c === undefined) return;
    this.calls.delete(id);
    this.closedCalls.add(id);
    this.unanswered.add(id);
    out.push({ type: 'tool-call-end', index: c.index });
  }

  /** A result arrived in the stream for `id`: the agent ran that call. */
  answered(id: string): void {
    this.unanswered.delete(id);
  }

  /** Closes every open block (the run ended), in start order. */
  closeAll(out: StreamEvent[]): void {
    const open: { index: number; close: () => void }[] = [];
    for (const key of this.texts.keys()) open.push({ index: (this.texts.get(key) as OpenText).index, close: () => void this.closeText(key, out) });
    for (const id of this.calls.keys()) open.push({ index: (this.calls.get(id) as OpenCall).index, close: () => this.callEnd(id, out) });
    open.sort((a, b) => a.index - b.index);
    for (const o of open) o.close();
  }

  get clientCalls(): number {
    return this.unanswered.size;
  }
}
