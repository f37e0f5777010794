/**
 * Canonical stream events -> streamGenerateContent chunks (`alt=sse`), as Gemini writes them:
 * every chunk a whole GenerateContentResponse with one part of one candidate (role model),
 * responseId / modelVersion (and the response's own residue, e.g. Vertex createTime) on every
 * chunk, the usage so far on every chunk once known. Text and thought deltas go out at once, one
 * chunk each; a function call goes out whole when it ends (Gemini has no argument deltas), with
 * its thoughtSignature when it is Gemini's. Stop reasons wait for the end: the last chunk carries
 * each candidate's finishReason with the final usage, since Gemini says "done" only that way.
 * Parts go through the non-stream part encoder, so losses are the same as for a response.
 * Parts go out in the order their blocks started, one block at a time: a call that ends before an
 * earlier-started call does waits for it (serial-blocks.ts).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Ext } from '../../model/ext.js';
import type { ToolCallPart } from '../../model/part.js';
import type { FinishEvent, StreamError, StreamEvent, WireEvent } from '../../model/stream-event.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink, StreamEncodeContext, StreamEncoder } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { restoreResidue } from '../shared/residue.js';
import { jsonString, Template, WrittenEvent } from '../shared/stream-written.js';
import { SerialBlocks } from '../shared/serial-blocks.js';
import { encodePart, loss, type PartContext } from './content-encode.js';
import { decodeFinishReason, encodeFinishReason } from './stop-reason.js';
import { encodeUsage } from './usage.js';
import { applySnake, ID, own, reportExt } from './wire-util.js';

// `tpl`: the block's text chunk as JSON text cut at the text (stream-written.ts), for the encoder's `shape` it was made in.
interface TextBlock { kind: 'text'; first?: Ext | undefined; wrote: boolean; tpl?: { shape: number; tpl: Template | null } }
interface ReasoningBlock { kind: 'reasoning'; drop: boolean; first?: Ext | undefined; wrote: boolean; signature: string[] }
interface CallBlock { kind: 'call'; start: Extract<StreamEvent, { type: 'tool-call-start' }>; args: string[] }
type Block = TextBlock | ReasoningBlock | CallBlock;

const key = (e: { choice?: number; index: number }): string => `${e.choice ?? 0}:${e.index}`;

export class GeminiStreamEncoder implements StreamEncoder {
  private readonly serial = new SerialBlocks();
  private over = false;
  /** Fields of every chunk (responseId, modelVersion, the response's residue) and of the first only. */
  private readonly head: JsonObject = {};
  private first: JsonObject | undefined;
  private promptFeedback: JsonValue | undefined;
  private noIndex = false;
  /** Bumped when what every chunk repeats (head, usage, index) may have changed: text templates are remade. */
  private shape = 0;
  private usage: Partial<Usage> | undefined;
  private usageAt = 0;
  private readonly blocks = new Map<string, Block>();
  private readonly finishes = new Map<number, { e: FinishEvent; at: number }>();
  /** Choices that had a content chunk, and those that called client tools. */
  private readonly content = new Set<number>();
  private readonly called = new Set<number>();
  private readonly parts: PartContext = { names: new Map(), omitted: new Set() };

  constructor(private readonly ctx: StreamEncodeContext) {}

  push(e: StreamEvent): WireEvent[] {
    const at = this.serial.pushDelta(e);
    if (at >= 0) return this.write(e, at);
    const ready = this.serial.push(e);
    // Nearly always one event: its chunks as they are, without flatMap's closure and copy.
    if (ready.length === 1) {
      const r = ready[0] as { event: StreamEvent; at: number };
      return this.write(r.event, r.at);
    }
    const out: WireEvent[] = [];
    for (const r of ready) for (const w of this.write(r.event, r.at)) out.push(w);
    return out;
  }

  private write(e: StreamEvent, at: number): WireEvent[] {
    const losses = this.ctx.losses;
    if (this.over) {
      if (e.type !== 'provider-event') loss(losses, 'after-end', [at], `a ${e.type} event after the end of the stream is not sent`);
      return [];
    }
    switch (e.type) {
      case 'response-start':
        this.start(e, at);
        return [];
      case 'text-start':
        if (e.refusal) loss(losses, 'refusal-as-text', [at], 'Gemini has no refusal part; sent as text', 'approximated');
        reportExt(e.ext, [at], losses);
        this.blocks.set(key(e), { kind: 'text', first: e.ext, wrote: false });
        return [];
      case 'text-delta': {
        const b = this.block(e, 'text') ?? { kind: 'text', wrote: false };
        if (e.delta === '' && (b.wrote || !hasResidue(b.first))) return [];
        if (b.wrote && this.first === undefined) return [this.textChunk(e.choice ?? 0, e.delta, b)];
        return [this.chunk(e.choice, this.withResidue({ text: e.delta }, b))];
      }
      case 'citation':
        loss(losses, 'citations', [at], 'Gemini streams carry no canonical citations (only its own citationMetadata)');
        return [];
      case 'text-end': {
        const b = this.block(e, 'text');
        this.blocks.delete(key(e));
        reportExt(e.ext, [at], losses);
        return this.closing(e, b, { text: '' }, at);
      }
      case 'reasoning-start': {
        const drop = e.origin !== ID;
        if (drop) loss(losses, 'foreign-reasoning', [at], `reasoning from ${e.origin} cannot be replayed to Gemini`);
        else {
          if (e.redactedData !== undefined) loss(losses, 'redacted-reasoning', [at, 'redactedData'], 'Gemini has no redacted thoughts');
          if (e.encryptedContent !== undefined) loss(losses, 'encrypted-reasoning', [at, 'encryptedContent'], 'Gemini has no encrypted thoughts');
          reportExt(e.ext, [at], losses);
        }
        this.blocks.set(key(e), { kind: 'reasoning', drop, first: e.ext, wrote: false, signature: [] });
        return [];
      }
      case 'reasoning-delta': {
        const b = this.block(e, 'reasoning');
        if (b === undefined || b.drop) return [];
        if (e.signature !== undefined) b.signature.push(e.signature);
        if (e.text === undefined || e.text === '') return [];
        return [this.chunk(e.choice, this.withResidue({ text: e.text, thought: true }, b))];
      }
      case 'reasoning-end': {
        const b = this.block(e, 'reasoning');
        this.blocks.delete(key(e));
        if (b === undefined || b.drop) return [];
        if (e.encryptedContent !== undefined) loss(losses, 'encrypted-reasoning', [at, 'encryptedContent'], 'Gemini has no encrypted thoughts');
        reportExt(e.ext, [at], losses);
        const signature = e.signature ?? (b.signature.length > 0 ? b.signature.join('') : undefined);
        const part: JsonObject = { text: '', thought: true };
        if (signature !== undefined) part['thoughtSignature'] = signature;
        return this.closing(e, b, part, at, signature !== undefined);
      }
      case 'tool-call-start':
        this.blocks.set(key(e), { kind: 'call', start: e, args: [] });
        return [];
      case 'tool-call-delta':
        this.block(e, 'call')?.args.push(e.delta);
        return [];
      case 'tool-call-end': {
        const b = this.block(e, 'call');
        this.blocks.delete(key(e));
        if (b === undefined) {
          loss(losses, 'orphan-event', [at], 'a tool-call-end for no open call is not sent');
          return [];
        }
        const w = encodePart(this.toolCall(b, e, at), 'model', [at], losses, this.parts);
        if (w === undefined) return [];
        if (b.start.providerExecuted !== true) this.called.add(e.choice ?? 0);
        return [this.chunk(e.choice, w)];
      }
      case 'part': {
        const w = encodePart(e.part, 'model', [at], losses, this.parts);
        return w === undefined ? [] : [this.chunk(e.choice, w)];
      }
      case 'usage':
        this.usage = { ...this.usage, ...e.usage };
        this.usageAt = at;
        this.shape++;
        return [];
      case 'finish':
        this.finishes.set(e.choice ?? 0, { e, at });
        return [];
      case 'response-end':
        this.over = true;
        return [this.last(e.ext, at)];
      case 'error':
        this.over = true;
        return [{ data: { error: encodeError(e.error, at, losses) } }];
      case 'provider-event':
        // Our own events go back as they came, but a non-JSON line carries nothing and the SDK cannot parse it.
        if (e.origin === ID) return e.keepalive === true && typeof e.event.data === 'string' ? [] : [e.event];
        if (e.keepalive !== true) loss(losses, 'provider-event', [at], `a ${e.origin} stream event has no Gemini form`);
        return [];
    }
  }

  /** Input ended without response-end: a cut-off stream stays cut off (no finishReason is written). */
  end(): WireEvent[] {
    const out = this.serial.end().flatMap(({ event, at }) => this.write(event, at));
    if (!this.over && this.finishes.size > 0) {
      loss(this.ctx.losses, 'incomplete-stream', [this.serial.count], 'the stream ended before its end: its stop reason is not written (Gemini would read the stream as complete)');
    }
    if (!this.over) {
      // Gemini sends a call whole: one the stream cut off before its end has no part to go in.
      for (const b of this.blocks.values()) {
        if (b.kind === 'call') loss(this.ctx.losses, 'incomplete-stream', [this.serial.count], `tool call '${b.start.id}' was cut off before its end: not sent (Gemini sends calls whole)`);
      }
    }
    return out;
  }

  private start(e: Extract<StreamEvent, { type: 'response-start' }>, at: number): void {
    if (e.id !== undefined) this.head['responseId'] = e.id;
    if (e.model !== undefined) this.head['modelVersion'] = e.model;
    const mine = own(e.ext);
    for (const k in mine) {
      if (k.startsWith('$')) continue;
      // promptFeedback is said once, on the first chunk; createTime and the like repeat.
      if (k === 'promptFeedback') {
        (this.first ??= {})[k] = mine[k] ?? null;
        this.promptFeedback = mine[k];
      } else this.head[k] = mine[k] ?? null;
    }
    if (mine?.['$noIndex'] === true) this.noIndex = true;
    this.shape++;
    reportExt(e.ext, [at], this.ctx.losses);
    if (e.created !== undefined) loss(this.ctx.losses, 'unsupported-field', [at, 'created'], "Gemini responses carry no 'created' time (Vertex has createTime)");
  }

  /** key(e), remembered for the last block asked about: every delta of a block asks again. */
  private keyOf(e: { choice?: number; index: number }): string {
    if (e.index !== this.lastIndex || e.choice !== this.lastChoice) {
      this.lastIndex = e.index;
      this.lastChoice = e.choice;
      this.lastKey = key(e);
    }
    return this.lastKey;
  }

  private lastIndex = NaN;
  private lastChoice: number | undefined;
  private lastKey = '';

  private block<K extends Block['kind']>(e: { choice?: number; index: number }, kind: K): Extract<Block, { kind: K }> | undefined {
    const b = this.blocks.get(this.keyOf(e));
    return b?.kind === kind ? (b as Extract<Block, { kind: K }>) : undefined;
  }

  /** The block's start residue goes on its first part (where Gemini sent it). */
  private withResidue(part: JsonObject, b: TextBlock | ReasoningBlock): JsonObject {
    if (!b.wrote) {
      b.wrote = true;
      restoreResidue(part, b.first, ID);
      applySnake(part, own(b.first)?.['$snake']);
    }
    return part;
  }

  /**
   * A block's end: residue that came late (Gemini 3's signature on a trailing empty part), or a
   * block that never had a part, is written as one more empty part.
   */
  private closing(e: { choice?: number; ext?: Ext }, b: TextBlock | ReasoningBlock | undefined, part: JsonObject, at: number, signed = false): WireEvent[] {
    const late = hasResidue(e.ext);
    if (b === undefined || (b.wrote && !late && !signed)) return [];
    if (!b.wrote && !late && !signed && !hasResidue(b.first)) {
      if (b.kind === 'text') loss(this.ctx.losses, 'empty-text', [at], 'an empty text block is not sent');
      return [];
    }
    this.withResidue(part, b);
    restoreResidue(part, e.ext, ID);
    return [this.chunk(e.choice, part)];
  }

  private toolCall(b: CallBlock, e: Extract<StreamEvent, { type: 'tool-call-end' }>, at: number): ToolCallPart {
    const text = e.arguments ?? b.args.join('');
    const s = b.start;
    const part: ToolCallPart = { type: 'tool-call', id: s.id, name: s.name, arguments: {} };
    if (text.trim() !== '') {
      try {
        part.arguments = JSON.parse(text) as JsonValue;
        if (JSON.stringify(part.arguments) !== text) part.argumentsJson = text;
      } catch {
        loss(this.ctx.losses, 'invalid-arguments', [at, 'arguments'], `tool call '${s.id}': the arguments are not valid JSON; sent as {}`, 'approximated');
      }
    }
    if (s.providerExecuted) part.providerExecuted = true;
    const ext = mergeExt(s.ext, e.ext);
    if (ext !== undefined) part.ext = ext;
    return part;
  }

  /**
   * A text chunk past the block's first (no residue left to add, nothing first-only): `chunk`'s,
   * written from the block's template, as every chunk repeats the head and usage.
   */
  private textChunk(c: number, text: string, b: TextBlock): WireEvent {
    const w = this.chunk(c, { text });
    if (b.tpl?.shape !== this.shape) {
      // Only once the chunk above is made: `body` then has nothing first-only to take.
      const tpl = Template.of(1, (t) => this.chunk(c, { text: t }).data, this.ctx.eventText);
      b.tpl = { shape: this.shape, tpl: tpl ?? null };
    }
    return b.tpl.tpl === null ? w : new WrittenEvent(w.data, b.tpl.tpl.fill1(jsonString(text)));
  }

  private chunk(choice: number | undefined, part: JsonObject): WireEvent {
    const c = choice ?? 0;
    this.content.add(c);
    const cand: JsonObject = { content: { parts: [part], role: 'model' } };
    if (!this.noIndex) cand['index'] = c;
    return { data: this.body([cand], undefined) };
  }

  /** The last chunk: each finished candidate's finishReason (and residue), the final usage. */
  private last(ext: Ext | undefined, at: number): WireEvent {
    const losses = this.ctx.losses;
    const candidates: JsonObject[] = [];
    for (const [choice, { e, at: fat }] of [...this.finishes].sort((a, b) => a[0] - b[0])) {
      const hints = own(e.ext);
      const cand: JsonObject = {};
      // A part in the last chunk too, as Gemini sends: the SDK's chat history takes only chunks with parts.
      if (this.content.has(choice)) cand['content'] = { parts: [{ text: '' }], role: 'model' };
      const { value, exact } = encodeFinishReason(e.stopReason, hints?.['$rawFinish'] === true);
      const back = decodeFinishReason(value, this.called.has(choice)).unified;
      if (!exact || (back !== e.stopReason.unified && e.stopReason.unified !== 'other')) {
        loss(losses, 'stop-reason', [fat, 'stopReason'], `stop reason '${e.stopReason.raw ?? e.stopReason.unified}' sent as '${value}'`, 'approximated');
      }
      cand['finishReason'] = value;
      if (!this.noIndex && hints?.['$noIndex'] !== true) cand['index'] = choice;
      restoreResidue(cand, e.ext, ID);
      reportExt(e.ext, [fat], losses);
      candidates.push(cand);
    }
    for (const choice of this.content) {
      if (!this.finishes.has(choice)) loss(losses, 'no-finish', [at], `choice ${choice} has no stop reason: Gemini will read it as cut off`, 'approximated');
    }
    const blocked = isJsonObject(this.promptFeedback) && this.promptFeedback['blockReason'] !== undefined;
    if (this.finishes.size === 0 && this.content.size === 0 && !blocked) {
      loss(losses, 'no-finish', [at], 'the response has no stop reason: Gemini will read the stream as cut off', 'approximated');
    }
    // A blocked prompt answers with no candidates: `[]` unless the source had no list at all.
    const list = candidates.length > 0 || (this.content.size === 0 && own(ext)?.['$noCandidates'] !== true) ? candidates : undefined;
    const body = this.body(list, shift(losses, this.usageAt));
    restoreResidue(body, ext, ID);
    reportExt(ext, [at], losses);
    return { data: body };
  }

  /** A chunk's body; `usageLosses` undefined: the usage's losses are not reported (said on the last chunk). */
  private body(candidates: JsonObject[] | undefined, usageLosses: LossSink | undefined): JsonObject {
    const out: JsonObject = {};
    if (candidates !== undefined) out['candidates'] = candidates;
    if (this.usage !== undefined) out['usageMetadata'] = encodeUsage({ inputTokens: 0, outputTokens: 0, ...this.usage }, usageLosses ?? new LossList()).value;
    Object.assign(out, this.head);
    if (this.first !== undefined) {
      Object.assign(out, this.first);
      this.first = undefined;
    }
    return out;
  }
}

