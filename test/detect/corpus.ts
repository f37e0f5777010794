/**
 * Every capture whose dialect and kind are known from where it was recorded, as the raw input a
 * user would paste (file text or bytes; a parsed body for exchange bodies), for the detection
 * sweep. The label comes from the folder or the URL the exchange was sent to, never from its shape.
 * Bodies the dialect's own codec refuses (error envelopes, vectors invalid on purpose) are kept
 * apart: detection cannot name a dialect its codec refuses.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import type { DetectedKind } from '../../src/detect/index.js';
import type { FormatId } from '../../src/model/format-id.js';
import { hasSharedFixtures, listFiles, LOCAL_FIXTURES, readExchanges, SHARED_FIXTURES } from '../support/captures.js';
import { samples, SAMPLED_FORMATS } from '../support/samples.js';
import { sharedStreamCaptures, type StreamDialect } from '../support/streams.js';
import { streamCaptures as agUiStreams } from '../formats/ag-ui/helpers.js';

export interface Labeled {
  name: string;
  format: FormatId;
  kind: DetectedKind;
  /** What detect() is given: text or bytes of a file, or a parsed body. */
  input: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Local exchange URLs -> dialect (the same endpoints samples.ts classifies the shared ones by). */
const ENDPOINTS: [RegExp, FormatId][] = [
  [/\/v1\/messages(\?|$)/, 'anthropic-messages'],
  [/\/chat\/completions(\?|$)/, 'openai-chat'],
  [/\/responses(\?|$)/, 'openai-responses'],
  [/\/model\/[^/]+\/converse(\?|$)/, 'bedrock-converse'],
  [/:generateContent(\?|$)/, 'gemini'],
];

/** Where stream captures of each provider dialect are kept locally. */
const STREAM_DIALECTS: StreamDialect[] = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini'];
const STREAM_SUFFIXES = ['.chunks.txt', '.sse', '.eventstream.jsonl', '.bin', '.json'];
const STREAM_DIRS: Record<StreamDialect, string> = {
  'anthropic-messages': 'anthropic-messages',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  'bedrock-converse': 'bedrock-converse',
  gemini: 'gemini-generatecontent',
};
const AGENTGATEWAY: Record<StreamDialect, string> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'completions',
  'openai-responses': 'responses',
  'bedrock-converse': 'bedrock',
  gemini: 'vertex-gemini',
};

function rawFile(file: string): unknown {
  return file.endsWith('.bin') ? new Uint8Array(readFileSync(file)) : readFileSync(file, 'utf8');
}

function streamFiles(): Labeled[] {
  const out: Labeled[] = [];
  for (const dialect of STREAM_DIALECTS) {
    const local = join(LOCAL_FIXTURES, 'streams', dialect);
    for (const f of listFiles(local, STREAM_SUFFIXES)) {
      if (f.endsWith('.body.txt')) continue;
      out.push({ name: `local:streams/${dialect}/${relative(local, f)}`, format: dialect, kind: 'stream', input: rawFile(f) });
    }
    const agLocal = join(LOCAL_FIXTURES, 'conversion/agentgateway/response', AGENTGATEWAY[dialect]);
    for (const f of listFiles(agLocal, ['.bin', '.json']).filter((f) => f.endsWith('.bin') || basename(f).startsWith('stream'))) {
      out.push({ name: `local:${relative(LOCAL_FIXTURES, f)}`, format: dialect, kind: 'stream', input: rawFile(f) });
    }
    if (!hasSharedFixtures()) continue;
    const dir = STREAM_DIRS[dialect];
    const files = ['stream', 'stream-raw-sse', 'stream-decoded'].flatMap((d) => listFiles(join(SHARED_FIXTURES, dir, d), STREAM_SUFFIXES));
    const ag = join(SHARED_FIXTURES, 'conversion/agentgateway/response', AGENTGATEWAY[dialect]);
    files.push(...listFiles(ag, ['.bin', '.json']).filter((f) => f.endsWith('.bin') || basename(f).startsWith('stream')));
    for (const f of files) out.push({ name: `shared:${relative(SHARED_FIXTURES, f)}`, format: dialect, kind: 'stream', input: rawFile(f) });
    // js-genai recordings: each response body segment is one chunk; pasted as JSON lines.
    for (const c of sharedStreamCaptures(dialect).filter((c) => c.name.includes('http-exchanges'))) {
      out.push({ name: c.name, format: dialect, kind: 'stream', input: c.events.map((e) => JSON.stringify(e.data)).join('\n') });
    }
  }
  const ag = agUiStreams();
  for (const c of [...ag.local, ...ag.shared]) out.push({ name: c.name, format: 'ag-ui', kind: 'stream', input: c.events });
  const a2aDirs: [string, string][] = [['local', join(LOCAL_FIXTURES, 'a2a/streams')]];
  for (const [tag, dir] of a2aDirs) for (const f of listFiles(dir, ['.sse'])) out.push({ name: `${tag}:a2a/${basename(f)}`, format: 'a2a', kind: 'stream', input: rawFile(f) });
  return out;
}

/** Bodies of the local exchanges and bare request/response files under test/fixtures/<dialect>/. */
function localBodies(): Labeled[] {
  const out: Labeled[] = [];
  for (const [, format] of ENDPOINTS) {
    const root = join(LOCAL_FIXTURES, format);
    for (const file of listFiles(join(root, 'exchanges'), ['.json', '.yaml', '.yml'])) {
      for (const ex of readExchanges(file, LOCAL_FIXTURES)) {
        const dialect = ENDPOINTS.find(([re]) => re.test(ex.url))?.[1];
        if (dialect === undefined) continue;
        if (isObj(ex.request)) out.push({ name: `local:${ex.name}/request`, format: dialect, kind: 'request', input: ex.request });
        if (isObj(ex.response) && ex.status < 400) out.push({ name: `local:${ex.name}/response`, format: dialect, kind: 'response', input: ex.response });
      }
    }
    for (const [sub, kind] of [['requests', 'request'], ['responses', 'response'], ['response', 'response']] as const) {
      for (const file of listFiles(join(root, sub), ['.json'])) out.push({ name: `local:${relative(LOCAL_FIXTURES, file)}`, format, kind, input: readFileSync(file, 'utf8') });
    }
  }
  return out;
}

function hash(input: unknown): string {
  const text = input instanceof Uint8Array ? Buffer.from(input).toString('base64') : typeof input === 'string' ? input : JSON.stringify(input);
  return createHash('sha256').update(text).digest('hex');
}

/** The labeled corpus, deduplicated by content (the first name seen is kept). */
export function labeledCaptures(): Labeled[] {
  const all: Labeled[] = [];
  for (const format of [...SAMPLED_FORMATS, 'agentcore-memory'] as FormatId[]) {
    for (const kind of ['request', 'response'] as const) {
      for (const s of samples(format, kind)) {
        if (s.invalid !== undefined) continue;
        all.push({ name: s.name, format, kind: format === 'agentcore-memory' ? 'events' : kind, input: s.body });
      }
    }
  }
  all.push(...localBodies(), ...streamFiles());
  const seen = new Set<string>();
  return all.filter((c) => {
    const h = `${c.format}/${c.kind}/${hash(c.input)}`;
    if (seen.has(h)) return false;
    seen.add(h);
    return true;
  });
}
