/**
 * Every real body of a dialect, for sweeps that run over all formats (the conversion matrix):
 * - recorded HTTP exchanges anywhere in ../shared/fixtures, classified by the endpoint they were
 *   sent to (a cassette in one provider's folder often holds calls to another provider);
 * - bare non-streaming response files (the providers' folders and agentgateway's captured upstream
 *   responses), classified by their shape;
 * - agentgateway's request vectors for the dialect (its `.bedrock.snap` request bodies for Bedrock,
 *   which has no bare request files);
 * - examples/ and, for agent-input, the ml-commons vectors of test/fixtures/agent-input.
 * Bodies are deduplicated by content. Error envelopes, requests the real API refused and
 * known-invalid vectors are returned too, marked `invalid` with the reason, so a sweep can count
 * them instead of silently leaving them out.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { exchangesFor, hasSharedFixtures, isErrorBody, listFiles, LOCAL_FIXTURES, REPO_ROOT, SHARED_FIXTURES, type Exchange } from './captures.js';

export type SampleKind = 'request' | 'response';

export interface Sample {
  /** `shared:<file>[#n]`, `examples:<file>` or `vectors:<name>`. */
  name: string;
  body: unknown;
  /** Why this body is not a valid body of the dialect (error envelope, refused by the API, ...). */
  invalid?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

interface DialectRules {
  /** The create endpoint (streaming or not), as a URL test. */
  endpoint: RegExp;
  /** URLs whose response is a stream, never a JSON body. */
  streamUrl?: RegExp;
  isRequest(body: unknown): boolean;
  isResponse(body: unknown): boolean;
  /** agentgateway request vectors: a folder of `<case>.json` inputs, or snapshots whose `request` is a body. */
  vectors?: { dir: string; suffix: '.json' } | { dir: string; suffix: string; field: string };
  /** Examples under examples/. */
  examples?: Partial<Record<SampleKind, string>>;
}

const AG = 'conversion/agentgateway';

const RULES: Record<string, DialectRules> = {
  'anthropic-messages': {
    endpoint: /\/v1\/messages(\?|$)/,
    isRequest: (b) => isObj(b) && Array.isArray(b['messages']),
    isResponse: (b) => isObj(b) && b['type'] === 'message' && Array.isArray(b['content']),
    vectors: { dir: `${AG}/requests/messages`, suffix: '.json' },
    examples: { request: 'anthropic-request.json', response: 'anthropic-response.json' },
  },
  'openai-chat': {
    endpoint: /\/chat\/completions(\?|$)/,
    isRequest: (b) => isObj(b) && Array.isArray(b['messages']),
    isResponse: (b) => isObj(b) && b['object'] === 'chat.completion' && Array.isArray(b['choices']),
    vectors: { dir: `${AG}/requests/completions`, suffix: '.json' },
    examples: { request: 'openai-chat-request.json', response: 'openai-chat-response.json' },
  },
  'openai-responses': {
    endpoint: /\/responses(\?|$)/,
    isRequest: (b) => isObj(b) && ('input' in b || 'instructions' in b || 'prompt' in b),
    isResponse: (b) => isObj(b) && b['object'] === 'response' && Array.isArray(b['output']),
    vectors: { dir: `${AG}/requests/responses`, suffix: '.json' },
  },
  'bedrock-converse': {
    endpoint: /\/model\/[^/]+\/converse(-stream)?(\?|$)/,
    streamUrl: /converse-stream/,
    isRequest: (b) => isObj(b) && (Array.isArray(b['messages']) || Array.isArray(b['system'])),
    isResponse: (b) => isObj(b) && isObj(b['output']) && typeof b['stopReason'] === 'string',
    vectors: { dir: `${AG}/requests`, suffix: '.bedrock.snap', field: 'request' },
  },
  gemini: {
    endpoint: /:(stream)?[gG]enerateContent(\?|$)/,
    streamUrl: /:streamGenerateContent/,
    isRequest: (b) => isObj(b) && Array.isArray(b['contents']),
    isResponse: (b) => isObj(b) && (Array.isArray(b['candidates']) || isObj(b['promptFeedback'])),
    vectors: { dir: `${AG}/requests/gemini`, suffix: '.json' },
  },
};

/** The dialects this module knows how to find captures for. */
export const SAMPLED_FORMATS = [...Object.keys(RULES), 'agent-input', 'ag-ui', 'a2a'];

/**
 * Vectors that are not valid bodies of their dialect on purpose or by a rule the real service
 * enforces. Keyed by sample name; the value says why.
 */
