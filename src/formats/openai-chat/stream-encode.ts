/**
 * Canonical stream events -> Chat Completions chunks, as the official SDK's ChatCompletionStream
 * reads them: each choice's first chunk has `role: 'assistant'`; text is `content` deltas (a
 * refusal block `refusal` deltas, reasoning of this codec's origin `reasoning_content` deltas);
 * a tool call's first chunk has its index, id, type and name, its arguments follow as deltas (the
 * whole text as one delta when only the end carried it); `finish_reason` in a chunk of its own;
 * at the end a usage chunk with empty choices (when usage is known and `includeUsage` is not
 * false), then `[DONE]`. An error becomes `{"error": {...}}` and nothing follows it.
 *
 * Chat holds no reasoning of other origins (their signatures mean nothing here: the response
 * codec drops them too), no server-run tools, no non-url citations, no whole media parts: each is
 * reported as a loss with the canonical event's index as path. url citations are written as the
 * `annotations` delta search models send, when their text block ends, with offsets into the
 * choice's whole content. Ids missing from the canonical stream are made up from a counter.
 */
import type { UrlCitation } from '../../model/citation.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StreamError, StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { StreamEncodeContext, StreamEncoder } from '../codec.js';
import { jsonString, Template, WrittenEvent } from '../shared/stream-written.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { loss, own, restoreNested } from './content-encode.js';
import { OPENAI_CHAT } from './openai-chat-api.js';
import { encodeFinishReason } from './stop-reason.js';
import { citationAnnotation } from './stream-annotations.js';
import { partEvents } from './stream-parts.js';
import { encodeUsage } from './usage.js';

interface Block {
  kind: 'text' | 'refusal' | 'reasoning' | 'tool' | 'dropped';
  /** reasoning: the delta field; tool: the tool_calls index (or -1 for a legacy function_call). */
  field?: string;
  tool?: number;
  sawDelta?: boolean;
  /** text: where the block starts in the choice's content, and how long it is so far. */
  start: number;
  length: number;
  citations?: UrlCitation[];
  /** tool: its argument delta chunk as JSON text cut at the arguments (stream-written.ts), for the head it was made with. */
  tpl?: { head: ChunkHead; tpl: Template | null };
}

interface ChoiceState {
  roleSent: boolean;
  blocks: Map<number, Block>;
  tools: number;
  content: number;
  annotations: JsonObject[];
  /** The content delta chunk as JSON text cut at the text (stream-written.ts), for the head it was made with. */
  text?: { head: ChunkHead; tpl: Template | null };
}

let made = 0;

/** The fields every chunk repeats, in their wire order. */
interface ChunkHead { id: string; object: string; created: number; model: string }

export class ChatStreamEncoder implements StreamEncoder {
  private n = -1;
  private head: ChunkHead | undefined;
  private startExt: StreamEvent & { type: 'response-start' } | undefined;
  private firstSent = false;
  private over = false;
  private readonly choices = new Map<number, ChoiceState>();
  private usage: Partial<Usage> | undefined;

  constructor(private readonly ctx: StreamEncodeContext) {}

  push(e: StreamEvent): WireEvent[] {
    const at = ++this.n;
    if (this.over) return [];
    const out: WireEvent[] = [];
    this.event(e, at, out);
    return out;
  }

  /** A cut-off canonical stream stays cut off: no [DONE] is made up. */
  end(): WireEvent[] {
    return [];
  }

  private loss(code: string, path: Path, message: string, action: 'dropped' | 'approximated' = 'dropped'): void {
    loss(this.ctx.losses, code, path, message, action);
  }

