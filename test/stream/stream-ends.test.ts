/**
 * `transcode` as a server uses it: bytes out that `new Response(...)` serves, and a stream that ends
 * badly is always said: a cut stream reports `incomplete-stream` (a LossError under strict), a body
 * that is not the framing is a ValidationError naming what arrived, and a JSON error body of the
 * source dialect (an upstream's 4xx answer to a streaming request) becomes the target's error event.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { LossError, ValidationError } from '../../src/model/errors.js';
import type { JsonValue } from '../../src/model/json.js';
import type { WireEvent } from '../../src/model/stream-event.js';
import { getStreamCodec } from '../../src/formats/registry.js';
import { accumulate } from '../../src/stream/accumulate.js';
import { classifyStart, SNIFF_BYTES } from '../../src/stream/body-start.js';
import { parseEventStream } from '../../src/stream/event-stream.js';
import { parseSse } from '../../src/stream/sse.js';
import { frameWriter } from '../../src/stream/framing.js';
import { transcode, Transcoder } from '../../src/stream/transcode.js';
import { LOCAL_FIXTURES } from '../support/captures.js';
import { rawCaptures, readBack, STREAM_DIALECTS, toBody, transcodeBody } from '../support/raw-streams.js';

const captures = rawCaptures();
const ANTHROPIC = readFileSync(join(LOCAL_FIXTURES, 'streams/anthropic-messages/anthropic-sdk-typescript/basic_response.sse'), 'utf8');
const ANTHROPIC_TEXT = accumulate(readBack('anthropic-messages', new TextEncoder().encode(ANTHROPIC))).response.choices[0]?.message.parts;

/** One capture per source dialect, and its events cut at an event boundary before its end. */
const perDialect = STREAM_DIALECTS.map((d) => {
  const c = captures.find((x) => x.dialect === d);
  if (c === undefined) throw new Error(`no whole capture of ${d}`);
  return c;
});

async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected the stream to fail');
}