const KNOWN_INVALID: Record<string, string> = {
  [`shared:${AG}/requests/messages/tool_history_without_tools.bedrock.snap`]: 'agentgateway output that starts with an assistant turn (Bedrock: "A conversation must start with a user message")',
  [`shared:${AG}/requests/messages/reasoning.json`]: "agentgateway input with output_format: 'markdown' (Anthropic's output_format is a json_schema object)",
  [`shared:${AG}/requests/responses/assistant-history.json`]: "agentgateway input whose refusal content part carries `text` (the API's refusal part requires `refusal`)",
};

/** Folders holding recorded exchanges (the providers' folders; any of them may record any provider). */
const EXCHANGE_DIRS = ['anthropic-messages', 'openai-chat', 'openai-responses', 'bedrock-converse', 'gemini-generatecontent'];

/** Folders holding bare response bodies. */
const RESPONSE_DIRS = [
  'anthropic-messages/response',
  'openai-chat/response',
  'openai-responses/response',
  'bedrock-converse/response',
  'gemini-generatecontent/response',
  `${AG}/response`,
];

/** The folder of bare responses that belongs to a dialect (its error envelopes count as its invalid bodies). */
const OWN_RESPONSE_DIR: Record<string, string> = {
  'anthropic-messages': 'anthropic-messages/response',
  'openai-chat': 'openai-chat/response',
  'openai-responses': 'openai-responses/response',
  'bedrock-converse': 'bedrock-converse/response',
  gemini: 'gemini-generatecontent/response',
};

let exchangeCache: Exchange[] | undefined;
function allExchanges(): Exchange[] {
  exchangeCache ??= exchangesFor('', EXCHANGE_DIRS);
  return exchangeCache;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined; // SSE text in a .json file (agentgateway stream vectors)
  }
}