/** Whether Gemini's ext entry holds wire fields (not only `$` hints). */
function hasResidue(ext: Ext | undefined): boolean {
  return Object.keys(own(ext) ?? {}).some((k) => !k.startsWith('$'));
}

/** Usage losses carry response paths (['usage', ...]): re-rooted at the usage event. */
function shift(losses: LossSink, at: number): LossSink {
  return { push: (l) => losses.push({ ...l, path: [at, ...(l.path[0] === 'usage' ? l.path.slice(1) : l.path)] }) };
}

function mergeExt(a: Ext | undefined, b: Ext | undefined): Ext | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out: Ext = { ...a };
  for (const [origin, v] of Object.entries(b)) out[origin] = { ...out[origin], ...v };
  return out;
}

const STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED', 499: 'CANCELLED', 500: 'INTERNAL', 501: 'NOT_IMPLEMENTED', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};
const STATUSES = new Set([...Object.values(STATUS), 'UNKNOWN', 'FAILED_PRECONDITION', 'OUT_OF_RANGE', 'DATA_LOSS', 'ALREADY_EXISTS']);

/** Other dialects' error types by what they say, for the HTTP code Google's status goes with. */
const BY_TYPE: readonly [RegExp, number][] = [
  [/overload|unavailable/i, 503],
  [/rate.?limit|throttl|quota|exhaust|too.?many/i, 429],
  [/auth(entication)?.?error|unauthenticated|unauthori[sz]ed/i, 401],
  [/permission|forbidden|access.?denied/i, 403],
  [/not.?found/i, 404],
  [/timeout|deadline/i, 504],
  [/invalid|validation|bad.?request/i, 400],
];

/**
 * The canonical error as google.rpc.Status ({code, message, status}); the SDK raises it as an
 * ApiError when the code is an HTTP error code. Another dialect's error type is mapped by meaning.
 */
function encodeError(err: StreamError, at: number, losses: LossSink): JsonObject {
  const raw = err.raw;
  if (isJsonObject(raw) && typeof raw['code'] === 'number' && typeof raw['message'] === 'string' && typeof raw['status'] === 'string') return raw;
  const said = `${err.type ?? ''} ${err.code ?? ''}`;
  let code = typeof err.code === 'number' && err.code >= 400 && err.code < 600 ? err.code : undefined;
  code ??= BY_TYPE.find(([re]) => re.test(said))?.[1] ?? 500;
  const status = err.type !== undefined && STATUSES.has(err.type) ? err.type : (STATUS[code] ?? 'UNKNOWN');
  if (err.type !== undefined && err.type !== status) {
    loss(losses, 'error-type', [at, 'error', 'type'], `error type '${err.type}' sent as ${code} ${status}`, 'approximated');
  }
  return { code, message: err.message, status };
}

export function streamEncoder(ctx: StreamEncodeContext): StreamEncoder {
  return new GeminiStreamEncoder(ctx);
}