  private event(e: StreamEvent, at: number, out: WireEvent[]): void {
    switch (e.type) {
      case 'response-start':
        this.start(e, at);
        return;
      case 'text-start':
        reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
        this.state(e.choice).blocks.set(e.index, { kind: e.refusal ? 'refusal' : 'text', start: this.state(e.choice).content, length: 0 });
        return;
      case 'text-delta': {
        const b = this.block(e);
        if (b === undefined || e.delta === '' || (b.kind !== 'text' && b.kind !== 'refusal')) return;
        if (b.kind === 'text') {
          b.length += e.delta.length;
          this.state(e.choice).content += e.delta.length;
        }
        if (b.kind === 'text' && this.firstSent) out.push(this.contentDelta(e.choice ?? 0, e.delta));
        else this.send(out, e.choice, b.kind === 'text' ? { content: e.delta } : { refusal: e.delta });
        return;
      }
      case 'citation': {
        const b = this.block(e);
        reportForeignExt(e.citation.ext, OPENAI_CHAT, [at, 'citation'], this.ctx.losses);
        if (e.citation.type !== 'url' || b?.kind !== 'text') {
          this.loss('citations', [at, 'citation'], `${e.citation.type} citations${b?.kind === 'text' ? '' : ' outside a text block'} have no Chat Completions annotation`);
          return;
        }
        if (e.citation.citedText !== undefined || e.citation.encryptedIndex !== undefined) {
          this.loss('citations', [at, 'citation'], 'url_citation keeps url, title and range only (cited text and provider index dropped)', 'approximated');
        }
        (b.citations ??= []).push(e.citation);
        return;
      }
      case 'text-end': {
        reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
        const b = this.block(e);
        this.state(e.choice).blocks.delete(e.index);
        // The SDK keeps only the last annotations delta of a message: all of a choice's go in one,
        // before anything but content follows (while a decoder still has the text block open).
        if (b?.citations) this.state(e.choice).annotations.push(...b.citations.map((c) => citationAnnotation(c, b.start, b.length)));
        return;
      }
      case 'reasoning-start':
        this.reasoningStart(e, at);
        return;
      case 'reasoning-delta': {
        const b = this.block(e);
        if (b?.kind !== 'reasoning') return;
        if (e.text !== undefined && e.text !== '') {
          // Literals, not `{ [b.field]: text }` (a varying computed key is V8's slow path).
          if (e.summaryIndex === undefined) this.send(out, e.choice, b.field === 'reasoning' ? { reasoning: e.text } : { reasoning_content: e.text });
          else this.loss('reasoning-summary', [at, 'text'], 'Chat Completions has no reasoning summaries');
        }
        if (e.signature !== undefined) this.loss('reasoning-signature', [at, 'signature'], 'Chat Completions carries no reasoning signature');
        return;
      }
      case 'reasoning-end': {
        const b = this.block(e);
        this.state(e.choice).blocks.delete(e.index);
        if (b?.kind !== 'reasoning') return;
        reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
        for (const key of ['signature', 'redactedData', 'encryptedContent'] as const) {
          if (e[key] !== undefined) this.loss('reasoning-signature', [at, key], `Chat Completions carries no reasoning ${key}`);
        }
        return;
      }
      case 'tool-call-start':
        this.toolStart(e, at, out);
        return;
      case 'tool-call-delta': {
        const b = this.block(e);
        if (b?.kind !== 'tool' || e.delta === '') return;
        b.sawDelta = true;
        this.flushAnnotations(out, e.choice ?? 0);
        out.push(this.argsChunk(e.choice ?? 0, b, e.delta));
        return;
      }
      case 'tool-call-end': {
        const b = this.block(e);
        this.state(e.choice).blocks.delete(e.index);
        if (b?.kind !== 'tool') return;
        reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
        // A call that came with no argument text at all has no arguments: Chat clients parse the
        // arguments as JSON, so they get the empty object rather than an empty string.
        if (!b.sawDelta) this.send(out, e.choice, this.argsDelta(b, e.arguments !== undefined && e.arguments !== '' ? e.arguments : '{}'));
        const rest = own(e.ext);
        if (rest !== undefined && b.tool !== -1 && Object.keys(rest).some((k) => !k.startsWith('$'))) {
          const frag: JsonObject = { index: b.tool as number };
          restoreNested(frag, e.ext, 'function');
          this.send(out, e.choice, { tool_calls: [frag] });
        }
        return;
      }
      case 'part':
        for (const sub of partEvents(e.part, e.choice, e.index)) {
          if (sub === undefined) {
            const code = e.part.type === 'tool-result' ? 'provider-executed-tool' : 'unsupported-part';
            this.loss(code, [at, 'part'], `a ${e.part.type} part has no place in a Chat Completions stream`);
          } else this.event(sub, at, out);
        }
        return;
      case 'usage':
        this.usage = { ...this.usage, ...e.usage };
        return;
      case 'finish': {
        const c = e.choice ?? 0;
        const st = this.state(c);
        reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
        const finish = encodeFinishReason(e.stopReason, own(e.ext), [at, 'stopReason'], this.ctx.losses);
        this.flushAnnotations(out, c);
        const choice: JsonObject = { index: c, delta: st.roleSent ? {} : { role: 'assistant' }, finish_reason: finish };
        st.roleSent = true;
        restoreResidue(choice, e.ext, OPENAI_CHAT);
        out.push(this.chunk([choice]));
        return;
      }
      case 'response-end':
        this.finishStream(e, at, out);
        return;
      case 'error':
        out.push({ data: { error: errorBody(e.error) } });
        this.over = true;
        return;
      case 'provider-event':
        if (e.origin === OPENAI_CHAT) out.push(e.event);
        else if (e.keepalive !== true) this.loss('provider-event', [at], `a ${e.origin} stream event has no Chat Completions equivalent`);
        return;
    }
  }

