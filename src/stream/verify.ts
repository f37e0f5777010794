/**
 * Checks a canonical stream against the order rules of src/model/stream-event.ts, incrementally:
 * the response starts once and first, blocks start at the next free index of their choice, deltas
 * and ends address an open block of the same kind, every block is closed before the end, a choice
 * finishes once, and nothing follows the end or an error. Issues carry the event's index as path.
 */
import type { Issue } from '../model/errors.js';
import type { StreamEvent } from '../model/stream-event.js';

type BlockKind = 'text' | 'reasoning' | 'tool-call';

const KIND_OF: Partial<Record<StreamEvent['type'], { kind: BlockKind; step: 'start' | 'delta' | 'end' }>> = {
  'text-start': { kind: 'text', step: 'start' },
  'text-delta': { kind: 'text', step: 'delta' },
  citation: { kind: 'text', step: 'delta' },
  'text-end': { kind: 'text', step: 'end' },
  'reasoning-start': { kind: 'reasoning', step: 'start' },
  'reasoning-delta': { kind: 'reasoning', step: 'delta' },
  'reasoning-end': { kind: 'reasoning', step: 'end' },
  'tool-call-start': { kind: 'tool-call', step: 'start' },
  'tool-call-delta': { kind: 'tool-call', step: 'delta' },
  'tool-call-end': { kind: 'tool-call', step: 'end' },
};

export class StreamVerifier {
  private n = 0;
  private started = false;
  private over: 'response-end' | 'error' | undefined;
  /** Per choice: how many blocks have started, and the kinds of those still open by index. */
  private readonly choices = new Map<number, { next: number; open: Map<number, BlockKind> }>();
  private readonly finished = new Set<number>();
  private readonly toolIds = new Set<string>();

  push(e: StreamEvent): Issue[] {
    const at = this.n++;
    const issues: Issue[] = [];
    const bad = (code: string, message: string): void => void issues.push({ code, path: [at], message: `event ${at} (${e.type}): ${message}` });
    if (this.over !== undefined) {
      bad('after-end', `comes after ${this.over}`);
      return issues;
    }
    if (e.type === 'provider-event') return issues;
    if (e.type === 'response-start') {
      if (this.started) bad('duplicate-start', 'the response already started');
      this.started = true;
      return issues;
    }
    if (!this.started) bad('before-start', 'comes before response-start');
    switch (e.type) {
      case 'usage':
        return issues;
      case 'error':
        this.over = 'error';
        return issues;
      case 'finish': {
        const c = e.choice ?? 0;
        if (this.finished.has(c)) bad('duplicate-finish', `choice ${c} already finished`);
        this.finished.add(c);
        return issues;
      }
      case 'response-end':
        for (const [c, state] of this.choices) {
          for (const [i, kind] of state.open) bad('unclosed-block', `${kind} block ${i} of choice ${c} was never ended`);
        }
        this.over = 'response-end';
        return issues;
      case 'part': {
        this.startBlock(e.choice ?? 0, e.index, undefined, bad);
        return issues;
      }
      default:
    }
    const rule = KIND_OF[e.type];
    if (rule === undefined || !('index' in e)) return issues;
    const c = e.choice ?? 0;
    if (rule.step === 'start') {
      this.startBlock(c, e.index, rule.kind, bad);
      if (e.type === 'tool-call-start') {
        if (this.toolIds.has(e.id)) bad('duplicate-tool-id', `tool call id '${e.id}' was used before`);
        this.toolIds.add(e.id);
      }
      return issues;
    }
    const open = this.choices.get(c)?.open.get(e.index);
    if (open === undefined) bad('no-open-block', `no block ${e.index} of choice ${c} is open`);
    else if (open !== rule.kind) bad('wrong-block-kind', `block ${e.index} of choice ${c} is a ${open} block`);
    else if (rule.step === 'end') this.choices.get(c)?.open.delete(e.index);
    return issues;
  }

  /** Issues of a stream that stopped here (input ended). A cut-off stream is not an order error. */
  end(): Issue[] {
    return [];
  }

  /** Whether the stream ended as a complete stream does (response-end or error). */
  get ended(): boolean {
    return this.over !== undefined;
  }

  private startBlock(c: number, index: number, kind: BlockKind | undefined, bad: (code: string, m: string) => void): void {
    let state = this.choices.get(c);
    if (state === undefined) this.choices.set(c, (state = { next: 0, open: new Map() }));
    if (this.finished.has(c)) bad('after-finish', `choice ${c} already finished`);
    if (index !== state.next) bad('block-index', `block index ${index} of choice ${c}: expected ${state.next} (indices are the part positions, in start order)`);
    state.next = Math.max(state.next, index + 1);
    if (kind !== undefined) state.open.set(index, kind);
  }
}

/** Every order issue of a whole canonical stream ([] when it is well formed). */
export function verifyStream(events: readonly StreamEvent[]): Issue[] {
  const v = new StreamVerifier();
  const issues: Issue[] = [];
  for (const e of events) issues.push(...v.push(e));
  issues.push(...v.end());
  return issues;
}
