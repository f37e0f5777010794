/**
 * AG-UI wire events -> the explicit events the rest of the decoder reads, as the 1.0 client
 * prepares them before verifying (protocols.md §1.8-1.9):
 * - retired THINKING_* events become REASONING_* (ids from a counter, `thinking-<n>`);
 * - the optional nulls the client reads as absent (`rawEvent`, `parentMessageId`, `outcome`,
 *   `result`) are removed;
 * - *_CHUNK events expand into START / CONTENT (/ ARGS), and the END comes when the chunk's lane
 *   closes, with transformChunks' rules: one pending stream per lane (lane = subagentRunId), a
 *   chunk that names another id or another kind closes the lane first, most events close their
 *   own lane and run-level events close all. One tolerance: a chunk naming a message that is open
 *   through its own START continues it (the client would open it twice and then refuse it).
 */
import { ValidationError } from '../../model/errors.js';
import type { JsonObject } from '../../model/json.js';
import { THINKING_NAMES, type AguiEvent } from './ag-ui-api.js';

type Kind = 'text' | 'tool' | 'reasoning';
interface Lane { kind: Kind; id: string; role?: string; name?: string; toolCallName?: string; parentMessageId?: string }

const CLOSES_OWN = new Set([
  'TEXT_MESSAGE_START', 'TEXT_MESSAGE_CONTENT', 'TEXT_MESSAGE_END', 'TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END',
  'TOOL_CALL_RESULT', 'STATE_SNAPSHOT', 'STATE_DELTA', 'CUSTOM', 'STEP_STARTED', 'STEP_FINISHED', 'REASONING_START',
  'REASONING_MESSAGE_START', 'REASONING_MESSAGE_CONTENT', 'REASONING_MESSAGE_END', 'REASONING_END',
]);
const CLOSES_ALL = new Set(['RUN_STARTED', 'RUN_FINISHED', 'RUN_ERROR', 'MESSAGES_SNAPSHOT']);
const CHUNK_KIND: Record<string, Kind> = { TEXT_MESSAGE_CHUNK: 'text', TOOL_CALL_CHUNK: 'tool', REASONING_MESSAGE_CHUNK: 'reasoning' };
const LEGACY_NULLS = ['rawEvent', 'parentMessageId', 'outcome', 'result'];
/** The fields of each chunk kind that the expansion reads; the rest rides on the content event. */
const CHUNK_FIELDS: Record<Kind, ReadonlySet<string>> = {
  text: new Set(['type', 'messageId', 'role', 'delta', 'name', 'metadata', 'rawEvent', 'subagentRunId', 'timestamp']),
  tool: new Set(['type', 'toolCallId', 'toolCallName', 'parentMessageId', 'delta', 'metadata', 'rawEvent', 'subagentRunId', 'timestamp']),
  reasoning: new Set(['type', 'messageId', 'delta', 'metadata', 'rawEvent', 'subagentRunId', 'timestamp']),
};
const LABEL: Record<Kind, string> = { text: 'text message', tool: 'tool call', reasoning: 'reasoning message' };

function bad(at: number, message: string, path: (string | number)[] = []): ValidationError {
  return new ValidationError([{ code: 'invalid_sequence', path: [at, ...path], message: `event ${at}: ${message}` }]);
}

export class ChunkExpander {
  private readonly lanes = new Map<string | undefined, Lane>();
  private thinkingCount = 0;
  private thinkingSpan: string | undefined;
  private thinkingMessage: string | undefined;

  /**
   * `isOpen(kind, id)` says whether the decoder already holds that entity open through its own
   * START (for the continuation tolerance above).
   */
  constructor(private readonly isOpen: (kind: Kind, id: string) => boolean) {}

  push(raw: AguiEvent, at: number): AguiEvent[] {
    const e = this.normalize(raw, at);
    const kind = CHUNK_KIND[e.type];
    if (kind !== undefined) return this.chunk(e, kind, at);
    // No chunk lane open (the common case): nothing to close first.
    if (this.lanes.size === 0) return [e];
    const owner = typeof e['subagentRunId'] === 'string' ? e['subagentRunId'] : undefined;
    if (CLOSES_ALL.has(e.type)) return [...this.closeAll(), e];
    if (CLOSES_OWN.has(e.type)) return [...this.close(owner), e];
    if ((e.type === 'SUBAGENT_FINISHED' || e.type === 'SUBAGENT_ERROR') && owner !== undefined) return [...this.close(owner), e];
    return [e];
  }