  private start(e: StreamEvent & { type: 'response-start' }, at: number): void {
    reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
    this.head = {
      // An empty id (some gateways send one) is no id.
      id: e.id !== undefined && e.id !== '' ? e.id : `chatcmpl-interlingua-${++made}`,
      object: 'chat.completion.chunk',
      // Required by the chunk schema; like the response codec, the current time when unknown.
      created: e.created ?? Math.floor(Date.now() / 1000),
      model: e.model ?? '',
    };
    this.startExt = e;
  }

  private reasoningStart(e: StreamEvent & { type: 'reasoning-start' }, at: number): void {
    const st = this.state(e.choice);
    if (e.origin !== OPENAI_CHAT) {
      this.loss('foreign-reasoning', [at], `reasoning from ${e.origin} cannot be sent to Chat Completions`);
      st.blocks.set(e.index, { kind: 'dropped', start: 0, length: 0 });
      return;
    }
    reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
    if (e.redactedData !== undefined || e.encryptedContent !== undefined) this.loss('reasoning-signature', [at], 'Chat Completions carries no redacted or encrypted reasoning');
    const field = own(e.ext)?.['$field'] === 'reasoning' ? 'reasoning' : 'reasoning_content';
    st.blocks.set(e.index, { kind: 'reasoning', field, start: 0, length: 0 });
  }

  private toolStart(e: StreamEvent & { type: 'tool-call-start' }, at: number, out: WireEvent[]): void {
    const st = this.state(e.choice);
    if (e.providerExecuted === true) {
      this.loss('provider-executed-tool', [at], `call of provider-run tool '${e.name}' has no Chat Completions equivalent`);
      st.blocks.set(e.index, { kind: 'dropped', start: 0, length: 0 });
      return;
    }
    reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
    const hints = own(e.ext);
    if (hints?.['$legacy'] === true) {
      st.blocks.set(e.index, { kind: 'tool', tool: -1, start: 0, length: 0 });
      const fc: JsonObject = { name: e.name, arguments: '' };
      restoreResidue(fc, e.ext, OPENAI_CHAT);
      this.send(out, e.choice, { function_call: fc });
      return;
    }
    const tool = st.tools++;
    st.blocks.set(e.index, { kind: 'tool', tool, start: 0, length: 0 });
    const call: JsonObject = { index: tool, id: e.id, type: typeof hints?.['type'] === 'string' ? hints['type'] : 'function', function: { name: e.name, arguments: '' } };
    restoreNested(call, e.ext, 'function');
    this.send(out, e.choice, { tool_calls: [call] });
  }

  /**
   * An argument delta of a tool call after the first chunk, written from the block's template (each
   * chunk repeats id, object, created and model); the chunk `delta` makes, otherwise.
   */
  private argsChunk(c: number, b: Block, args: string): WireEvent {
    const st = this.state(c);
    const h = this.head;
    const tool = b.tool;
    if (!st.roleSent || !this.firstSent || h === undefined || tool === undefined || tool === -1) return this.delta(c, this.argsDelta(b, args));
    const data = deltaChunk(h, c, { tool_calls: [{ index: tool, function: { arguments: args } }] });
    if (b.tpl?.head !== h) {
      const tpl = Template.of(1, (a) => deltaChunk(h, c, { tool_calls: [{ index: tool, function: { arguments: a } }] }), this.ctx.eventText);
      b.tpl = { head: h, tpl: tpl ?? null };
    }
    return b.tpl.tpl === null ? { data } : new WrittenEvent(data, b.tpl.tpl.fill1(jsonString(args)));
  }

  private argsDelta(b: Block, args: string): JsonObject {
    return b.tool === -1 ? { function_call: { arguments: args } } : { tool_calls: [{ index: b.tool as number, function: { arguments: args } }] };
  }