/** The JSON after the second `---` line of an insta snapshot. */
function snapBody(file: string): unknown {
  const lines = readFileSync(file, 'utf8').split('\n');
  let seen = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] === '---' && ++seen === 2) {
      try {
        return JSON.parse(lines.slice(i + 1).join('\n'));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

const shared = (file: string): string => `shared:${relative(SHARED_FIXTURES, file)}`;

/** The API refused the request as invalid (HTTP 400 / invalid_request_error). */
function apiRejected(ex: Exchange): string | undefined {
  const err = isObj(ex.response) ? ex.response['error'] : undefined;
  if (ex.status !== 400 && !(isObj(err) && err['type'] === 'invalid_request_error')) return undefined;
  const message = isObj(err) && typeof err['message'] === 'string' ? `: ${err['message']}` : '';
  return `the API refused it (HTTP ${ex.status})${message}`;
}

function fromExchanges(rules: DialectRules, kind: SampleKind): Sample[] {
  const out: Sample[] = [];
  for (const ex of allExchanges()) {
    if (!rules.endpoint.test(ex.url)) continue;
    const name = `shared:${ex.name}`;
    if (kind === 'request') {
      if (!rules.isRequest(ex.request)) continue;
      const rejected = apiRejected(ex);
      out.push(rejected === undefined ? { name, body: ex.request } : { name, body: ex.request, invalid: rejected });
      continue;
    }
    if (rules.streamUrl?.test(ex.url) || ex.response === undefined) continue;
    if (isObj(ex.request) && ex.request['stream'] === true) continue;
    if (rules.isResponse(ex.response)) out.push({ name, body: ex.response });
    else if (isErrorBody(ex.response) || ex.status >= 400) out.push({ name, body: ex.response, invalid: `error body (HTTP ${ex.status})` });
  }
  return out;
}

function fromResponseFiles(format: string, rules: DialectRules): Sample[] {
  const out: Sample[] = [];
  for (const dir of RESPONSE_DIRS) {
    for (const file of listFiles(join(SHARED_FIXTURES, dir), ['.json'])) {
      const body = readJson(file);
      if (rules.isResponse(body)) out.push({ name: shared(file), body });
      else if (dir === OWN_RESPONSE_DIR[format] && isErrorBody(body)) out.push({ name: shared(file), body, invalid: 'error body' });
    }
  }
  return out;
}

function fromVectors(rules: DialectRules): Sample[] {
  const v = rules.vectors;
  if (!v) return [];
  const out: Sample[] = [];
  for (const file of listFiles(join(SHARED_FIXTURES, v.dir), [v.suffix])) {
    const doc = 'field' in v ? snapBody(file) : readJson(file);
    const body = 'field' in v ? (isObj(doc) ? doc[v.field] : undefined) : doc;
    if (rules.isRequest(body)) out.push({ name: shared(file), body });
  }
  return out;
}

function fromExamples(rules: DialectRules, kind: SampleKind): Sample[] {
  const file = rules.examples?.[kind];
  if (file === undefined) return [];
  const path = join(REPO_ROOT, 'examples', file);
  return existsSync(path) ? [{ name: `examples:${file}`, body: readJson(path) }] : [];
}

interface AgentInputVector {
  name: string;
  body: unknown;
  error?: { message: string };
}

/** The ml-commons vectors (test/fixtures/agent-input): valid bodies, and those whose expected outcome is an error. */
function agentInputSamples(kind: SampleKind): Sample[] {
  if (kind !== 'request') return [];
  const file = join(LOCAL_FIXTURES, 'agent-input/ml-commons-vectors.json');
  const vectors = JSON.parse(readFileSync(file, 'utf8')) as AgentInputVector[];
  return vectors.map((v) => {
    const s: Sample = { name: `vectors:${v.name}`, body: v.body };
    if (v.error) s.invalid = `a validation vector (expected error: ${v.error.message})`;
    return s;
  });
}

/** AG-UI RunAgentInput bodies the .NET SDK's baselines recorded (`*.Request.Server.AGUI.json`). */
function agUiSamples(kind: SampleKind): Sample[] {
  if (kind !== 'request') return [];
  const roots: [string, string][] = [['local', join(LOCAL_FIXTURES, 'ag-ui/dotnet-baselines')]];
  if (hasSharedFixtures()) roots.push(['shared', join(SHARED_FIXTURES, 'ag-ui/dotnet-baselines')]);
  return roots.flatMap(([label, dir]) =>
    listFiles(dir, ['.Request.Server.AGUI.json']).map((f) => ({ name: `${label}:ag-ui/${relative(dir, f)}`, body: JSON.parse(readFileSync(f, 'utf8')) as unknown })),
  );
}

/** JSON-RPC methods whose params are a send-message request (v1.0 and v0.3 names). */
const A2A_SEND_METHODS = new Set(['SendMessage', 'SendStreamingMessage', 'message/send', 'message/stream']);

/** An A2A message or task by its shape (either version; the spec's examples leave `kind` out). */
const isA2aMessage = (v: unknown): boolean => isObj(v) && Array.isArray(v['parts']) && !('artifactId' in v);
const isA2aTask = (v: unknown): boolean => isObj(v) && isObj(v['status']) && typeof v['id'] === 'string';

/**
 * Whether a JSON value is an A2A body that carries a conversation: a send-message request (bare
 * or in a JSON-RPC request), a task or a message (bare, as a v1.0 `{task}` / `{message}` response,
 * or as a JSON-RPC result), or a list of messages. Agent cards, task queries, errors and lone
 * parts or artifacts are not.
 */
function isA2aRequest(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0 && v.every(isA2aMessage);
  if (!isObj(v)) return false;
  if (v['jsonrpc'] !== undefined) {
    if (typeof v['method'] === 'string') return A2A_SEND_METHODS.has(v['method']) && isObj(v['params']);
    return isA2aRequest(v['result']);
  }
  if (isObj(v['message']) && !('messageId' in v)) return true;
  return isA2aTask(v) || isA2aMessage(v) || (Object.keys(v).length === 1 && (isA2aTask(v['task']) || isA2aMessage(v['message'])));
}

/**
 * Specification examples that break the specification (the v0.3.0 JSON schema, a2a.proto), by file
 * and index. test/formats/a2a/validator.test.ts checks that the A2A validator agrees with every
 * mark; test/formats/a2a/spec-examples.test.ts pins where the decoder refuses those it refuses.
 */
const NO_KIND = "messages without 'kind' (the v0.3.0 schema requires it)";
const A2A_INVALID: Record<string, string> = {
  'a2a-v1-spec-json-examples.jsonl#1': 'a message without messageId (REQUIRED in a2a.proto)',
  'a2a-v0.3.0-spec-json-examples.jsonl#2': NO_KIND,
  'a2a-v0.3.0-spec-json-examples.jsonl#3': NO_KIND,
  'a2a-v0.3.0-spec-json-examples.jsonl#9': NO_KIND,
  'a2a-v0.3.0-spec-json-examples.jsonl#10': NO_KIND,
  'a2a-v0.3.0-spec-json-examples.jsonl#17': NO_KIND,
  'a2a-v0.3.0-spec-json-examples.jsonl#5': 'a message without role (required by the v0.3.0 schema)',
  'a2a-v0.3.0-spec-json-examples.jsonl#6': "a file part with its bytes under 'data' (FileWithBytes has 'bytes'), and those bytes a placeholder, not base64",
  'a2a-v0.3.0-spec-json-examples.jsonl#8': 'messageId written on the params instead of on the message, which then has none',
  'a2a-v0.3.0-spec-json-examples.jsonl#11': 'a status message without messageId (required by the v0.3.0 schema)',
  'spec-v0.3-streaming.sse#0': "a history file part with its bytes under 'data', a placeholder, not base64 (spec example 9.3)",
};

interface SpecExample {
  index: number;
  parsed: boolean;
  example: unknown;
}

/**
 * A2A request bodies: the conversation-carrying bodies among the specification's JSON examples
 * (test/fixtures/a2a and ../shared/fixtures/a2a/spec-examples), and the task and message events of
 * the spec's SSE stream example (test/fixtures/a2a/streams). Examples that break the spec are
 * marked invalid.
 */
function a2aSamples(kind: SampleKind): Sample[] {
  if (kind !== 'request') return [];
  const roots: [string, string][] = [['local', join(LOCAL_FIXTURES, 'a2a')]];
  if (hasSharedFixtures()) roots.push(['shared', join(SHARED_FIXTURES, 'a2a/spec-examples')]);
  const out: Sample[] = [];
  const add = (name: string, key: string, body: unknown): void => {
    if (!isA2aRequest(body)) return;
    const reason = A2A_INVALID[key];
    out.push(reason === undefined ? { name, body } : { name, body, invalid: reason });
  };
  for (const [label, dir] of roots) {
    for (const file of listFiles(dir, ['-spec-json-examples.jsonl'])) {
      const base = relative(dir, file);
      for (const line of readFileSync(file, 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const e = JSON.parse(line) as SpecExample;
        if (e.parsed) add(`${label}:a2a/${base}#${e.index}`, `${base}#${e.index}`, e.example);
      }
    }
    for (const file of listFiles(join(dir, 'streams'), ['.sse'])) {
      const base = relative(join(dir, 'streams'), file);
      const events = readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('data:'));
      events.forEach((l, i) => add(`${label}:a2a/streams/${base}#${i}`, `${base}#${i}`, JSON.parse(l.slice('data:'.length)) as unknown));
    }
  }
  return out;
}

function dedupe(list: Sample[]): Sample[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    const h = createHash('sha1').update(JSON.stringify(s.body) ?? 'undefined').digest('hex');
    if (seen.has(h)) return false;
    seen.add(h);
    return true;
  });
}

