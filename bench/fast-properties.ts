/**
 * Which objects a conversion hands out in V8's slow dictionary mode (not a timing: a structural
 * check). An object goes to dictionary mode when a key other than the last is deleted from it, or
 * when many fields are added to it by keyed stores; every later read of it (the encoders' walks,
 * the loss reports, the caller's JSON.stringify) is then slower. Swept: the canonical value of
 * every decode and the output of every conversion (with and without `preserve`), and that
 * output's own decode (what `preserve`'s read-back check reads), of the bench's
 * 20-message bodies, its responses, and the real captures test/support/samples.ts finds; and the
 * canonical events each stream decoder gives and the data of every wire event written
 * transcoding the bench's generated stream and the stream captures to each stream dialect; and,
 * for every canonical value swept, the AgentCore Memory event of each message with its blobs left
 * objects (as the read-back check builds them before they become JSON text inside the events, so
 * the outputs above never show them).
 *
 *   node --allow-natives-syntax --import tsx bench/fast-properties.ts
 * Prints each slow object's path (indexes as N) with a count; exits 1 when there is any of at most
 * LARGE keys. Larger ones are listed apart and not counted: V8 also makes a dictionary of an object
 * given more than 16 fields by computed keys (a residue copied key by key, a Responses body's
 * fields restored onto it), and the only such objects here are one per body, not per message.
 * Also exits 1 for a path whose objects each take a hidden class of their own (see MANY_MAPS),
 * but those listed in ONCE_PER_BODY.
 */
import { convert, decode } from '../src/index.js';
import type { WireEvent } from '../src/model/stream-event.js';
import type { Message } from '../src/model/message.js';
import { encodeEvent } from '../src/formats/agentcore-memory/event-encode.js';
import { namesFor } from '../src/formats/agentcore-memory/call-names.js';
import { LossList } from '../src/formats/shared/loss-list.js';
import { streamDecoder } from '../src/stream/codecs.js';
import { Transcoder } from '../src/stream/transcode.js';
import { samples } from '../test/support/samples.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../test/support/streams.js';
import { PROVIDERS, requestBodies, responseBodies, SOURCES, TARGETS } from './convert/bodies.js';
import { syntheticWire } from './stream/synthetic.js';

const hasFast = new Function('v', 'return %HasFastProperties(v)') as (v: object) => boolean;
const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
try {
  hasFast({});
} catch {
  console.error('run with node --allow-natives-syntax');
  process.exit(2);
}

/** More keys than V8 keeps in fast mode when they are added by computed keys (4 in the object, 12 outside). */
const LARGE = 16;
const slow = new Map<string, number>();
const large = new Map<string, number>();
let objects = 0;

/**
 * Objects of one path and one key list normally share a few hidden classes (one per site that
 * builds them). A path where they take many (MANY_MAPS or more) has a hidden class per object:
 * V8 makes one for each object built by a spread and then given a key the spread did not copy
 * (`const o = { ...a, ...b }; o.k = v`), and every later read of such objects is megamorphic.
 */
const MANY_MAPS = 10;
/**
 * Paths known to take a hidden class per object, each built once per body or stream (not per
 * message, part or delta), so not worth the copy loop: Gemini tool hints and function-calling
 * config, a Responses body's `reasoning`, the final A2A status's metadata, a Responses stream's
 * message item (once per item), a request's or a response choice's `ext` restored from a stash.
 */
