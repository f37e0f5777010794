/**
 * One candidate of a Gemini stream -> canonical block events. Gemini parts carry no block ids:
 * consecutive text parts grow one text block, consecutive thought parts one reasoning block, and a
 * new block starts when the part kind changes (or a second thoughtSignature arrives for a block
 * that has one, so no signature is merged away). Whole functionCalls are held until the next part
 * of another kind: when that is a functionResponse in this model turn, Google ran the calls (MCP),
 * as the non-stream decoder marks them. Vertex streamed calls (`partialArgs` / `willContinue`)
 * become incremental argument deltas. A finishReason is held too: server-side tools make Gemini
 * go on after one; only the last is the candidate's finish.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part, ReasoningPart, TextPart, ToolCallPart } from '../../model/part.js';
import type { BlockRef, StreamEvent } from '../../model/stream-event.js';
import type { DecodeContext } from '../codec.js';
import type { ToolCallIds } from '../shared/tool-call-ids.js';
import type { CallIds } from './call-ids.js';
import { decodePart } from './content-decode.js';
import { decodeFinishReason } from './stop-reason.js';
import { plainTextPart } from './stream-fast.js';
import { either } from './stream-field.js';
import { PartialArgsWriter } from './stream-partial-args.js';
import { field } from './validate.js';
import { fieldSet, ID, rest } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

const CANDIDATE_KEYS = new Set(['index', 'content', 'finishReason', 'finishMessage']);
const CONTENT_KEYS = new Set(['role', 'parts']);
const CALL_PART_KEYS = fieldSet(['functionCall']);
const STREAMED_CALL_KEYS = fieldSet(['id', 'name', 'partialArgs', 'willContinue']);

interface OpenText {
  kind: 'text' | 'reasoning';
  index: number;
  signed: boolean;
  bytes: number;
  /** Residue of later parts of the block, written on its end event. */
  late?: JsonObject;
}
interface OpenCall {
  kind: 'call';
  index: number;
  writer: PartialArgsWriter;
  chunks: string[];
  late?: JsonObject;
}

const isEmptyText = (p: unknown): boolean => isJsonObject(p) && p['text'] === '' && Object.keys(p).length === 1;

function allEmptyText(parts: readonly unknown[]): boolean {
  for (const p of parts) if (!isEmptyText(p)) return false;
  return true;
}

export class CandidateDecoder {
  private next = 0;
  private open: OpenText | OpenCall | undefined;
  private held: ToolCallPart[] = [];
  private called = false;
  private readonly residue: JsonObject = {};
  private pending: JsonObject | undefined;
  private hadContent = false;
  private hadIndex = false;
  private readonly contentKeys = new Set<string>();

  constructor(
    private readonly choice: number,
    private readonly ids: CallIds,
    private readonly ctx: DecodeContext,
    /** The ids the wire gave, shared by every candidate: a repeat is refused. */
    private readonly toolIds: ToolCallIds,
  ) {}

  /** `plain`: the chunk is plainChunk's (stream-fast.ts), with no residue in the candidate or its content. */
  push(c: JsonObject, path: Path, out: StreamEvent[], plain = false): void {
    const content = c['content'];
    const parts = isJsonObject(content) && Array.isArray(content['parts']) ? content['parts'] : [];
    const finish = c['finishReason'];
    // Only content (not a bare empty text part) or another finishReason shows the candidate went on.
    if (this.pending !== undefined && (!allEmptyText(parts) || typeof finish === 'string')) this.supersede(parts[0], out);
    if (typeof c['index'] === 'number') this.hadIndex = true;
    if (isJsonObject(content)) {
      this.hadContent = true;
      if (!plain) this.contentFields(content, path);
    }
    // A part's path is built only where it is used (an issue, a claimed id): `at(path, j)`.
    for (let j = 0; j < parts.length; j++) this.part(parts[j] as JsonObject, path, j, out);
    const r = plain ? undefined : rest(c, CANDIDATE_KEYS);
    if (r) Object.assign(this.residue, r);
    if (typeof finish === 'string') {
      this.pending = { finishReason: finish };
      if (c['finishMessage'] !== undefined) this.pending['finishMessage'] = c['finishMessage'];
      if (c['index'] !== undefined) this.pending['index'] = c['index'];
    }
  }

