/**
 * Canonical reasoning blocks -> AG-UI reasoning: REASONING_START (span), REASONING_MESSAGE_START /
 * CONTENT / END, REASONING_ENCRYPTED_VALUE, REASONING_END. A block decoded from AG-UI gets its
 * span and message back from its hints (stream-reasoning.ts); any other block is one span holding
 * a message for its text and one per summary part (marked `summaryIndex` in metadata.interlingua),
 * opened when its first fragment comes. Reasoning minted by a provider keeps its opaque state: the
 * span's metadata names the provider (origin, item id) and the encrypted value carries the
 * signature, encrypted content or redacted data, named in its metadata, for the way back. AG-UI
 * itself verifies no signature, so the text is shown as reasoning whoever minted it.
 */
import type { JsonObject } from '../../model/json.js';
import type { ReasoningStartEvent, StreamEvent, WireEvent } from '../../model/stream-event.js';
import { copyKeys, setOwn } from '../shared/residue.js';
import { AG_UI, META_KEY } from './ag-ui-api.js';

type R = Extract<StreamEvent, { type: 'reasoning-start' | 'reasoning-delta' | 'reasoning-end' }>;

interface State {
  start: ReasoningStartEvent;
  span?: string;
  base: string;
  sub?: string;
  /** The open reasoning message: its id and which summary part it holds (undefined: the text). */
  msg?: { id: string; summary?: number };
  messages: number;
  signature: string[];
}

const obj = (v: unknown): JsonObject | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : undefined);

/** The residue keys of `ext['ag-ui']` other than hints and `exclude`. */
function residueOf(fields: JsonObject | undefined, exclude: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const key in fields) if (!key.startsWith('$') && !exclude.includes(key)) out[key] = fields[key] as JsonObject[string];
  return out;
}

/**
 * An event's `metadata` with `metadata.interlingua` set to `ours`: copied key by key, not spread,
 * as a spread copy given a new key takes a hidden class of its own.
 */
export function metadataWith(meta: unknown, ours: JsonObject): JsonObject {
  const metadata = copyKeys(obj(meta) ?? {});
  setOwn(metadata, META_KEY, ours);
  return metadata;
}

function withMeta(fields: JsonObject, ours: JsonObject | undefined): JsonObject {
  if (ours === undefined || Object.keys(ours).length === 0) return fields;
  const out = copyKeys(fields);
  out['metadata'] = metadataWith(fields['metadata'], ours);
  return out;
}

export class ReasoningWriter {
  private readonly blocks = new Map<number, State>();
  private readonly openSpans = new Set<string>();

  constructor(private readonly newId: () => string) {}

  push(e: R): WireEvent[] {
    if (e.type === 'reasoning-start') return this.start(e);
    const s = this.blocks.get(e.index);
    if (s === undefined) return [];
    if (e.type === 'reasoning-delta') {
      const out: WireEvent[] = [];
      if (e.text !== undefined) {
        // The open message is usually the one this fragment goes to: nothing to open first.
        if (s.msg === undefined || s.msg.summary !== e.summaryIndex) out.push(...this.message(s, e.summaryIndex));
        const data: JsonObject = { type: 'REASONING_MESSAGE_CONTENT', messageId: s.msg?.id ?? s.base, delta: e.text };
        if (s.sub !== undefined) data['subagentRunId'] = s.sub;
        out.push({ data });
      }
      if (e.signature !== undefined) s.signature.push(e.signature);
      return out;
    }
    this.blocks.delete(e.index);
    return this.end(s, e);
  }

  /** Closes what a malformed canonical stream left open, so the run still verifies. */
  closeAll(): WireEvent[] {
    const out: WireEvent[] = [];
    for (const [index] of [...this.blocks]) out.push(...this.push({ type: 'reasoning-end', index }));
    for (const span of this.openSpans) out.push({ data: { type: 'REASONING_END', messageId: span } });
    this.openSpans.clear();
    return out;
  }

  private sub(s: State): JsonObject {
    return s.sub === undefined ? {} : { subagentRunId: s.sub };
  }

