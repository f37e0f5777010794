/**
 * What the platform's own JSON work costs on this Node (not a bench of the converter): the figures
 * behind docs/performance.md "Thirteenth session", which weigh two structural fixes against V8's
 * native JSON.parse and JSON.stringify.
 *   npx tsx bench/convert/native-costs.ts
 * 1. A conversion's output written as JSON text by JS (string concatenation, strings through the
 *    stream encoders' `jsonString`) against JSON.stringify of its objects: chat -> anthropic requests.
 * 2. The tool-call arguments of the 200-message Chat body: JSON.parse of each text, one JSON.parse of
 *    all of them joined in an array, and a small JS parser (objects, arrays, strings without escapes,
 *    integers and literals; anything else goes to JSON.parse).
 * 3. JSON.parse by what it builds: a number, a short string, a one-key object.
 * 4. An ~85-byte ASCII event payload into a Uint8Array: Buffer#write against a JS loop.
 * CPU time per call, the best of 5 slices (timing.ts `cpu`). Every JS variant is first checked to
 * give what the native one gives.
 */
import { jsonString } from '../../src/formats/shared/stream-written.js';
import { convert } from '../../src/index.js';
import { requestBodies } from './bodies.js';
import { cpu, sink } from './timing.js';

/** JSON.stringify of plain JSON data, written by JS. */
function writeJson(v: unknown): string {
  if (typeof v === 'string') return jsonString(v);
  if (typeof v !== 'object' || v === null) return String(v);
  if (Array.isArray(v)) {
    let out = '[';
    for (let i = 0; i < v.length; i++) out += (i > 0 ? ',' : '') + writeJson(v[i]);
    return `${out}]`;
  }
  let out = '{';
  let first = true;
  for (const key in v) {
    const x = (v as Record<string, unknown>)[key];
    if (x === undefined) continue;
    out += `${first ? '' : ','}${jsonString(key)}:${writeJson(x)}`;
    first = false;
  }
  return `${out}}`;
}

/** A JSON subset read by JS; `undefined` for anything outside it (the caller takes JSON.parse). */
class SmallParser {
  private i = 0;
  constructor(private readonly t: string) {}

  static parse(text: string): unknown {
    const p = new SmallParser(text);
    const v = p.value();
    return v !== undefined && p.i === text.length ? v : JSON.parse(text);
  }

  private value(): unknown {
    const c = this.t.charCodeAt(this.i);
    if (c === 0x22) return this.string();
    if (c === 0x7b) return this.object();
    if (c === 0x5b) return this.array();
    if (c === 0x74) return this.word('true', true);
    if (c === 0x66) return this.word('false', false);
    if (c === 0x6e) return this.word('null', null);
    return this.integer();
  }

  private word(text: string, v: boolean | null): boolean | null | undefined {
    if (!this.t.startsWith(text, this.i)) return undefined;
    this.i += text.length;
    return v;
  }

  private string(): string | undefined {
    const start = ++this.i;
    for (let c = this.t.charCodeAt(this.i); c !== 0x22; c = this.t.charCodeAt(++this.i)) {
      if (c === 0x5c || c < 0x20 || Number.isNaN(c)) return undefined;
    }
    return this.t.slice(start, this.i++);
  }

  private integer(): number | undefined {
    const start = this.i;
    if (this.t.charCodeAt(this.i) === 0x2d) this.i++;
    const first = this.t.charCodeAt(this.i);
    if (first < 0x30 || first > 0x39 || (first === 0x30 && this.i + 1 < this.t.length && this.t.charCodeAt(this.i + 1) >= 0x30 && this.t.charCodeAt(this.i + 1) <= 0x39)) return undefined;
    while (this.t.charCodeAt(this.i) >= 0x30 && this.t.charCodeAt(this.i) <= 0x39) this.i++;
    const next = this.t.charCodeAt(this.i);
    return next === 0x2e || next === 0x65 || next === 0x45 ? undefined : Number(this.t.slice(start, this.i));
  }

  private object(): Record<string, unknown> | undefined {
    const out: Record<string, unknown> = {};
    if (this.t.charCodeAt(++this.i) === 0x7d) {
      this.i++;
      return out;
    }
    for (;;) {
      if (this.t.charCodeAt(this.i) !== 0x22) return undefined;
      const key = this.string();
      if (key === undefined || key === '__proto__' || this.t.charCodeAt(this.i++) !== 0x3a) return undefined;
      const v = this.value();
      if (v === undefined) return undefined;
      out[key] = v;
      const c = this.t.charCodeAt(this.i++);
      if (c === 0x7d) return out;
      if (c !== 0x2c) return undefined;
    }
  }