describe('transcode gives bytes a fetch Response serves', () => {
  it('has a whole capture of every stream dialect', () => {
    expect(perDialect.map((c) => c.dialect)).toEqual(STREAM_DIALECTS);
  });

  it.each(STREAM_DIALECTS)('-> %s: Response(readable.pipeThrough(transcode)).text() / arrayBuffer()', async (to) => {
    const upstream = new Response(ANTHROPIC).body as ReadableStream<Uint8Array>;
    const served = new Response(upstream.pipeThrough(transcode({ from: 'anthropic-messages', to })));
    const framing = getStreamCodec(to).framing;
    const bytes = framing === 'sse' ? new TextEncoder().encode(await served.text()) : new Uint8Array(await served.arrayBuffer());
    const wire = framing === 'sse' ? parseSse(new TextDecoder().decode(bytes)) : parseEventStream(bytes);
    expect(wire.length).toBeGreaterThan(2);
    const back = accumulate(readBack(to, bytes));
    expect(back.complete).toBe(true);
    const text = (back.response.choices[0]?.message.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
    expect(text).toBe((ANTHROPIC_TEXT ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join(''));
  });

  it.each(STREAM_DIALECTS)('-> %s: one chunk out per chunk in, holding the frames of every event it completed', async (to) => {
    // Two chunks in, each completing several events: out come at most two chunks (and the end's),
    // whose bytes are the frames the transcoder writes event by event, in order. Chat and Responses
    // chunks carry the current second when the source has none: the clock is held still.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.UTC(2026, 10, 28) });
    onTestFinished(() => void vi.useRealTimers());
    const body = new TextEncoder().encode(ANTHROPIC);
    const half = Math.floor(body.length / 2);
    const pieces = [body.subarray(0, half), body.subarray(half)];
    const upstream = new ReadableStream<Uint8Array>({
      start(c) {
        for (const p of pieces) c.enqueue(p);
        c.close();
      },
    });
    const reader = upstream.pipeThrough(transcode({ from: 'anthropic-messages', to })).getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    const t = new Transcoder({ from: 'anthropic-messages', to });
    const write = frameWriter(getStreamCodec(to).framing);
    const frames: Uint8Array[] = [];
    const add = (w: WireEvent): void => void frames.push(Buffer.from(write(w)));
    for (const e of parseSse(ANTHROPIC)) for (const w of t.push(e)) add(w);
    for (const w of t.end()) add(w);
    expect(frames.length).toBeGreaterThan(pieces.length + 1);
    expect(chunks.length).toBeLessThanOrEqual(pieces.length + 1);
    expect(Buffer.concat(chunks).equals(Buffer.concat(frames))).toBe(true);
  });

  it('every chunk it emits is a Uint8Array, for string input too', async () => {
    for (const to of STREAM_DIALECTS) {
      const reader = new Response(ANTHROPIC).body!.pipeThrough(new TextDecoderStream()).pipeThrough(transcode({ from: 'anthropic-messages', to })).getReader();
      for (let r = await reader.read(); !r.done; r = await reader.read()) expect(r.value).toBeInstanceOf(Uint8Array);
    }
  });
});

describe('a stream cut at an event boundary reports incomplete-stream', () => {
  describe.each(perDialect.map((c) => [c.dialect, c] as const))('from %s', (_from, c) => {
    // Everything up to (not including) the event that carries the end: half of the events.
    const cut = toBody(c.dialect, c.events.slice(0, Math.max(1, Math.floor(c.events.length / 2))));

    it.each(STREAM_DIALECTS)('-> %s: output, then the loss at the end', async (to) => {
      const { bytes, losses } = await transcodeBody(cut, { from: c.dialect, to });
      expect(losses.map((l) => l.code)).toContain('incomplete-stream');
      expect(losses.at(-1)).toMatchObject({ code: 'incomplete-stream', action: 'approximated', message: expect.stringContaining('ended before its end event') as unknown });
      expect(accumulate(readBack(to, bytes)).complete).toBe(false);
    });

    it('-> every target under strict: a LossError', async () => {
      for (const to of STREAM_DIALECTS) {
        const e = await rejection(transcodeBody(cut, { from: c.dialect, to, strict: true }));
        expect(e).toBeInstanceOf(LossError);
      }
    });

    it('the whole capture reports no incomplete-stream', async () => {
      const { losses } = await transcodeBody(toBody(c.dialect, c.events), { from: c.dialect, to: c.dialect });
      expect(losses.map((l) => l.code)).not.toContain('incomplete-stream');
    });
  });
});

describe('an empty or blank body is a stream without its end', () => {
  it.each(STREAM_DIALECTS)('from %s: incomplete-stream into every target, a LossError under strict', async (from) => {
    for (const to of STREAM_DIALECTS) {
      for (const body of ['', '\n\n', ': keepalive\n\n']) {
        if (body.startsWith(':') && getStreamCodec(from).framing !== 'sse') continue;
        const { losses } = await transcodeBody(body, { from, to });
        expect(losses.map((l) => l.code), `${from} -> ${to} ${JSON.stringify(body)}`).toEqual(['incomplete-stream']);
        expect(await rejection(transcodeBody(body, { from, to, strict: true }))).toBeInstanceOf(LossError);
      }
    }
  });
});

describe('a body that is not the framing is a ValidationError naming what arrived', () => {
  const cases: [string, string, RegExp][] = [
    ['openai-chat', 'Internal Server Error', /^expected SSE `data:` lines, received plain text \("Internal Server Error"\)$/],
    ['anthropic-messages', '<html><body><h1>502 Bad Gateway</h1></body></html>\r\n', /^expected SSE `data:` lines, received plain text \("<html>/],
    ['gemini', 'upstream connect error or disconnect/reset before headers. reset reason: overflow', /^expected SSE `data:` lines, received plain text \("upstream connect error or disconnect\/res\.\.\."\)$/],
    ['openai-chat', '{"id":"chatcmpl-1","object":"chat.completion","choices":[]}', /^expected SSE `data:` lines, received a JSON object \(keys: id, object, choices\)$/],
    ['gemini', '[{"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}]', /^expected SSE `data:` lines, received a JSON array of 1 item$/],
    ['ag-ui', '{"error":{"message":"nope"}}', /^expected SSE `data:` lines, received a JSON object \(keys: error\)$/],
    ['anthropic-messages', '{"type":"error","error":', /^expected SSE `data:` lines, received text that starts like JSON but is not JSON/],
    ['bedrock-converse', 'Service Unavailable', /^expected AWS event-stream messages, received plain text \("Service Unavailable"\)$/],
    ['bedrock-converse', 'event: messageStart\ndata: {"role":"assistant"}\n\n', /^expected AWS event-stream messages, received SSE text/],
    ['bedrock-converse', '{"output":{"message":{"role":"assistant","content":[]}}}', /^expected AWS event-stream messages, received a JSON object \(keys: output\)$/],
  ];

  it.each(cases)('from %s: %j', async (from, body, message) => {
    for (const to of STREAM_DIALECTS) {
      for (const cuts of [[], [1], [3, 9]]) {
        const e = await rejection(transcodeBody(body, { from, to }, cuts));
        expect(e).toBeInstanceOf(ValidationError);
        expect((e as ValidationError).issues[0]?.message).toMatch(message);
        expect((e as ValidationError).issues[0]?.code).toBe('not_a_stream');
      }
    }
  });

  it('binary bytes into an SSE dialect are named as bytes', async () => {
    const e = await rejection(transcodeBody(new Uint8Array([0, 0, 0, 0x40, 0, 0, 0, 0x20, 1, 2, 3, 4]), { from: 'openai-chat', to: 'gemini' }));
    expect((e as ValidationError).issues[0]?.message).toMatch(/^expected SSE `data:` lines, received bytes that are not text \(00 00 00 40/);
  });

  it('JSON lines where the framing should be are named, with how to read them', async () => {
    const lines = perDialect[0]!.events.map((e) => JSON.stringify(e.data)).join('\n');
    const e = await rejection(transcodeBody(lines, { from: perDialect[0]!.dialect, to: 'openai-chat' }));
    expect((e as ValidationError).issues[0]?.message).toBe('expected SSE `data:` lines, received JSON lines (read them with `lines: true`)');
    const { losses } = await transcodeBody(lines, { from: perDialect[0]!.dialect, to: 'openai-chat', lines: true });
    expect(losses.map((l) => l.code)).not.toContain('incomplete-stream');
  });

  it('no start of a real stream of any dialect is taken for something else, however short the first chunk', () => {
    for (const c of captures) {
      const framing = getStreamCodec(c.dialect).framing;
      const body = toBody(c.dialect, c.events);
      for (let n = 0; n <= SNIFF_BYTES + 16 && n <= body.length; n++) {
        const head = body.subarray(0, n);
        expect([undefined, 'framing'], `${c.name} first ${n} bytes`).toContain(classifyStart(head, framing, false)?.kind);
        // Cut there for good: an empty stream or a stream, never 'not a stream'.
        expect(['framing', 'empty'], `${c.name} cut at ${n}`).toContain(classifyStart(head, framing, true)?.kind);
      }
    }
  });

  it('an SSE stream that starts with a comment, a BOM or blank lines is read as one', async () => {
    const bom = `\uFEFF\r\n: hello\n${ANTHROPIC}`;
    const { bytes, losses } = await transcodeBody(bom, { from: 'anthropic-messages', to: 'openai-chat' }, [1, 2, 5]);
    expect(losses.map((l) => l.code)).not.toContain('incomplete-stream');
    expect(accumulate(readBack('openai-chat', bytes)).complete).toBe(true);
  });
});

/** A real (or documented) error body each provider dialect answers a failed streaming request with. */
const ERROR_BODIES: { from: string; status: number; body: JsonValue; headers?: Record<string, string>; message: RegExp; type?: string }[] = [
  {
    from: 'anthropic-messages',
    status: 529,
    body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    message: /^Overloaded$/,
    type: 'overloaded_error',
  },
  {
    from: 'openai-chat',
    status: 400,
    body: JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'streams/openai-chat/reasoning-model-legacy-parameter-error.body.txt'), 'utf8')) as JsonValue,
    message: /^Unsupported parameter: 'max_tokens'/,
    type: 'invalid_request_error',
  },
  {
    from: 'openai-responses',
    status: 400,
    body: JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'streams/openai-chat/reasoning-model-legacy-parameter-error.body.txt'), 'utf8')) as JsonValue,
    message: /^Unsupported parameter: 'max_tokens'/,
  },
  {
    from: 'gemini',
    status: 404,
    body: JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'gemini/errors/not-found-404.json'), 'utf8')) as JsonValue,
    message: /^models\/custom-gemini-2.0-flash is not found/,
    type: 'NOT_FOUND',
  },
  {
    from: 'bedrock-converse',
    status: 400,
    body: JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'bedrock-converse/errors/invalid-model-400.json'), 'utf8')) as JsonValue,
    headers: { 'x-amzn-errortype': 'ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/' },
    message: /^The provided model identifier is invalid\.$/,
    type: 'ValidationException',
  },
];