  /**
   * End of input: closes the blocks and gives the finish when a finishReason came (true); a
   * candidate without one was cut off, and its open block stays open (whole calls held back are
   * still given: they arrived complete).
   */
  end(out: StreamEvent[]): boolean {
    const pending = this.pending;
    if (pending === undefined) {
      this.flushHeld(false, out);
      return false;
    }
    this.settle(false, out);
    const raw = pending['finishReason'] as string;
    const stopReason = decodeFinishReason(raw, this.called);
    const own: JsonObject = { ...this.residue };
    if (pending['finishMessage'] !== undefined) own['finishMessage'] = pending['finishMessage'];
    if (stopReason.unified === 'other') own['$rawFinish'] = true;
    if (!this.hadIndex) own['$noIndex'] = true;
    if (!this.hadContent) own['$noContent'] = true;
    out.push({ type: 'finish', ...(this.choice === 0 ? {} : { choice: this.choice }), stopReason, ...(Object.keys(own).length > 0 ? { ext: { [ID]: own } } : {}) });
    return true;
  }

  private ref(index: number): BlockRef {
    return this.choice === 0 ? { index } : { choice: this.choice, index };
  }

  /** A finishReason followed by more of the candidate: kept for Gemini as a provider event. */
  private supersede(next: unknown, out: StreamEvent[]): void {
    this.settle(isJsonObject(next) && field(next, 'functionResponse') !== undefined, out);
    out.push({ type: 'provider-event', origin: ID, event: { data: { candidates: [this.pending as JsonObject] } } });
    this.pending = undefined;
  }

  /** Content fields other than role and parts have no place in a stream: reported once each. */
  private contentFields(content: JsonObject, path: Path): void {
    const r = rest(content, CONTENT_KEYS);
    for (const key in r) {
      if (this.contentKeys.has(key)) continue;
      this.contentKeys.add(key);
      this.ctx.losses.push({ code: 'unsupported-field', path: childPath(path, 'content', key), message: `content field '${key}' has no place in a canonical stream`, action: 'dropped' });
    }
  }

  private part(raw: JsonObject, candidate: Path, j: number, out: StreamEvent[]): void {
    // A plain text part (nearly every part) holds no functionCall to look for, and decodePart
    // would find no residue in it: read as it is (plainTextBits).
    if (plainTextPart(raw)) {
      if (this.open?.kind === 'call') this.endCall(out);
      return this.textPart(plainTextBits(raw), candidate, j, out);
    }
    const fc = either(raw, 'functionCall', 'function_call');
    if (this.open?.kind === 'call') {
      if (isJsonObject(fc) && fc['name'] === undefined) return this.continueCall(raw, fc, candidate, j, out);
      this.endCall(out);
    }
    if (isJsonObject(fc)) {
      if (either(fc, 'willContinue', 'will_continue') !== undefined || either(fc, 'partialArgs', 'partial_args') !== undefined) return this.startCall(raw, fc, candidate, j, out);
      const path = at(candidate, j);
      if (typeof fc['name'] !== 'string') {
        throw new ValidationError([{ code: 'invalid_type', path: childPath(path, 'functionCall', 'name'), message: "'name' is required (no streamed call is open for this part to continue)" }]);
      }
      this.closeOpen(out);
      this.claimId(fc['id'], path);
      this.held.push(decodePart(raw, this.ids) as ToolCallPart);
      return;
    }
    if (typeof raw['text'] === 'string') return this.textPart(textBits(raw, this.ids), candidate, j, out);
    const answer = field(raw, 'functionResponse') !== undefined;
    this.settle(answer, out);
    const part: Part = decodePart(raw, this.ids);
    if (answer && part.type === 'tool-result') {
      // A function response inside the model's own turn: Google ran the tool.
      part.providerExecuted = true;
      part.ext = { ...part.ext, [ID]: { ...part.ext?.[ID], $server: true } };
    }
    out.push({ type: 'part', ...this.ref(this.next++), part });
  }

