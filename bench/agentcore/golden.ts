/**
 * Output check for agentcore-memory work (not a bench): hashes of the value and losses (or the
 * error) of every agentcore-memory decode and encode this covers, one line per case, so two
 * checkouts can be compared line by line:
 * - the bench's generated conversations (1, 20, 200 messages; no and small images) as events:
 *   decoded, converted to every request dialect, and every source dialect converted to them, with
 *   and without `preserve`;
 * - the events in test/fixtures/agentcore-memory (Camunda vectors, Strands session events);
 * - edits of those events into forms this codec does not write (key order, extra fields, blob
 *   text spelled otherwise, blobs as objects), each decoded and written back;
 * - random messages (test/formats/agentcore-memory/arbitrary.ts, fixed seed) encoded and read back.
 *   npx tsx bench/agentcore/golden.ts > /tmp/a.txt
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { convert, decode, encode, formats } from '../../src/index.js';
import { eventsToMessages, messageToEvent } from '../../src/formats/agentcore-memory/index.js';
import { message as someMessage } from '../../test/formats/agentcore-memory/arbitrary.js';
import { requestBodies, SOURCES } from '../convert/bodies.js';
import type { Images } from '../convert/generate.js';

const MEM = 'agentcore-memory';
const targets = formats().filter((f) => f.kinds.includes('request')).map((f) => f.id as string);
const hash = (...v: unknown[]): string => {
  const h = createHash('sha256');
  for (const x of v) h.update(JSON.stringify(x) ?? 'undefined');
  return h.digest('hex').slice(0, 16);
};
function line(name: string, op: () => unknown[]): void {
  let out: string;
  try {
    out = hash(...op());
  } catch (err) {
    out = `throws ${String(err).slice(0, 160)}`;
  }
  console.log(`${name}: ${out}`);
}

/** Decoded, written back with and without preserve, and to Anthropic (hints off). */
function roundTrips(name: string, body: unknown): void {
  const text = JSON.stringify(body);
  line(`${name} decode`, () => {
    const r = decode(JSON.parse(text), { from: MEM });
    return [r.value, r.losses];
  });
  for (const preserve of [false, true]) {
    line(`${name} -> ${MEM}${preserve ? ' preserve' : ''}`, () => {
      const r = convert(JSON.parse(text), { from: MEM, to: MEM, preserve });
      const back = decode(JSON.parse(JSON.stringify(r.value)), { from: MEM });
      return [r.value, r.losses, back.value, back.losses];
    });
  }
  line(`${name} -> anthropic`, () => {
    const r = convert(JSON.parse(text), { from: MEM, to: 'anthropic-messages' });
    return [r.value, r.losses];
  });
  const events = (body as { events?: unknown[] }).events;
  if (Array.isArray(events)) {
    line(`${name} eventsToMessages`, () => {
      const losses: unknown[] = [];
      const messages = eventsToMessages(JSON.parse(JSON.stringify(events)) as unknown[], { losses: { push: (l: unknown) => void losses.push(l) } as never });
      const again = messages.map((m, i) => messageToEvent(m, { preserve: true, index: i }));
      return [messages, losses, again];
    });
  }
}