/**
 * AgentCore Memory bodies `{events}`. The corpus has no captured events, so these are the Camunda
 * connectors' mapper, envelope and store test vectors written as events
 * (test/fixtures/agentcore-memory/camunda-vectors.json): one body per mapper case and per store
 * case; the envelope cases Camunda refuses are invalid bodies.
 */
function agentcoreMemorySamples(kind: SampleKind): Sample[] {
  if (kind !== 'request') return [];
  type Vectors = {
    mapper: { name: number; test: string; camunda: { payload?: unknown[] } | null }[];
    envelope: { test: string; blob: string; error?: string[] }[];
    store: { test: string; body: unknown }[];
  };
  const v = JSON.parse(readFileSync(join(LOCAL_FIXTURES, 'agentcore-memory/camunda-vectors.json'), 'utf8')) as Vectors;
  const out: Sample[] = [];
  for (const m of v.mapper) {
    const payload = m.camunda?.payload;
    if (payload !== undefined && payload.length > 0) out.push({ name: `vectors:camunda/${m.test}`, body: { events: [{ payload }] } });
  }
  for (const s of v.store) out.push({ name: `vectors:camunda/${s.test}`, body: s.body });
  v.envelope.forEach((e, k) => {
    const sample: Sample = { name: `vectors:camunda/${e.test}#${k}`, body: { events: [{ payload: [{ blob: e.blob }] }] } };
    if (e.error) sample.invalid = `Camunda refuses this blob (${e.error.join(', ')})`;
    out.push(sample);
  });
  return out;
}

const cache = new Map<string, Sample[]>();

/**
 * Every real body of `format` and `kind` (names and bodies), valid or marked `invalid`. Formats
 * without captures give []. Without ../shared only examples/ and test/fixtures bodies are found.
 */
export function samples(format: string, kind: SampleKind): Sample[] {
  const key = `${format}/${kind}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let all: Sample[] = [];
  if (format === 'agent-input') all = agentInputSamples(kind);
  else if (format === 'ag-ui') all = agUiSamples(kind);
  else if (format === 'agentcore-memory') all = agentcoreMemorySamples(kind);
  else if (format === 'a2a') all = a2aSamples(kind);
  else {
    const rules = RULES[format];
    if (rules) {
      all.push(...fromExamples(rules, kind));
      if (hasSharedFixtures()) {
        all.push(...fromExchanges(rules, kind));
        if (kind === 'response') all.push(...fromResponseFiles(format, rules));
        else all.push(...fromVectors(rules));
      }
    }
  }
  const out = dedupe(all).map((s) => {
    const reason = KNOWN_INVALID[s.name];
    return reason !== undefined && s.invalid === undefined ? { ...s, invalid: reason } : s;
  });
  cache.set(key, out);
  return out;
}
