/**
 * Which objects a conversion hands out in V8's slow dictionary mode (not a timing: a structural
 * check). An object goes to dictionary mode when a key other than the last is deleted from it, or
 * when many fields are added to it by keyed stores; every later read of it (the encoders' walks,
 * the loss reports, the caller's JSON.stringify) is then slower. Swept: the canonical value of
 * every decode and the output of every conversion (with and without `preserve`) of the bench's
 * 20-message bodies, its responses, and the real captures test/support/samples.ts finds; and the
 * data of every wire event written transcoding the bench's generated stream and the stream
 * captures to each stream dialect.
 *
 *   node --allow-natives-syntax --import tsx bench/fast-properties.ts
 * Prints each slow object's path (indexes as N) with a count; exits 1 when there is any of at most
 * LARGE keys. Larger ones are listed apart and not counted: V8 also makes a dictionary of an object
 * given more than 16 fields by computed keys (a residue copied key by key, a Responses body's
 * fields restored onto it), and the only such objects here are one per body, not per message.
 */
import { convert, decode } from '../src/index.js';
import type { WireEvent } from '../src/model/stream-event.js';
import { Transcoder } from '../src/stream/transcode.js';
import { samples } from '../test/support/samples.js';
import { localStreamCaptures, sharedStreamCaptures, type StreamDialect } from '../test/support/streams.js';
import { PROVIDERS, requestBodies, responseBodies, SOURCES, TARGETS } from './convert/bodies.js';
import { syntheticWire } from './stream/synthetic.js';

const hasFast = new Function('v', 'return %HasFastProperties(v)') as (v: object) => boolean;
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

function walk(v: unknown, path: string, seen: Set<object>): void {
  if (v === null || typeof v !== 'object' || seen.has(v)) return;
  seen.add(v);
  objects++;
  if (!Array.isArray(v) && !hasFast(v)) {
    const key = path.replace(/\.\d+(?=\.|$)/g, '.N');
    const map = Object.keys(v).length > LARGE ? large : slow;
    map.set(key, (map.get(key) ?? 0) + 1);
  }
  for (const k of Object.keys(v)) walk((v as Record<string, unknown>)[k], `${path}.${k}`, seen);
}

type Kind = 'request' | 'response';
/** The bench's request targets, and the agent protocols and AgentCore Memory events. */
const REQUEST_TARGETS = [...TARGETS, 'ag-ui', 'a2a', 'agentcore-memory'];

/** A body as a server gets it: parsed from text (objects from structuredClone take other shapes). */
const fromText = (body: unknown): unknown => JSON.parse(JSON.stringify(body));

function sweep(label: string, from: string, body: unknown, kind: Kind, targets: readonly string[]): void {
  try {
    walk(decode(fromText(body), { from, kind }).value, `${label} ${from} canonical`, new Set());
  } catch {
    return; // not a valid body of the dialect: nothing is handed out
  }
  for (const to of targets) {
    for (const preserve of [false, true]) {
      try {
        walk(convert(fromText(body), { from, to, kind, preserve }).value, `${label} ${from} -> ${to}${preserve ? ' (preserve)' : ''}`, new Set());
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

/** Every wire event a transcode from `from` to each stream dialect writes. */
function sweepStream(label: string, from: string, events: readonly WireEvent[]): void {
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
console.log(slow.size === 0 ? `no object of at most ${LARGE} keys in dictionary mode` : `${slow.size} paths with objects of at most ${LARGE} keys in dictionary mode`);
process.exit(slow.size === 0 ? 0 : 1);
