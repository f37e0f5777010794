/**
 * Canonical stream events -> AG-UI events with the lifecycle `@ag-ui/client` verifies: RUN_STARTED
 * first; each block bracketed (TEXT_MESSAGE_*, TOOL_CALL_*, REASONING_START / REASONING_MESSAGE_*
 * / REASONING_END); RUN_FINISHED with usage and outcome last, or RUN_ERROR. Ids come back from
 * ext['ag-ui'] hints when the stream came from AG-UI, else from the canonical ids, else from a
 * counter (`thread-1`, `run-1`, `msg-1` ...), never random. Text and tool calls of one response
 * share one assistant message id (`parentMessageId`), as AG-UI's reducer builds one message.
 * What AG-UI has no field for travels in `metadata.interlingua` (the stop reason, the model, the
 * provider that minted reasoning), so AG-UI -> canonical gives it back; AG-UI clients ignore it.
 */
import type { Ext } from '../../model/ext.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { StreamEncodeContext, StreamEncoder } from '../codec.js';
import { copyKeys, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { jsonString, Template, WrittenEvent } from '../shared/stream-written.js';
import { AG_UI, EVENT_TYPES } from './ag-ui-api.js';
import { encodeContent } from './content-encode.js';
import { metadataWith, ReasoningWriter } from './stream-encode-reasoning.js';
import { encodeUsage } from './usage.js';

// `tpl`: the block's delta event as JSON text cut at the delta (stream-written.ts); null when it could not be.
interface OpenBlock { kind: 'text' | 'tool-call'; id: string; sub?: string; args: boolean; tpl?: Template | null }

export const own = (ext: Ext | undefined): JsonObject | undefined => ext?.[AG_UI];

/** An AG-UI event: its fields, then the residue its canonical event kept, with `metadata.interlingua` merged in. */
export function wire(fields: JsonObject, ext?: Ext, ours?: JsonObject): WireEvent {
  const marked = ours !== undefined && Object.keys(ours).length > 0;
  if (!marked && own(ext) === undefined) return { data: { ...fields } };
  // Copied key by key, not spread: keys added to a spread copy give each event a hidden class of its own.
  const out = copyKeys(fields);
  restoreResidue(out, ext, AG_UI);
  if (marked) out['metadata'] = metadataWith(out['metadata'], ours);
  return { data: out };
}

export class AguiStreamEncoder implements StreamEncoder {
  private n = -1;
  private started = false;
  private over = false;
  private threadId = 'thread-1';
  private runId = 'run-1';
  private model: string | undefined;
  private messageId: string | undefined;
  private counter = 0;
  private readonly blocks = new Map<number, OpenBlock>();
  private readonly openTexts = new Set<string>();
  private readonly reasoning: ReasoningWriter;
  private readonly pending: WireEvent[] = [];
  private readonly extraChoices = new Set<number>();
  private usage: Partial<Usage> | undefined;
  private finish: Extract<StreamEvent, { type: 'finish' }> | undefined;
  private readonly unanswered: string[] = [];

  constructor(private readonly ctx: StreamEncodeContext) {
    this.reasoning = new ReasoningWriter(() => `reasoning-${++this.counter}`);
  }

  push(e: StreamEvent): WireEvent[] {
    const at = ++this.n;
    if (this.over) return [];
    if ('choice' in e && e.choice !== undefined && e.choice !== 0) {
      if (!this.extraChoices.has(e.choice)) {
        this.extraChoices.add(e.choice);
        this.ctx.losses.push({ code: 'extra-choices', path: [at], message: `an AG-UI run streams one answer: choice ${e.choice} is dropped`, action: 'dropped' });
      }
      return [];
    }
    const out: WireEvent[] = [];
    if (e.type === 'response-start') return this.start(e, at);
    if (e.type === 'provider-event') return this.provider(e);
    if (!this.started && e.type !== 'error') out.push(...this.start({ type: 'response-start' }, at));
    if ('ext' in e) this.foreign(e.ext, at);
    switch (e.type) {
      case 'text-start': {
        if (e.refusal) this.ctx.losses.push({ code: 'refusal-as-text', path: [at], message: 'AG-UI has no refusal: sent as assistant text', action: 'approximated' });
        const hints = own(e.ext);
        let id = typeof hints?.['$messageId'] === 'string' ? hints['$messageId'] : this.assistantId();
        if (this.openTexts.has(id)) id = `${id}-${e.index}`;
        this.openTexts.add(id);
        const fields: JsonObject = { type: 'TEXT_MESSAGE_START', messageId: id };
        const role = hints !== undefined && '$role' in hints ? hints['$role'] : hints?.['role'] ?? 'assistant';
        if (typeof role === 'string') fields['role'] = role;
        this.blocks.set(e.index, { kind: 'text', id, args: false, ...sub(e.ext) });
        out.push(wire(fields, e.ext));
        break;
      }
      case 'text-delta': {
        const b = this.blocks.get(e.index);
        // Written directly (what `wire` gives for fields with no ext): no spread per delta.
        if (b) {
          const data = withSub({ type: 'TEXT_MESSAGE_CONTENT', messageId: b.id, delta: e.delta }, b);
          if (b.tpl === undefined) b.tpl = Template.of(1, (v) => withSub({ type: 'TEXT_MESSAGE_CONTENT', messageId: b.id, delta: v }, b), this.ctx.eventText) ?? null;
          out.push(b.tpl === null ? { data } : new WrittenEvent(data, b.tpl.fill1(jsonString(e.delta))));
        }
        break;
      }
      case 'citation':
        this.ctx.losses.push({ code: 'citations', path: [at], message: 'AG-UI text carries no citations', action: 'dropped' });
        break;
      case 'text-end':
      case 'tool-call-end':
        out.push(...this.endBlock(e));
        break;
      case 'tool-call-start': {
        const hints = own(e.ext);
        if (e.providerExecuted) this.ctx.losses.push({ code: 'provider-executed-tool', path: [at], message: `call of provider-run tool '${e.name}' is sent as an ordinary tool call`, action: 'approximated' });
        const fields: JsonObject = { type: 'TOOL_CALL_START', toolCallId: e.id, toolCallName: e.name };
        const parent = hints !== undefined && '$parentMessageId' in hints ? hints['$parentMessageId'] : this.assistantId();
        if (typeof parent === 'string') fields['parentMessageId'] = parent;
        this.blocks.set(e.index, { kind: 'tool-call', id: e.id, args: false, ...sub(e.ext) });
        if (!e.providerExecuted) this.unanswered.push(e.id);
        out.push(wire(fields, e.ext));
        break;
      }
      case 'tool-call-delta': {
        const b = this.blocks.get(e.index);
        if (b) {
          b.args = true;
          const data = withSub({ type: 'TOOL_CALL_ARGS', toolCallId: b.id, delta: e.delta }, b);
          if (b.tpl === undefined) b.tpl = Template.of(1, (v) => withSub({ type: 'TOOL_CALL_ARGS', toolCallId: b.id, delta: v }, b), this.ctx.eventText) ?? null;
          out.push(b.tpl === null ? { data } : new WrittenEvent(data, b.tpl.fill1(jsonString(e.delta))));
        }
        break;
      }
      case 'reasoning-start':
      case 'reasoning-delta':
      case 'reasoning-end':
        out.push(...this.reasoning.push(e));
        break;
      case 'part':
        out.push(...this.part(e, at));
        break;
      case 'usage':
        this.usage = { ...this.usage, ...e.usage };
        break;
      case 'finish':
        this.finish = e;
        break;
      case 'response-end':
        out.push(...this.end_(e, at));
        break;
      case 'error':
        out.push(...this.error(e, at));
        break;
    }
    return out;
  }

  /** A stream cut off stays cut off: no RUN_FINISHED is made up. */
  end(): WireEvent[] {
    return [];
  }

  private foreign(ext: Ext | undefined, at: number): void {
    reportForeignExt(ext, AG_UI, [at], this.ctx.losses);
  }

  private assistantId(): string {
    return (this.messageId ??= `msg-${++this.counter}`);
  }

  private start(e: Extract<StreamEvent, { type: 'response-start' }>, at: number): WireEvent[] {
    if (this.started) return [];
    this.started = true;
    const hints = own(e.ext);
    this.foreign(e.ext, at);
    if (typeof hints?.['threadId'] === 'string') this.threadId = hints['threadId'];
    if (e.id !== undefined) this.runId = e.id;
    this.model = e.model;
    const ours: JsonObject = {};
    if (e.model !== undefined) ours['model'] = e.model;
    if (e.created !== undefined) ours['created'] = e.created;
    // A run that failed before it started (decoded from AG-UI) had no RUN_STARTED.
    const out = hints?.['$noRun'] === true ? [] : [wire({ type: 'RUN_STARTED', threadId: this.threadId, runId: this.runId }, e.ext, ours)];
    out.push(...this.pending.splice(0));
    return out;
  }

  private provider(e: Extract<StreamEvent, { type: 'provider-event' }>): WireEvent[] {
    if (e.origin === AG_UI) {
      // An event of a type AG-UI 1.0 does not define would fail its schema (the client drops it):
      // it travels as RAW, marked so it decodes back to itself.
      const type = (e.event.data as JsonObject | null)?.['type'];
      return typeof type === 'string' && (EVENT_TYPES as readonly string[]).includes(type) ? [e.event] : [wire({ type: 'RAW', event: e.event.data, source: AG_UI }, undefined, { unknown: true })];
    }
    if (e.keepalive) return [];
    // AG-UI's RAW event is the slot for a provider's own event, passed through untranslated.
    const ours: JsonObject = {};
    if (e.event.event !== undefined) ours['event'] = e.event.event;
    if (e.event.exception) ours['exception'] = true;
    const raw = wire({ type: 'RAW', event: e.event.data, source: e.origin }, undefined, ours);
    if (this.started) return [raw];
    this.pending.push(raw);
    return [];
  }

  private endBlock(e: Extract<StreamEvent, { type: 'text-end' | 'tool-call-end' }>): WireEvent[] {
    const b = this.blocks.get(e.index);
    if (b === undefined) return [];
    this.blocks.delete(e.index);
    const out: WireEvent[] = [];
    const hints = own(e.ext);
    // Arguments that came whole at the end are one delta; a call with none has `{}` (what the
    // canonical call holds), unless it came from AG-UI with no ARGS at all.
    if (b.kind === 'tool-call' && !b.args && hints?.['$noArgs'] !== true) {
      out.push(wire({ type: 'TOOL_CALL_ARGS', toolCallId: b.id, delta: e.type === 'tool-call-end' && e.arguments !== undefined && e.arguments !== '' ? e.arguments : '{}', ...subOf(b) }));
    }
    const value = hints?.['encryptedValue'];
    if (typeof value === 'string') {
      const ev = hints?.['encryptedEvent'];
      const extra = ev !== null && typeof ev === 'object' && !Array.isArray(ev) ? ev : {};
      out.push({ data: { ...extra, type: 'REASONING_ENCRYPTED_VALUE', subtype: b.kind === 'text' ? 'message' : 'tool-call', entityId: b.id, encryptedValue: value } });
    }
    const fields: JsonObject = b.kind === 'text' ? { type: 'TEXT_MESSAGE_END', messageId: b.id } : { type: 'TOOL_CALL_END', toolCallId: b.id };
    const end = wire({ ...fields, ...subOf(b) }, e.ext);
    delete (end.data as JsonObject)['encryptedValue'];
    delete (end.data as JsonObject)['encryptedEvent'];
    out.push(end);
    if (b.kind === 'text') this.openTexts.delete(b.id);
    return out;
  }

  private part(e: Extract<StreamEvent, { type: 'part' }>, at: number): WireEvent[] {
    const p = e.part;
    if (p.type !== 'tool-result') {
      this.ctx.losses.push({ code: 'unsupported-part', path: [at, 'part'], message: `an AG-UI stream has no event for a ${p.type} part`, action: 'dropped' });
      return [];
    }
    this.foreign(p.ext, at);
    const hints = own(p.ext);
    const content = encodeContent(p.content, p.stringContent === true, [at, 'part'], this.ctx.losses);
    if (p.isError !== undefined) this.ctx.losses.push({ code: 'tool-error-flag', path: [at, 'part', 'isError'], message: 'TOOL_CALL_RESULT has no error flag', action: p.isError ? 'dropped' : 'approximated' });
    const i = this.unanswered.indexOf(p.callId);
    if (i >= 0) this.unanswered.splice(i, 1);
    const fields: JsonObject = { type: 'TOOL_CALL_RESULT', messageId: typeof hints?.['$messageId'] === 'string' ? hints['$messageId'] : `result-${++this.counter}`, toolCallId: p.callId, content };
    if (hints?.['$role'] === 'tool') fields['role'] = 'tool';
    return [wire(fields, p.ext)];
  }

  /** Blocks a malformed canonical stream left open are closed, so the run still verifies. */
  private closeAll(): WireEvent[] {
    const out: WireEvent[] = [];
    for (const [index, b] of [...this.blocks]) out.push(...this.endBlock({ type: b.kind === 'text' ? 'text-end' : 'tool-call-end', index }));
    out.push(...this.reasoning.closeAll());
    return out;
  }

  private end_(e: Extract<StreamEvent, { type: 'response-end' }>, at: number): WireEvent[] {
    this.over = true;
    const out = this.closeAll();
    const hints = own(e.ext);
    const fields: JsonObject = {
      type: 'RUN_FINISHED',
      threadId: typeof hints?.['threadId'] === 'string' ? hints['threadId'] : this.threadId,
      runId: typeof hints?.['runId'] === 'string' ? hints['runId'] : this.runId,
    };
    const ours: JsonObject = {};
    const f = this.finish;
    const fh = own(f?.ext);
    if (fh?.['outcome'] !== undefined) fields['outcome'] = fh['outcome'] as JsonValue;
    else if (fh?.['$outcome'] === 'success') fields['outcome'] = { type: 'success' };
    else if (f !== undefined && fh?.['$derived'] !== true) {
      fields['outcome'] = f.stopReason.unified === 'tool-calls' && this.unanswered.length > 0 ? { type: 'success', pendingToolCallIds: this.unanswered } : { type: 'success' };
    }
    // A stream that gave no stop reason says so, or the way back would derive one.
    if (f === undefined) ours['stopReason'] = null;
    else if (fh?.['$derived'] !== true) ours['stopReason'] = f.stopReason as unknown as JsonObject;
    if (this.usage !== undefined) fields['usage'] = encodeUsage(this.usage, this.model, this.ctx.losses, [at, 'usage']);
    else if (this.model !== undefined) this.ctx.losses.push({ code: 'unsupported-field', path: [at, 'model'], message: 'with no usage to report, an AG-UI run has no field for the model (kept in RUN_STARTED metadata only)', action: 'approximated' });
    const ext = e.ext;
    const run = wire(fields, ext, ours);
    out.push(run);
    return out;
  }

  private error(e: Extract<StreamEvent, { type: 'error' }>, at: number): WireEvent[] {
    this.over = true;
    const raw = e.error.raw;
    const fromAgui = raw !== null && typeof raw === 'object' && !Array.isArray(raw) && raw['type'] === 'RUN_ERROR' && raw['message'] === e.error.message;
    // The AG-UI event it came from, whole; else one built from the canonical error.
    const fields: JsonObject = fromAgui ? { ...(raw as JsonObject) } : { type: 'RUN_ERROR', message: e.error.message };
    if (!fromAgui) {
      const code = e.error.code ?? e.error.type;
      if (code !== undefined) fields['code'] = String(code);
      if (e.error.code !== undefined && e.error.type !== undefined) this.ctx.losses.push({ code: 'unsupported-field', path: [at, 'error', 'type'], message: `RUN_ERROR has one code: the error type '${e.error.type}' is dropped`, action: 'dropped' });
    }
    if (this.usage !== undefined && !fromAgui) fields['usage'] = encodeUsage(this.usage, this.model, this.ctx.losses, [at, 'usage']);
    return [{ data: fields }];
  }
}

function sub(ext: Ext | undefined): { sub?: string } {
  const s = own(ext)?.['subagentRunId'];
  return typeof s === 'string' ? { sub: s } : {};
}

/** `data` with the block's subagentRunId last, as `{ ...data, ...subOf(b) }` writes it. */
function withSub(data: JsonObject, b: { sub?: string }): JsonObject {
  if (b.sub !== undefined) data['subagentRunId'] = b.sub;
  return data;
}

function subOf(b: { sub?: string }): JsonObject {
  return b.sub === undefined ? {} : { subagentRunId: b.sub };
}