type J = Record<string, unknown>;
const isObj = (v: unknown): v is J => typeof v === 'object' && v !== null && !Array.isArray(v);
function collect(v: unknown, events: J[], lists: unknown[][]): void {
  if (Array.isArray(v)) {
    for (const x of v) collect(x, events, lists);
    return;
  }
  if (!isObj(v)) return;
  if (Array.isArray(v['payload'])) events.push(v);
  if (Array.isArray(v['events'])) lists.push(v['events']);
  for (const x of Object.values(v)) collect(x, events, lists);
}
// 3. Events edited into forms other writers give.
function reorder(o: unknown): unknown {
  if (Array.isArray(o)) return o.map(reorder);
  if (!isObj(o)) return o;
  const out: J = {};
  for (const k of Object.keys(o).reverse()) out[k] = reorder(o[k]);
  return out;
}
type Edit = (e: J) => J | undefined;
const blobEdit = (f: (blob: string) => unknown): Edit => (e) => {
  const payload = e['payload'] as unknown[];
  let changed = false;
  const next = payload.map((p) => {
    if (!isObj(p) || typeof p['blob'] !== 'string') return p;
    changed = true;
    return { blob: f(p['blob']) };
  });
  return changed ? { ...e, payload: next } : undefined;
};
const parseOr = (s: string): unknown => {
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
};
const EDITS: Record<string, Edit> = {
  'keys reversed': (e) => reorder(e) as J,
  'extra event field': (e) => ({ ...e, eventId: 'ev-1', branch: { name: 'main' } }),
  'blob text spaced': blobEdit((b) => JSON.stringify(parseOr(b), null, 1)),
  'blob text keys reversed': blobEdit((b) => JSON.stringify(reorder(parseOr(b)))),
  'blob objects': blobEdit((b) => parseOr(b)),
  'blob extra field': blobEdit((b) => {
    const v = parseOr(b);
    return isObj(v) ? JSON.stringify({ ...v, extraField: true }) : b;
  }),
  'metadata added': (e) => ({ ...e, metadata: { ...(isObj(e['metadata']) ? e['metadata'] : {}), topic: { stringValue: 'x' } } }),
  'first payload dropped': (e) => ((e['payload'] as unknown[]).length > 1 ? { ...e, payload: (e['payload'] as unknown[]).slice(1) } : undefined),
  'text unicode escaped': (e) => JSON.parse(JSON.stringify(e).replace(/"text":"([a-z])/g, '"text":"\\u00e9$1')) as J,
};
function variants(name: string, events: readonly unknown[]): void {
  for (const [edit, f] of Object.entries(EDITS)) {
    const out = events.filter(isObj).map((e) => f(JSON.parse(JSON.stringify(e)) as J) ?? e);
    roundTrips(`${name} ${edit}`, { events: out });
    out.slice(0, 40).forEach((e, i) => roundTrips(`${name} ${edit} ${i}`, { events: [e] }));
  }
}

// 1. Generated conversations.
for (const size of [1, 20, 200]) {
  for (const images of ['none', 'small'] as Images[]) {
    const bodies = requestBodies(size, images, SOURCES);
    const anthropic = bodies.text.get('anthropic-messages') as string;
    const eventsText = JSON.stringify(convert(JSON.parse(anthropic), { from: 'anthropic-messages', to: MEM }).value);
    const tag = `${size} ${images}`;
    line(`${tag} decode`, () => {
      const r = decode(JSON.parse(eventsText), { from: MEM });
      return [r.value, r.losses];
    });
    for (const to of targets) {
      for (const preserve of [false, true]) {
        line(`${tag} ${MEM} -> ${to}${preserve ? ' preserve' : ''}`, () => {
          const r = convert(JSON.parse(eventsText), { from: MEM, to, preserve });
          return [r.value, r.losses];
        });
      }
    }
    for (const [from, text] of bodies.text) {
      for (const preserve of [false, true]) {
        line(`${tag} ${from} -> ${MEM}${preserve ? ' preserve' : ''}`, () => {
          const r = convert(JSON.parse(text), { from, to: MEM, preserve });
          return [r.value, r.losses];
        });
      }
    }
    if (size === 20) {
      const canonical = decode(JSON.parse(eventsText), { from: MEM }).value;
      for (const preserve of [false, true]) {
        line(`${tag} encode canonical${preserve ? ' preserve' : ''}`, () => {
          const r = encode(JSON.parse(JSON.stringify(canonical)), { to: MEM, preserve });
          return [r.value, r.losses];
        });
      }
      variants(`${tag} edited`, (JSON.parse(eventsText) as { events: unknown[] }).events);
    }
  }
}

// 2. Fixture events: every object with a payload array, alone, and every events list whole.
for (const file of ['camunda-vectors.json', 'strands-session-events.json']) {
  const data = JSON.parse(readFileSync(new URL(`../../test/fixtures/agentcore-memory/${file}`, import.meta.url), 'utf8')) as unknown;
  const events: J[] = [];
  const lists: unknown[][] = [];
  collect(data, events, lists);
  events.forEach((e, i) => roundTrips(`${file} event ${i}`, { events: [e] }));
  lists.forEach((l, i) => roundTrips(`${file} list ${i}`, { events: l }));
  variants(`${file} edited`, events);
}

// 4. Random messages, fixed seed: one event each, with and without preserve, read back.
const sample = fc.sample(someMessage, { seed: 1313, numRuns: 300 });
sample.forEach((m, i) => {
  for (const preserve of [false, true]) {
    line(`random ${i}${preserve ? ' preserve' : ''}`, () => {
      const r = messageToEvent(JSON.parse(JSON.stringify(m)), { preserve, index: 0 });
      const back = r.event === undefined ? undefined : decode({ events: [JSON.parse(JSON.stringify(r.event))] }, { from: MEM });
      const request = encode({ messages: [JSON.parse(JSON.stringify(m))] } as never, { to: MEM, preserve });
      return [r.event, r.losses, back?.value, back?.losses, request.value, request.losses];
    });
  }
});
