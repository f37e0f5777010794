/**
 * Puts a canonical stream's tool calls one after another, for encoders whose dialect streams one
 * block at a time (Anthropic content_block_*, Bedrock contentBlock*, Gemini whole parts). The
 * canonical stream may hold several calls open at once (parallel calls whose argument fragments
 * interleave); such a dialect must get each call as one contiguous run, in the order the calls
 * started. Only what must wait waits:
 * - while no call is open, blocks pass at once (text before the calls streams as it arrives, and
 *   the first call streams live);
 * - a block that starts while a call is open, or while blocks are held, is held with its events;
 * - when the open calls have ended, held blocks go out in start order with what they gathered,
 *   until one of them is a call still open: it is live now, and the rest keep waiting;
 * - a choice's `finish` waits behind that choice's held blocks; other events pass at once;
 * - at `response-end`, `error` or the end of input, whatever is held goes out, in start order, as
 *   it arrived: a cut-off call stays cut off (no end is made up), as any cut-off stream does.
 * Text and reasoning blocks hold nothing back: a decoder whose dialect does not say where they end
 * may close them only at the end of the message (Bedrock streams without contentBlockStop), and
 * holding the rest of the message behind them would hold it to the end; they overlap as before.
 * Each event keeps the position it had in the canonical stream, for loss paths.
 */
import type { StreamEvent } from '../../model/stream-event.js';

export interface Released {
  event: StreamEvent;
  /** The event's index in the canonical stream the encoder was given. */
  at: number;
}

interface Held {
  index: number;
  call: boolean;
  events: Released[];
  ended: boolean;
}

interface ChoiceQueue {
  /** Calls that went out and have not ended. */
  open: Set<number>;
  /** Blocks held back, in start order, and by index. */
  held: Held[];
  byIndex: Map<number, Held>;
  /** The choice's finish, waiting behind its held blocks. */
  tail: Released[];
}

const STEP: Partial<Record<StreamEvent['type'], 'start' | 'delta' | 'end' | 'whole'>> = {
  'text-start': 'start',
  'reasoning-start': 'start',
  'tool-call-start': 'start',
  'text-delta': 'delta',
  citation: 'delta',
  'reasoning-delta': 'delta',
  'tool-call-delta': 'delta',
  'text-end': 'end',
  'reasoning-end': 'end',
  'tool-call-end': 'end',
  part: 'whole',
};

export class SerialBlocks {
  private n = 0;
  private readonly choices = new Map<number, ChoiceQueue>();

  /** How many events were pushed (the index the next one gets). */
  get count(): number {
    return this.n;
  }

  /** One canonical event in; the events that may be written now out, in order. */
  push(event: StreamEvent): Released[] {
    const r: Released = { event, at: this.n++ };
    const step = STEP[event.type];
    if (step !== undefined && 'index' in event) return this.block(r, event.choice ?? 0, event.index, step);
    if (event.type === 'finish') {
      const q = this.choices.get(event.choice ?? 0);
      if (q !== undefined && q.held.length > 0) {
        q.tail.push(r);
        return [];
      }
      return [r];
    }
    if (event.type === 'response-end' || event.type === 'error') return [...this.flush(), r];
    return [r];
  }

  /**
   * `push` for the event most of a stream is made of, without a Released and an array: a delta of
   * a block that is not held goes out at once, as `push` would send it. Returns the event's index in
   * the canonical stream, or -1 when the event is not such a delta and `push` must take it.
   */
  pushDelta(event: StreamEvent): number {
    if (STEP[event.type] !== 'delta' || !('index' in event)) return -1;
    const q = this.choices.get(event.choice ?? 0);
    if (q !== undefined && q.byIndex.has(event.index)) return -1;
    return this.n++;
  }

  /** Input ended: what is held goes out as it came (a cut-off stream stays cut off). */
  end(): Released[] {
    return this.flush();
  }

  private block(r: Released, choice: number, index: number, step: 'start' | 'delta' | 'end' | 'whole'): Released[] {
    let q = this.choices.get(choice);
    if (q === undefined) this.choices.set(choice, (q = { open: new Set(), held: [], byIndex: new Map(), tail: [] }));
    const call = r.event.type === 'tool-call-start';
    if (step === 'start' || step === 'whole') {
      if (q.open.size === 0 && q.held.length === 0) {
        if (call) q.open.add(index);
        return [r];
      }
      const h: Held = { index, call, events: [r], ended: step === 'whole' };
      q.held.push(h);
      if (step === 'start') q.byIndex.set(index, h);
      return [];
    }
    const held = q.byIndex.get(index);
    if (held !== undefined) {
      held.events.push(r);
      if (step === 'end') held.ended = true;
      return [];
    }
    // A block that went out (or one this stream never started: the encoder reports it as it would).
    const out = [r];
    if (step === 'end' && q.open.delete(index) && q.open.size === 0) this.release(q, out);
    return out;
  }

  /** The open calls ended: held blocks go out in order, until one is a call still open (live now). */
  private release(q: ChoiceQueue, out: Released[]): void {
    while (q.open.size === 0) {
      const next = q.held.shift();
      if (next === undefined) break;
      q.byIndex.delete(next.index);
      out.push(...next.events);
      if (next.call && !next.ended) q.open.add(next.index);
    }
    if (q.held.length === 0) out.push(...q.tail.splice(0));
  }

  private flush(): Released[] {
    const out: Released[] = [];
    for (const q of this.choices.values()) {
      for (const h of q.held) out.push(...h.events);
      out.push(...q.tail);
    }
    this.choices.clear();
    return out;
  }
}