  /** No chunk lane is open: an event that is no chunk passes through as it is (but for normalize). */
  idle(): boolean {
    return this.lanes.size === 0;
  }

  /** End of input: open chunk lanes stay open (a cut-off stream is not completed). */
  end(): AguiEvent[] {
    return [];
  }

  private normalize(raw: AguiEvent, at: number): AguiEvent {
    let e = raw;
    // Named reads first: an event with none of these nulls (nearly all) is not looped over.
    const legacyNull = raw['rawEvent'] === null || raw['parentMessageId'] === null || raw['outcome'] === null || raw['result'] === null;
    if (legacyNull) for (const key of LEGACY_NULLS) {
      if (e[key] === null) {
        const { [key]: _null, ...rest } = e;
        e = rest as AguiEvent;
      }
    }
    const renamed = THINKING_NAMES[e.type];
    if (renamed === undefined) return e;
    const out: JsonObject = { ...e, type: renamed };
    switch (e.type) {
      case 'THINKING_START':
        out['messageId'] = this.thinkingSpan = `thinking-${++this.thinkingCount}`;
        break;
      case 'THINKING_TEXT_MESSAGE_START':
        out['messageId'] = this.thinkingMessage = `thinking-${++this.thinkingCount}`;
        out['role'] = 'reasoning';
        break;
      case 'THINKING_TEXT_MESSAGE_CONTENT':
      case 'THINKING_TEXT_MESSAGE_END':
        if (this.thinkingMessage === undefined) throw bad(at, `${e.type} continues no THINKING_TEXT_MESSAGE_START`);
        out['messageId'] = this.thinkingMessage;
        if (e.type === 'THINKING_TEXT_MESSAGE_END') this.thinkingMessage = undefined;
        break;
      case 'THINKING_END':
        if (this.thinkingSpan === undefined) throw bad(at, 'THINKING_END closes no THINKING_START');
        out['messageId'] = this.thinkingSpan;
        this.thinkingSpan = undefined;
        break;
    }
    return out as AguiEvent;
  }

  private close(owner: string | undefined): AguiEvent[] {
    const lane = this.lanes.get(owner);
    if (lane === undefined) return [];
    this.lanes.delete(owner);
    const sub = owner === undefined ? {} : { subagentRunId: owner };
    if (lane.kind === 'text') return [{ type: 'TEXT_MESSAGE_END', messageId: lane.id, ...sub }];
    if (lane.kind === 'tool') return [{ type: 'TOOL_CALL_END', toolCallId: lane.id, ...sub }];
    return [{ type: 'REASONING_MESSAGE_END', messageId: lane.id, ...sub }];
  }

  private closeAll(): AguiEvent[] {
    return [...this.lanes.keys()].flatMap((owner) => this.close(owner));
  }

  /** Which lane a chunk belongs to (transformChunks' resolveLane). */
  private laneOf(kind: Kind, id: string | undefined, tag: string | undefined, at: number): string | undefined {
    if (id !== undefined) {
      for (const [owner, lane] of this.lanes) {
        if (lane.kind === kind && lane.id === id) {
          if (tag !== undefined && tag !== owner) throw bad(at, `chunk subagentRunId '${tag}' does not match the open ${LABEL[kind]} '${id}'`, ['subagentRunId']);
          return owner;
        }
      }
      return tag;
    }
    if (tag !== undefined) return tag;
    if (this.lanes.get(undefined)?.kind === kind) return undefined;
    const candidates = [...this.lanes].filter(([, lane]) => lane.kind === kind);
    if (candidates.length > 1) throw bad(at, `ambiguous chunk: it names no id and ${candidates.length} lanes have an open ${LABEL[kind]}`);
    return candidates[0]?.[0];
  }