  private textPart(bits: TextBits, candidate: Path, j: number, out: StreamEvent[]): void {
    const { kind, text, sig, own } = bits;
    const residue = own !== undefined;
    // An empty text part (Gemini ends many streams with one) says nothing.
    if (text === '' && sig === undefined && !residue) return;
    let block = this.open?.kind === kind ? (this.open as OpenText) : undefined;
    if (block !== undefined && sig !== undefined && block.signed) block = undefined;
    if (block === undefined) {
      this.settle(false, out);
      block = { kind, index: this.next++, signed: false, bytes: 0 };
      this.open = block;
      const ref = this.ref(block.index);
      if (kind === 'text') {
        // A signature on the block's first part opens it (Gemini 2.5 sends it so).
        const start = sig !== undefined ? { ...own, thoughtSignature: sig } : own;
        out.push({ type: 'text-start', ...ref, ...(start !== undefined ? { ext: { [ID]: start } } : {}) });
      } else out.push({ type: 'reasoning-start', ...ref, origin: ID, ...(own !== undefined ? { ext: { [ID]: own } } : {}) });
    } else if (residue || (kind === 'text' && sig !== undefined)) {
      // Later in the block (Gemini 3 ends it with an empty part holding the signature): on its end.
      block.late = { ...block.late, ...own, ...(kind === 'text' && sig !== undefined ? { thoughtSignature: sig } : {}) };
    }
    if (text !== '') {
      block.bytes += Buffer.byteLength(text, 'utf8');
      if (block.bytes > this.ctx.limits.maxTextBytes) {
        throw new ValidationError([{ code: 'too_large', path: childPath(at(candidate, j), 'text'), message: `the ${kind} block is ${block.bytes} bytes so far, over the limit of ${this.ctx.limits.maxTextBytes}` }]);
      }
      out.push(kind === 'text' ? this.textDelta(block.index, text) : this.reasoningDelta(block.index, 'text', text));
    }
    if (sig !== undefined) {
      block.signed = true;
      if (kind === 'reasoning') out.push(this.reasoningDelta(block.index, 'signature', sig));
    }
  }

  // The delta events written out, not as `{ type, ...ref, key }`: on Node 20 a spread followed by a
  // new key is ~20x slower, and these come once per chunk.
  private textDelta(index: number, delta: string): StreamEvent {
    return this.choice === 0 ? { type: 'text-delta', index, delta } : { type: 'text-delta', choice: this.choice, index, delta };
  }

  private reasoningDelta(index: number, key: 'text' | 'signature', value: string): StreamEvent {
    if (key === 'text') return this.choice === 0 ? { type: 'reasoning-delta', index, text: value } : { type: 'reasoning-delta', choice: this.choice, index, text: value };
    return this.choice === 0 ? { type: 'reasoning-delta', index, signature: value } : { type: 'reasoning-delta', choice: this.choice, index, signature: value };
  }

  /** A functionCall's own id (most have none: minted ids are unique by construction). */
  private claimId(given: unknown, path: Path): void {
    if (typeof given === 'string') this.toolIds.claim(given, childPath(path, 'functionCall', 'id'));
  }

  private startCall(raw: JsonObject, fc: JsonObject, candidate: Path, j: number, out: StreamEvent[]): void {
    this.settle(false, out);
    const path = at(candidate, j);
    const name = fc['name'];
    if (typeof name !== 'string') {
      throw new ValidationError([{ code: 'invalid_type', path: childPath(path, 'functionCall', 'name'), message: "a streamed functionCall starts with its 'name'" }]);
    }
    const given = fc['id'];
    this.claimId(given, path);
    const id = typeof given === 'string' ? given : this.ids.mint(name, null);
    this.ids.call(id, name);
    // rest's own fresh object, not a spread copy: a copy given a new key takes a hidden class of its own.
    const own: JsonObject = rest(raw, CALL_PART_KEYS) ?? {};
    const inner = rest(fc, STREAMED_CALL_KEYS);
    if (inner) own['functionCall'] = inner;
    if (typeof given !== 'string') own['$noId'] = true;
    const block: OpenCall = { kind: 'call', index: this.next++, writer: new PartialArgsWriter(), chunks: [] };
    this.open = block;
    this.called = true;
    out.push({ type: 'tool-call-start', ...this.ref(block.index), id, name, ext: { [ID]: own } });
    this.continueCall(raw, fc, candidate, j, out, true);
  }