const ONCE_PER_BODY = [
  /\(preserve\) read back(\.choices\.N)?\.ext \{/,
  /tools\.N\.ext\.gemini \{/,
  /\.toolConfig\.functionCallingConfig \{/,
  /-> openai-responses( \(preserve\))?\.reasoning \{/,
  /-> a2a stream (event|end)\.result\.statusUpdate\.metadata \{usage, canonical_type\}$/,
  /-> openai-responses stream event\.item \{id, type, status, content, role\}$/,
];
const shapes = new Map<string, { reps: object[]; n: number }>();
const unshared = new Map<string, number>();
const onceUnshared = new Map<string, number>();

function noteShape(v: object, path: string): void {
  const key = `${path}|${Object.keys(v).join(',')}`;
  let s = shapes.get(key);
  if (s === undefined) shapes.set(key, (s = { reps: [], n: 0 }));
  s.n++;
  if (s.reps.length >= MANY_MAPS || s.reps.some((r) => sameMap(r, v))) return;
  s.reps.push(v);
  const where = `${path} {${Object.keys(v).join(', ')}}`;
  if (s.reps.length === MANY_MAPS) (ONCE_PER_BODY.some((r) => r.test(where)) ? onceUnshared : unshared).set(where, s.n);
}

function walk(v: unknown, path: string, seen: Set<object>): void {
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  objects++;
  if (!Array.isArray(v)) {
    const key = path.replace(/\.\d+(?=\.|$)/g, '.N');
    if (!hasFast(v)) {
      const map = Object.keys(v).length > LARGE ? large : slow;
      map.set(key, (map.get(key) ?? 0) + 1);
    } else noteShape(v, key);
  }
  for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], `${path}.${k}`, seen);
}

type Kind = 'request' | 'response';
/** The bench's request targets, and the agent protocols and AgentCore Memory events. */
const REQUEST_TARGETS = [...TARGETS, 'ag-ui', 'a2a', 'agentcore-memory'];

/** A body as a server gets it: parsed from text (objects from structuredClone take other shapes). */
const fromText = (body: unknown): unknown => JSON.parse(JSON.stringify(body));

/** Each message's AgentCore event with its blobs as objects, with and without `preserve`. */
function sweepBlobObjects(label: string, messages: readonly Message[]): void {
  const calls = new Map<string, string>();
  messages.forEach((m, i) => {
    const names = namesFor(m, calls);
    for (const preserve of [false, true]) {
      walk(encodeEvent(m, ['messages', i], new LossList(), new LossList(), preserve, undefined, 'objects', names), `${label} agentcore-memory event (blobs as objects${preserve ? ', preserve' : ''})`, new Set());
    }
    if (m.role === 'assistant') for (const p of m.parts) if (p.type === 'tool-call') calls.set(p.id, p.name);
  });
}

function sweep(label: string, from: string, body: unknown, kind: Kind, targets: readonly string[]): void {
  try {
    const canonical = decode(fromText(body), { from, kind }).value;
    walk(canonical, `${label} ${from} canonical`, new Set());
    const messages = (canonical as { messages?: Message[] }).messages;
    if (kind === 'request' && Array.isArray(messages)) sweepBlobObjects(`${label} ${from}`, messages);
  } catch {
    return; // not a valid body of the dialect: nothing is handed out
  }
  for (const to of targets) {
    for (const preserve of [false, true]) {
      try {
        const out = convert(fromText(body), { from, to, kind, preserve }).value;
        walk(out, `${label} ${from} -> ${to}${preserve ? ' (preserve)' : ''}`, new Set());
        // What `preserve`'s read-back check decodes: the target's own output.
        walk(decode(fromText(out), { from: to, kind }).value, `${label} ${from} -> ${to}${preserve ? ' (preserve)' : ''} read back`, new Set());
      } catch {
        // a pair the target refuses (strict limits): nothing is handed out
      }
    }
  }
}

for (const images of ['none', 'small'] as const) {
  for (const [from, text] of requestBodies(20, images, SOURCES).text) sweep(`bench ${images}`, from, JSON.parse(text), 'request', REQUEST_TARGETS);
}
for (const [from, text] of responseBodies().text) sweep('bench', from, JSON.parse(text), 'response', PROVIDERS);
let captures = 0;
for (const from of [...SOURCES, 'agentcore-memory']) {
  for (const kind of ['request', 'response'] as const) {
    for (const s of samples(from, kind)) {
      if (s.invalid !== undefined) continue;
      captures++;
      sweep('capture', from, s.body, kind, kind === 'request' ? REQUEST_TARGETS : PROVIDERS);
    }
  }
}

/** Every canonical event `from`'s stream decoder gives, and every wire event a transcode from `from` to each stream dialect writes. */
function sweepStream(label: string, from: string, events: readonly WireEvent[]): void {
  try {
    const decoder = streamDecoder(from);
    const seen = new Set<object>();
    for (const e of events) for (const c of decoder.push(fromText(e) as WireEvent)) walk(c, `${label} ${from} canonical stream event`, seen);
    for (const c of decoder.end()) walk(c, `${label} ${from} canonical stream end`, seen);
  } catch {
    // a stream the decoder refuses: nothing is handed out
  }
  for (const to of STREAM_DIALECTS) {
    try {
      const t = new Transcoder({ from, to });
      const seen = new Set<object>();
      for (const e of events) for (const w of t.push(fromText(e) as WireEvent)) walk(w.data, `${label} ${from} -> ${to} stream event`, seen);
      for (const w of t.end()) walk(w.data, `${label} ${from} -> ${to} stream end`, seen);
    } catch {
      // a stream the decoder refuses: nothing is handed out
    }
  }
}

const STREAM_DIALECTS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini', 'ag-ui', 'a2a'];
let streams = 0;
for (const from of STREAM_DIALECTS) {
  sweepStream('bench', from, syntheticWire(from));
  if (from === 'ag-ui' || from === 'a2a') continue;
  for (const c of [...localStreamCaptures(from as StreamDialect), ...sharedStreamCaptures(from as StreamDialect)]) {
    streams++;
    sweepStream('capture', from, c.events);
  }
}

console.log(`${objects} objects walked (bench bodies, ${captures} captures, bench streams and ${streams} stream captures)`);
for (const [path, n] of [...large].sort((a, b) => b[1] - a[1])) console.log(`large, not counted x${n}: ${path}`);
for (const [path, n] of [...slow].sort((a, b) => b[1] - a[1])) console.log(`slow x${n}: ${path}`);
for (const [path, n] of onceUnshared) console.log(`once per body, not counted: a hidden class per object (${MANY_MAPS} different within the first ${n} of one key list): ${path}`);
for (const [path, n] of unshared) console.log(`a hidden class per object (${MANY_MAPS} different within the first ${n} of one key list): ${path}`);
console.log(slow.size === 0 ? `no object of at most ${LARGE} keys in dictionary mode` : `${slow.size} paths with objects of at most ${LARGE} keys in dictionary mode`);
console.log(unshared.size === 0 ? 'no path whose objects each take their own hidden class' : `${unshared.size} paths whose objects each take their own hidden class`);
process.exit(slow.size === 0 && unshared.size === 0 ? 0 : 1);