  private chunk(e: AguiEvent, kind: Kind, at: number): AguiEvent[] {
    const idKey = kind === 'tool' ? 'toolCallId' : 'messageId';
    const id = typeof e[idKey] === 'string' ? (e[idKey] as string) : undefined;
    const tag = typeof e['subagentRunId'] === 'string' ? e['subagentRunId'] : undefined;
    const out: AguiEvent[] = [];
    const contentType = kind === 'text' ? 'TEXT_MESSAGE_CONTENT' : kind === 'tool' ? 'TOOL_CALL_ARGS' : 'REASONING_MESSAGE_CONTENT';
    const sub = tag === undefined ? {} : { subagentRunId: tag };
    // A chunk continuing a message its producer opened with an explicit START.
    if (id !== undefined && this.isOpen(kind, id) && ![...this.lanes.values()].some((l) => l.kind === kind && l.id === id)) {
      return [this.content(e, kind, contentType, idKey, id, sub)];
    }
    const owner = this.laneOf(kind, id, tag, at);
    const lane = this.lanes.get(owner);
    const laneSub = owner === undefined ? {} : { subagentRunId: owner };
    if (lane?.kind === kind && (id === undefined || id === lane.id)) {
      for (const [field, have] of [['role', lane.role], ['name', lane.name], ['toolCallName', lane.toolCallName], ['parentMessageId', lane.parentMessageId]] as const) {
        const v = e[field];
        if (typeof v === 'string' && v !== have) throw bad(at, `cannot continue ${LABEL[kind]} '${lane.id}': chunk ${field} '${v}' does not match the open stream's ${have === undefined ? '(absent)' : `'${have}'`}`, [field]);
      }
      if (e['delta'] !== undefined || e['rawEvent'] !== undefined || this.remainder(e, kind) !== undefined || e['metadata'] !== undefined) {
        out.push(this.content(e, kind, contentType, idKey, lane.id, laneSub));
      }
      return out;
    }
    out.push(...this.close(owner));
    if (id === undefined) throw bad(at, `the first ${e.type} must have a ${idKey}`, [idKey]);
    const meta = e['metadata'] === undefined ? {} : { metadata: e['metadata'] };
    const next: Lane = { kind, id };
    if (kind === 'text') {
      next.role = typeof e['role'] === 'string' ? e['role'] : 'assistant';
      if (typeof e['name'] === 'string') next.name = e['name'];
      out.push({ type: 'TEXT_MESSAGE_START', messageId: id, role: next.role, ...(next.name === undefined ? {} : { name: next.name }), ...sub, ...meta });
    } else if (kind === 'tool') {
      if (typeof e['toolCallName'] !== 'string') throw bad(at, 'the first TOOL_CALL_CHUNK must have a toolCallName', ['toolCallName']);
      next.toolCallName = e['toolCallName'];
      if (typeof e['parentMessageId'] === 'string') next.parentMessageId = e['parentMessageId'];
      out.push({ type: 'TOOL_CALL_START', toolCallId: id, toolCallName: next.toolCallName, ...(next.parentMessageId === undefined ? {} : { parentMessageId: next.parentMessageId }), ...sub, ...meta });
    } else {
      out.push({ type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning', ...sub, ...meta });
    }
    this.lanes.set(owner, next);
    if (e['delta'] !== undefined || e['rawEvent'] !== undefined || this.remainder(e, kind) !== undefined) {
      out.push(this.content(e, kind, contentType, idKey, id, sub));
    }
    return out;
  }

  /** What the chunk carries that no chunk field names (a newer protocol's field): it rides on the content event. */
  private remainder(e: AguiEvent, kind: Kind): JsonObject | undefined {
    let rest: JsonObject | undefined;
    for (const key in e) if (!CHUNK_FIELDS[kind].has(key)) (rest ??= {})[key] = e[key] as JsonObject[string];
    return rest;
  }

  private content(e: AguiEvent, kind: Kind, type: string, idKey: string, id: string, sub: JsonObject): AguiEvent {
    const out: JsonObject = { ...this.remainder(e, kind), type, [idKey]: id, delta: typeof e['delta'] === 'string' ? e['delta'] : '', ...sub };
    for (const key of ['metadata', 'rawEvent', 'timestamp']) if (e[key] !== undefined) out[key] = e[key] as JsonObject[string];
    return out as AguiEvent;
  }
}