describe("a JSON error body of the source dialect becomes the target's error event", () => {
  describe.each(ERROR_BODIES.map((b) => [b.from, b] as const))('from %s', (_from, b) => {
    const text = JSON.stringify(b.body, null, 2);

    it.each(STREAM_DIALECTS)('-> %s', async (to) => {
      const headers = b.headers === undefined ? {} : { headers: new Headers(b.headers) };
      const { bytes, losses } = await transcodeBody(text, { from: b.from, to, status: b.status, ...headers }, [1, 7]);
      expect(losses.map((l) => l.code)).not.toContain('incomplete-stream');
      const back = readBack(to, bytes);
      const error = back.find((e) => e.type === 'error');
      expect(error, `${b.from} -> ${to}`).toBeDefined();
      if (error?.type !== 'error') return;
      expect(error.error.message).toMatch(b.message);
      // Into its own dialect the error keeps its type (Bedrock's stream names it lowerCamel: validationException).
      if (to === b.from && b.type !== undefined) expect(String(error.error.type ?? error.error.code).toLowerCase()).toBe(b.type.toLowerCase());
      expect(accumulate(back).error?.message).toMatch(b.message);
    });

    it('under strict: still the error event (a failure passed on is not a loss of the stream)', async () => {
      const { bytes } = await transcodeBody(text, { from: b.from, to: 'anthropic-messages', status: b.status, strict: true }).catch((e: unknown) => {
        // A target that must approximate the error's type under strict says so as a LossError, never silently.
        expect(e).toBeInstanceOf(LossError);
        return { bytes: new Uint8Array(0) };
      });
      if (bytes.length > 0) expect(readBack('anthropic-messages', bytes).some((e) => e.type === 'error')).toBe(true);
    });
  });

  it('a JSON object that is not the source dialect\'s error is named, not passed on', async () => {
    const e = await rejection(transcodeBody('{"status":"ok"}', { from: 'anthropic-messages', to: 'openai-chat', status: 200 }));
    expect((e as ValidationError).issues[0]?.message).toBe('expected SSE `data:` lines, received a JSON object (keys: status)');
  });
});
