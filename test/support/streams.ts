/**
 * Stream captures of each provider dialect as wire events, from every layout the corpus holds:
 * - `*.chunks.txt` (vercel/ai): one JSON payload per line (Bedrock: `{"<eventType>": payload}`);
 * - `*.sse` (verbatim SSE text) and agentgateway's `response/<provider>/stream*.json` (SSE text too);
 * - `*.eventstream.jsonl` (decoded Bedrock frames `{headers, payload}`) and `*.bin` (raw bytes);
 * - js-genai recordings of `:streamGenerateContent` (one chunk per response body segment).
 * Read from ../shared/fixtures (when present) and from test/fixtures/streams/<dialect>/ (always).
 */
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { JsonObject, JsonValue } from '../../src/model/json.js';
import type { WireEvent } from '../../src/model/stream-event.js';
import { parseEventStream } from '../../src/stream/event-stream.js';
import { parseSse } from '../../src/stream/sse.js';
import { hasSharedFixtures, listFiles, LOCAL_FIXTURES, SHARED_FIXTURES } from './captures.js';

export type StreamDialect = 'anthropic-messages' | 'openai-chat' | 'openai-responses' | 'bedrock-converse' | 'gemini';

export interface StreamCapture {
  /** Where it came from, relative to its root, prefixed `shared:` or `local:`. */
  name: string;
  events: WireEvent[];
}

/** The corpus folder of each dialect and its agentgateway provider folders. */
const LAYOUT: Record<StreamDialect, { dir: string; agentgateway: string[] }> = {
  'anthropic-messages': { dir: 'anthropic-messages', agentgateway: ['anthropic'] },
  'openai-chat': { dir: 'openai-chat', agentgateway: ['completions'] },
  'openai-responses': { dir: 'openai-responses', agentgateway: ['responses'] },
  'bedrock-converse': { dir: 'bedrock-converse', agentgateway: ['bedrock'] },
  gemini: { dir: 'gemini-generatecontent', agentgateway: ['vertex-gemini'] },
};

const SUFFIXES = ['.chunks.txt', '.sse', '.eventstream.jsonl', '.bin'];

/** Wire events of one capture file, by its layout. */
export function readStreamFile(file: string, dialect: StreamDialect): WireEvent[] {
  const name = basename(file);
  if (name.endsWith('.bin')) return parseEventStream(new Uint8Array(readFileSync(file)));
  const text = readFileSync(file, 'utf8');
  if (name.endsWith('.sse') || name.endsWith('.json')) return parseSse(text);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (name.endsWith('.eventstream.jsonl')) {
    return lines.map((l) => {
      const { headers, payload } = JSON.parse(l) as { headers: Record<string, string>; payload: JsonValue };
      return headers[':message-type'] === 'exception'
        ? { event: headers[':exception-type'] ?? '', data: payload, exception: true }
        : { event: headers[':event-type'] ?? '', data: payload };
    });
  }
  return lines.map((l) => {
    const data = JSON.parse(l) as JsonValue;
    if (dialect !== 'bedrock-converse') return { data };
    const [event, payload] = Object.entries(data as JsonObject)[0] ?? ['', {}];
    return { event, data: payload as JsonValue };
  });
}

/** js-genai recordings whose request streamed: each interaction's body segments are the chunks. */
function geminiRecordings(root: string): StreamCapture[] {
  const out: StreamCapture[] = [];
  for (const file of listFiles(join(root, 'gemini-generatecontent/http-exchanges'), ['.json'])) {
    const rec = JSON.parse(readFileSync(file, 'utf8')) as { interactions?: { request?: { url?: string }; response?: { bodySegments?: JsonValue[] } }[] };
    (rec.interactions ?? []).forEach((it, i) => {
      if (!String(it.request?.url ?? '').includes(':streamGenerateContent')) return;
      const segments = it.response?.bodySegments ?? [];
      if (segments.length === 0) return;
      out.push({ name: `shared:${relative(root, file)}#${i}`, events: segments.map((data) => ({ data })) });
    });
  }
  return out;
}

/** Every stream capture of `dialect` in ../shared/fixtures ([] when it is absent). */
export function sharedStreamCaptures(dialect: StreamDialect): StreamCapture[] {
  if (!hasSharedFixtures()) return [];
  const { dir, agentgateway } = LAYOUT[dialect];
  const files = ['stream', 'stream-raw-sse', 'stream-decoded'].flatMap((d) => listFiles(join(SHARED_FIXTURES, dir, d), SUFFIXES));
  for (const p of agentgateway) {
    const folder = join(SHARED_FIXTURES, 'conversion/agentgateway/response', p);
    files.push(...listFiles(folder, ['.bin', '.json']).filter((f) => f.endsWith('.bin') || basename(f).startsWith('stream')));
  }
  const out = files.map((f) => ({ name: `shared:${relative(SHARED_FIXTURES, f)}`, events: readStreamFile(f, dialect) }));
  if (dialect === 'gemini') out.push(...geminiRecordings(SHARED_FIXTURES));
  return out;
}

/** The captures copied into test/fixtures/streams/<dialect>/ (any of the layouts above). */
export function localStreamCaptures(dialect: StreamDialect): StreamCapture[] {
  const root = join(LOCAL_FIXTURES, 'streams', dialect);
  return listFiles(root, [...SUFFIXES, '.json']).map((f) => ({ name: `local:${relative(root, f)}`, events: readStreamFile(f, dialect) }));
}