  private array(): unknown[] | undefined {
    const out: unknown[] = [];
    if (this.t.charCodeAt(++this.i) === 0x5d) {
      this.i++;
      return out;
    }
    for (;;) {
      const v = this.value();
      if (v === undefined) return undefined;
      out.push(v);
      const c = this.t.charCodeAt(this.i++);
      if (c === 0x5d) return out;
      if (c !== 0x2c) return undefined;
    }
  }
}

const ms = (us: number): string => (us / 1000).toFixed(3);
const ns = (us: number, per: number): string => ((us * 1000) / per).toFixed(0);

console.log(`node ${process.version}; CPU time per call, best of 5 slices\n`);

const writing: Record<string, Record<string, string>> = {};
for (const n of [20, 200, 2000]) {
  const text = requestBodies(n, 'none', ['openai-chat']).text.get('openai-chat') as string;
  const out = convert(JSON.parse(text), { from: 'openai-chat', to: 'anthropic-messages' }).value;
  if (writeJson(out) !== JSON.stringify(out)) throw new Error('the JS writer differs from JSON.stringify');
  const native = cpu(() => void (sink.n += JSON.stringify(out).length));
  // charCodeAt in the middle flattens the concatenation, as writing it to a socket would.
  const js = cpu(() => {
    const s = writeJson(out);
    sink.n += s.charCodeAt(s.length >> 1);
  });
  writing[`${n} msgs`] = { 'JSON.stringify ms': ms(native), 'JS writer ms': ms(js), 'JS / native': (js / native).toFixed(2) };
}
console.log('1. A chat -> anthropic output written as text');
console.table(writing);

const chat = JSON.parse(requestBodies(200, 'none', ['openai-chat']).text.get('openai-chat') as string) as { messages: { tool_calls?: { function: { arguments: string } }[] }[] };
const args = chat.messages.flatMap((m) => (m.tool_calls ?? []).map((c) => c.function.arguments));
for (const a of args) if (JSON.stringify(SmallParser.parse(a)) !== JSON.stringify(JSON.parse(a))) throw new Error(`the JS parser reads ${a} otherwise`);
const chars = args.reduce((sum, a) => sum + a.length, 0) / args.length;
const each = cpu(() => {
  for (const a of args) sink.n += JSON.parse(a) === null ? 0 : 1;
});
const joined = cpu(() => {
  let all = '[';
  for (let i = 0; i < args.length; i++) all += (i > 0 ? ',' : '') + args[i];
  sink.n += (JSON.parse(`${all}]`) as unknown[]).length;
});
const small = cpu(() => {
  for (const a of args) sink.n += SmallParser.parse(a) === null ? 0 : 1;
});
console.log(`\n2. ${args.length} tool-call arguments texts (${chars.toFixed(0)} characters on average), ns per text`);
console.table({ 'JSON.parse each': ns(each, args.length), 'JSON.parse of all joined': ns(joined, args.length), 'JS parser': ns(small, args.length) });

const kinds: Record<string, string> = {};
for (const t of ['12', '"hello"', '{"a":1}']) kinds[t] = ns(cpu(() => {
  for (let i = 0; i < 1000; i++) sink.n += JSON.parse(t) === null ? 0 : 1;
}), 1000);
console.log('\n3. JSON.parse, ns per call');
console.table(kinds);

const slab = new Uint8Array(16 * 1024);
const slabText = Buffer.from(slab.buffer);
const payloads = Array.from({ length: 64 }, (_, i) => JSON.stringify({ contentBlockIndex: 0, delta: { text: `${'word '.repeat(3 + (i % 10))}${i}` } }));
function writeAscii(s: string, at: number): number {
  for (let j = 0; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c >= 0x80) return slabText.write(s, at);
    slab[at + j] = c;
  }
  return s.length;
}
for (const p of payloads) if (writeAscii(p, 0) !== slabText.write(p, 8000) || !slab.subarray(0, p.length).every((b, k) => b === slab[8000 + k])) throw new Error('the JS loop writes otherwise');
const bufferWrite = cpu(() => {
  for (let i = 0; i < 1000; i++) sink.n += slabText.write(payloads[i & 63] as string, (i & 7) * 1000);
});
const jsLoop = cpu(() => {
  for (let i = 0; i < 1000; i++) sink.n += writeAscii(payloads[i & 63] as string, (i & 7) * 1000);
});
console.log(`\n4. An event payload (${(payloads.reduce((s, p) => s + p.length, 0) / payloads.length).toFixed(0)} bytes on average) into a Uint8Array, ns per payload`);
console.table({ 'Buffer#write': ns(bufferWrite, 1000), 'JS loop': ns(jsLoop, 1000) });