  private start(e: ReasoningStartEvent): WireEvent[] {
    const hints = e.ext?.[AG_UI];
    const fromAgui = typeof hints?.['$messageId'] === 'string';
    const base = fromAgui ? (hints?.['$messageId'] as string) : this.newId();
    const span = hints?.['$noSpan'] === true ? undefined : typeof hints?.['$span'] === 'string' ? hints['$span'] : base;
    const sub = hints?.['subagentRunId'];
    const s: State = { start: e, base, messages: 0, signature: [], ...(span === undefined ? {} : { span }), ...(typeof sub === 'string' ? { sub } : {}) };
    this.blocks.set(e.index, s);
    const out: WireEvent[] = [];
    if (span !== undefined && !this.openSpans.has(span)) {
      this.openSpans.add(span);
      const ours: JsonObject = {};
      if (e.origin !== AG_UI) ours['origin'] = e.origin;
      if (e.id !== undefined) ours['id'] = e.id;
      const spanRest = obj(hints?.['span']) ?? (fromAgui ? {} : this.sub(s));
      out.push({ data: withMeta({ ...spanRest, type: 'REASONING_START', messageId: span }, ours) });
    }
    // A message decoded from AG-UI opened with its block; others open at their first fragment.
    if (fromAgui && hints?.['$noMessage'] !== true) {
      const summary = hints?.['$summaryIndex'];
      s.messages = 1;
      s.msg = typeof summary === 'number' ? { id: base, summary } : { id: base };
      const fields = { ...residueOf(hints, ['span']), type: 'REASONING_MESSAGE_START', messageId: base, role: 'reasoning' };
      out.push({ data: withMeta(fields, typeof summary === 'number' ? { summaryIndex: summary } : undefined) });
    }
    return out;
  }

  /** Makes the open message the one for this fragment: the text, or summary part `summary`. */
  private message(s: State, summary: number | undefined): WireEvent[] {
    if (s.msg !== undefined && s.msg.summary === summary) return [];
    const out: WireEvent[] = [];
    if (s.msg !== undefined) out.push({ data: { type: 'REASONING_MESSAGE_END', messageId: s.msg.id, ...this.sub(s) } });
    const id = s.messages === 0 ? s.base : `${s.base}-${s.messages}`;
    s.messages++;
    s.msg = summary === undefined ? { id } : { id, summary };
    const fields: JsonObject = { type: 'REASONING_MESSAGE_START', messageId: id, role: 'reasoning', ...this.sub(s) };
    // A later message of the block says what it holds, so the decoder keeps it in the same block.
    const ours = summary !== undefined ? { summaryIndex: summary } : s.messages > 1 ? { text: true } : undefined;
    out.push({ data: withMeta(fields, ours) });
    return out;
  }

  private end(s: State, e: Extract<R, { type: 'reasoning-end' }>): WireEvent[] {
    const hints = e.ext?.[AG_UI];
    const out: WireEvent[] = [];
    const entity = s.span ?? s.base;
    const encrypted = this.encrypted(s, e, entity);
    // A message outside a span carries its value before it closes (it is gone after).
    if (s.span === undefined && encrypted) out.push(encrypted);
    if (s.msg !== undefined) out.push({ data: { ...obj(hints?.['messageEnd']), type: 'REASONING_MESSAGE_END', messageId: s.msg.id, ...this.sub(s) } });
    if (s.span !== undefined && encrypted) out.push(encrypted);
    if (s.span !== undefined && hints?.['$spanContinues'] !== true) {
      this.openSpans.delete(s.span);
      out.push({ data: { ...obj(hints?.['spanEnd']), type: 'REASONING_END', messageId: s.span, ...this.sub(s) } });
    }
    return out;
  }

  /** The REASONING_ENCRYPTED_VALUE for the block's opaque state, if it has any. */
  private encrypted(s: State, e: Extract<R, { type: 'reasoning-end' }>, entity: string): WireEvent | undefined {
    const signature = e.signature ?? (s.signature.length > 0 ? s.signature.join('') : undefined);
    const values: [string, string | undefined][] = [
      ['signature', signature],
      ['encryptedContent', e.encryptedContent ?? s.start.encryptedContent],
      ['redactedData', e.redactedData ?? s.start.redactedData],
    ];
    const present = values.filter((v): v is [string, string] => v[1] !== undefined);
    const [first] = present;
    if (first === undefined) return undefined;
    let ours: JsonObject | undefined;
    // AG-UI's own encrypted values are encryptedContent; anything else says which field it is.
    if (s.start.origin !== AG_UI || first[0] !== 'encryptedContent' || present.length > 1) {
      ours = { field: first[0] };
      for (const [field, value] of present.slice(1)) ours[field] = value;
    }
    const extra = obj(e.ext?.[AG_UI]?.['encryptedEvent']) ?? {};
    return { data: withMeta({ ...extra, type: 'REASONING_ENCRYPTED_VALUE', subtype: 'message', entityId: entity, encryptedValue: first[1], ...this.sub(s) }, ours) };
  }
}