  private finishStream(e: StreamEvent & { type: 'response-end' }, at: number, out: WireEvent[]): void {
    reportForeignExt(e.ext, OPENAI_CHAT, [at], this.ctx.losses);
    const rest = own(e.ext);
    // A stream without any choice (a prompt another provider blocked) has nothing a Chat client
    // accepts: its SDK wants an assistant message. Nothing is made up; the gap is reported.
    if (this.choices.size === 0) this.loss('no-choices', [at], 'the stream has no choice: Chat Completions clients expect an assistant message', 'approximated');
    for (const c of this.choices.keys()) this.flushAnnotations(out, c);
    const late: JsonObject = {};
    restoreResidue(late, e.ext, OPENAI_CHAT);
    if (this.usage !== undefined && this.ctx.includeUsage !== false) {
      const u = this.usage;
      if (u.inputTokens === undefined || u.outputTokens === undefined) {
        this.loss('usage-incomplete', [at], 'the stream gave no input or output token count: 0 is sent', 'approximated');
      }
      out.push(this.chunk([], { usage: encodeUsage({ inputTokens: 0, outputTokens: 0, ...u }, this.ctx.losses, [at, 'usage']), ...late }));
    } else if (Object.keys(late).length > 0) out.push(this.chunk([], late));
    if (rest?.['$noDone'] !== true) out.push({ data: '[DONE]' });
    this.over = true;
  }

  private state(choice: number | undefined): ChoiceState {
    const c = choice ?? 0;
    let st = this.choices.get(c);
    if (st === undefined) this.choices.set(c, (st = { roleSent: false, blocks: new Map(), tools: 0, content: 0, annotations: [] }));
    return st;
  }

  private block(ref: { choice?: number; index: number }): Block | undefined {
    return this.choices.get(ref.choice ?? 0)?.blocks.get(ref.index);
  }

  private chunk(choices: JsonObject[], extra?: JsonObject): WireEvent {
    if (this.head === undefined) this.start({ type: 'response-start' }, this.n);
    const h = this.head as ChunkHead;
    // A literal, not a spread of the head: the spread and the keys added after it took a slow path.
    const data: JsonObject = { id: h.id, object: h.object, created: h.created, model: h.model };
    if (!this.firstSent) {
      restoreResidue(data, this.startExt?.ext, OPENAI_CHAT);
      this.firstSent = true;
    }
    data['choices'] = choices;
    if (extra !== undefined) Object.assign(data, extra);
    return { data };
  }

  /** A delta chunk of `choice`; annotations waiting go out first unless more content follows. */
  private send(out: WireEvent[], choice: number | undefined, delta: JsonObject): void {
    if (!('content' in delta)) this.flushAnnotations(out, choice ?? 0);
    out.push(this.delta(choice, delta));
  }

  private flushAnnotations(out: WireEvent[], c: number): void {
    const st = this.choices.get(c);
    if (st === undefined || st.annotations.length === 0) return;
    const annotations = st.annotations;
    st.annotations = [];
    out.push(this.delta(c, { annotations }));
  }

  /**
   * A content delta after the first chunk: the chunk `delta` makes, written from the choice's
   * template (each chunk repeats id, object, created and model, most of its text).
   */
  private contentDelta(c: number, text: string): WireEvent {
    const st = this.state(c);
    if (!st.roleSent) return this.delta(c, { content: text });
    const h = this.head as ChunkHead;
    const data = deltaChunk(h, c, { content: text });
    if (st.text?.head !== h) {
      const tpl = Template.of(1, (t) => deltaChunk(h, c, { content: t }), this.ctx.eventText);
      st.text = { head: h, tpl: tpl ?? null };
    }
    return st.text.tpl === null ? { data } : new WrittenEvent(data, st.text.tpl.fill1(jsonString(text)));
  }

  private delta(choice: number | undefined, delta: JsonObject): WireEvent {
    const c = choice ?? 0;
    const st = this.state(c);
    const d = st.roleSent ? delta : { role: 'assistant', ...delta };
    st.roleSent = true;
    return this.chunk([{ index: c, delta: d, finish_reason: null }]);
  }
}

/** A delta chunk after the first (no residue, role sent): the head's fields, then the one choice; `chunk` and `delta` write the same. */
function deltaChunk(h: ChunkHead, c: number, delta: JsonObject): JsonObject {
  return { id: h.id, object: h.object, created: h.created, model: h.model, choices: [{ index: c, delta, finish_reason: null }] };
}

/** OpenAI's error object; a Chat error decoded by this codec goes back as it came. */
function errorBody(err: StreamError): JsonObject | string {
  const raw = err.raw;
  if (typeof raw === 'string' && raw === err.message && err.type === undefined) return raw;
  if (isJsonObject(raw) && raw['message'] === err.message && (raw['type'] ?? undefined) === err.type) return raw;
  return { message: err.message, type: err.type ?? 'server_error', param: null, code: err.code ?? null };
}

export function streamEncoder(ctx: StreamEncodeContext): StreamEncoder {
  return new ChatStreamEncoder(ctx);
}