  /** The next part of an open streamed call (part `j` of the candidate at `candidate`: a path only for an error). */
  private continueCall(raw: JsonObject, fc: JsonObject, candidate: Path, j: number, out: StreamEvent[], first = false): void {
    const block = this.open as OpenCall;
    if (fc['args'] !== undefined) {
      throw new ValidationError([{ code: 'invalid_part', path: childPath(at(candidate, j), 'functionCall', 'args'), message: "a streamed functionCall carries its arguments in 'partialArgs', not 'args'" }]);
    }
    if (!first) {
      // Residue is fresh objects from rest(): no copy before it is merged.
      let later = rest(raw, CALL_PART_KEYS);
      const inner = rest(fc, STREAMED_CALL_KEYS);
      if (inner) (later ??= {})['functionCall'] = inner;
      if (later !== undefined) block.late = { ...block.late, ...later };
    }
    const args = either(fc, 'partialArgs', 'partial_args');
    if (args !== undefined) {
      if (!Array.isArray(args)) throw new ValidationError([{ code: 'invalid_type', path: childPath(at(candidate, j), 'functionCall', 'partialArgs'), message: 'partialArgs must be an array' }]);
      for (let i = 0; i < args.length; i++) if (i in args) this.delta(block, block.writer.push(args[i], { candidate, part: j, arg: i }), out);
    }
    if (either(fc, 'willContinue', 'will_continue') !== true) this.endCall(out);
  }

  private delta(block: OpenCall, text: string, out: StreamEvent[]): void {
    if (text === '') return;
    block.chunks.push(text);
    out.push(this.choice === 0 ? { type: 'tool-call-delta', index: block.index, delta: text } : { type: 'tool-call-delta', choice: this.choice, index: block.index, delta: text });
  }

  private endCall(out: StreamEvent[]): void {
    const block = this.open as OpenCall;
    this.delta(block, block.writer.finish(), out);
    out.push({ type: 'tool-call-end', ...this.ref(block.index), arguments: block.chunks.join(''), ...(block.late ? { ext: { [ID]: block.late } } : {}) });
    this.open = undefined;
  }

  private closeOpen(out: StreamEvent[]): void {
    const block = this.open;
    if (block === undefined) return;
    if (block.kind === 'call') return this.endCall(out);
    const ref = this.ref(block.index);
    const ext = block.late ? { ext: { [ID]: block.late } } : {};
    out.push(block.kind === 'text' ? { type: 'text-end', ...ref, ...ext } : { type: 'reasoning-end', ...ref, ...ext });
    this.open = undefined;
  }

  /** Whole calls held back, in order; `server` when Google answered them in this turn. */
  private flushHeld(server: boolean, out: StreamEvent[]): void {
    for (const call of this.held) {
      const ref = this.ref(this.next++);
      if (server) call.ext = { ...call.ext, [ID]: { ...call.ext?.[ID], $server: true } };
      else this.called = true;
      out.push({ type: 'tool-call-start', ...ref, id: call.id, name: call.name, ...(server ? { providerExecuted: true as const } : {}), ...(call.ext ? { ext: call.ext } : {}) });
      out.push({ type: 'tool-call-end', ...ref, arguments: JSON.stringify(call.arguments) });
    }
    this.held = [];
  }

  private settle(server: boolean, out: StreamEvent[]): void {
    this.closeOpen(out);
    this.flushHeld(server, out);
  }
}

/** What a text or thought part gives a block: its text, its signature and its other fields (residue). */
interface TextBits {
  kind: 'text' | 'reasoning';
  text: string;
  sig: string | undefined;
  own: JsonObject | undefined;
}

function plainTextBits(raw: JsonObject): TextBits {
  return { kind: raw['thought'] === true ? 'reasoning' : 'text', text: raw['text'] as string, sig: raw['thoughtSignature'] as string | undefined, own: undefined };
}

/** Any other text part, through the part decoder: a text part's thoughtSignature is residue there, the block's signature here. */
function textBits(raw: JsonObject, ids: CallIds): TextBits {
  const decoded = decodePart(raw, ids) as TextPart | ReasoningPart;
  const own: JsonObject = { ...decoded.ext?.[ID] };
  let sig: string | undefined;
  if (decoded.type === 'reasoning') sig = decoded.signature;
  else if (typeof own['thoughtSignature'] === 'string') {
    sig = own['thoughtSignature'];
    delete own['thoughtSignature'];
  }
  return { kind: decoded.type === 'reasoning' ? 'reasoning' : 'text', text: decoded.text ?? '', sig, own: Object.keys(own).length > 0 ? own : undefined };
}

/** The path of part `j` of a candidate (`candidate` is the candidate's own path). */
function at(candidate: Path, j: number): Path {
  return childPath(candidate, 'content', 'parts', j);
}
