/**
 * Structural cues: cheap looks at a body's or a stream's top-level shape that say which dialect
 * wrote it. Each cue adds weight to one (format, kind) and names itself, so a detection can say
 * why. Cues only rank candidates; the codecs decide (detect.ts validates the ranked candidates).
 */
import type { FormatId } from '../model/format-id.js';
import type { JsonObject } from '../model/json.js';
import type { WireEvent } from '../model/stream-event.js';

export type BodyKind = 'request' | 'response' | 'stream';

export interface Scored {
  format: FormatId;
  kind: BodyKind;
  score: number;
  cues: string[];
}

const isObj = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

class Tally {
  private readonly map = new Map<string, Scored>();
  add(format: FormatId, kind: BodyKind, weight: number, cue: string, when: boolean): void {
    if (!when) return;
    const key = `${format}/${kind}`;
    const s = this.map.get(key) ?? { format, kind, score: 0, cues: [] };
    s.score += weight;
    s.cues.push(cue);
    this.map.set(key, s);
  }
  result(): Scored[] {
    return [...this.map.values()].sort((a, b) => b.score - a.score);
  }
}

/** The content blocks of every message (objects only). */
function blocksOf(messages: unknown[]): JsonObject[] {
  return messages.flatMap((m) => (isObj(m) ? arr(m['content']).filter(isObj) : []));
}

function roles(messages: unknown[]): Set<string> {
  return new Set(messages.flatMap((m) => (isObj(m) && typeof m['role'] === 'string' ? [m['role']] : [])));
}

/** Scores a JSON body as each dialect's request or response. */
export function bodyCues(body: unknown): Scored[] {
  const t = new Tally();
  if (!isObj(body)) return [];
  const has = (k: string): boolean => k in body;
  const messages = arr(body['messages']);
  const blocks = blocksOf(messages);
  const blockTypes = new Set(blocks.map((b) => (typeof b['type'] === 'string' ? b['type'] : '')));
  const rs = roles(messages);
  const msgArray = Array.isArray(body['messages']);

  // Requests.
  t.add('openai-chat', 'request', 2, 'messages[]', msgArray);
  t.add('openai-chat', 'request', 2, 'system/developer/tool role', rs.has('system') || rs.has('developer') || rs.has('tool'));
  t.add('openai-chat', 'request', 2, 'tool_calls', messages.some((m) => isObj(m) && Array.isArray(m['tool_calls'])));
  t.add('openai-chat', 'request', 1, 'chat-only field', ['max_completion_tokens', 'response_format', 'stream_options', 'n', 'logprobs', 'frequency_penalty', 'presence_penalty', 'seed', 'parallel_tool_calls'].some(has));
  t.add('openai-chat', 'request', 1, 'image_url block', blockTypes.has('image_url') || blockTypes.has('input_audio'));
  t.add('openai-chat', 'request', 1, 'tools[].function', arr(body['tools']).some((x) => isObj(x) && isObj(x['function'])));

  t.add('anthropic-messages', 'request', 2, 'messages[]', msgArray);
  t.add('anthropic-messages', 'request', 2, 'max_tokens', has('max_tokens'));
  t.add('anthropic-messages', 'request', 1, 'top-level system', has('system') && !Array.isArray(body['contents']));
  t.add('anthropic-messages', 'request', 2, 'tool_use/tool_result/thinking block', ['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'document'].some((x) => blockTypes.has(x)));
  t.add('anthropic-messages', 'request', 1, 'tools[].input_schema', arr(body['tools']).some((x) => isObj(x) && 'input_schema' in x));
  t.add('anthropic-messages', 'request', 1, 'cache_control', blocks.some((b) => 'cache_control' in b) || arr(body['system']).some((b) => isObj(b) && 'cache_control' in b));
  t.add('anthropic-messages', 'request', 1, 'thinking/tool_choice object/metadata', has('thinking') || (isObj(body['tool_choice']) && typeof body['tool_choice']['type'] === 'string') || has('stop_sequences'));

  const typeless = blocks.length > 0 && blocks.every((b) => !('type' in b));
  t.add('bedrock-converse', 'request', 2, 'messages[]', msgArray);
  t.add('bedrock-converse', 'request', 3, 'untyped content blocks', typeless);
  t.add('bedrock-converse', 'request', 3, 'inferenceConfig/toolConfig', has('inferenceConfig') || has('toolConfig') || has('additionalModelRequestFields') || has('modelId'));
  t.add('bedrock-converse', 'request', -3, 'typed content blocks', blocks.some((b) => 'type' in b));

  t.add('gemini', 'request', 4, 'contents', has('contents'));
  t.add('gemini', 'request', 2, 'generationConfig/systemInstruction', has('generationConfig') || has('systemInstruction') || has('safetySettings'));

  t.add('openai-responses', 'request', 3, 'input', has('input') && !has('messages'));
  t.add('openai-responses', 'request', 2, 'responses-only field', ['instructions', 'previous_response_id', 'max_output_tokens', 'reasoning', 'text', 'include', 'store', 'conversation', 'prompt'].some(has));
  t.add('openai-responses', 'request', -5, "object 'response' (a response)", body['object'] === 'response');
  t.add('openai-responses', 'request', 1, 'model beside input', has('input') && has('model'));

  t.add('agent-input', 'request', 3, 'input', has('input') && !has('messages'));
  t.add('agent-input', 'request', 3, 'parameters.question', isObj(body['parameters']) && 'question' in body['parameters']);
  t.add('agent-input', 'request', 1, 'input without model', has('input') && !has('model') && Object.keys(body).length <= 2);

  t.add('ag-ui', 'request', 3, 'threadId+runId', has('threadId') && has('runId'));
  t.add('ag-ui', 'request', 1, 'messages with ids', messages.length > 0 && messages.every((m) => isObj(m) && typeof m['id'] === 'string'));
  t.add('ag-ui', 'request', 1, 'state/context/forwardedProps', has('forwardedProps') || has('context') || has('state'));

  const params = isObj(body['params']) ? body['params'] : body;
  t.add('a2a', 'request', 3, 'jsonrpc', has('jsonrpc') || typeof body['method'] === 'string');
  t.add('a2a', 'request', 2, 'JSON-RPC result', isObj(body['result']) && 'id' in body);
  t.add('a2a', 'request', 3, 'message.parts', isObj(params['message']) && Array.isArray(params['message']['parts']));

  t.add('agentcore-memory', 'request', 4, 'events[].payload', arr(body['events']).some((e) => isObj(e) && Array.isArray(e['payload'])));

  // Responses.
  t.add('openai-chat', 'response', 5, "object 'chat.completion'", body['object'] === 'chat.completion');
  t.add('openai-chat', 'response', 3, 'choices[].message', arr(body['choices']).some((c) => isObj(c) && isObj(c['message'])));
  t.add('anthropic-messages', 'response', 5, "type 'message'", body['type'] === 'message');
  t.add('anthropic-messages', 'response', 2, 'content[] + stop_reason', Array.isArray(body['content']) && has('stop_reason'));
  t.add('bedrock-converse', 'response', 5, 'output.message / stopReason', (isObj(body['output']) && !Array.isArray(body['output'])) || typeof body['stopReason'] === 'string');
  t.add('gemini', 'response', 5, 'candidates[]', Array.isArray(body['candidates']) || isObj(body['promptFeedback']));
  t.add('gemini', 'response', 1, 'usageMetadata', has('usageMetadata'));
  t.add('openai-responses', 'response', 5, "object 'response'", body['object'] === 'response');
  t.add('openai-responses', 'response', 2, 'output[]', Array.isArray(body['output']) && has('status'));
  return t.result().filter((s) => s.score > 0);
}

const UPPER = /^[A-Z][A-Z_]+$/;

/** Scores a list of wire events as each dialect's stream, from the first events' names and shapes. */
export function streamCues(events: readonly WireEvent[]): Scored[] {
  const t = new Tally();
  const sample = events.slice(0, 12);
  const names = new Set(sample.flatMap((e) => (e.event === undefined ? [] : [e.event])));
  const datas = sample.map((e) => e.data).filter(isObj);
  const types = new Set(datas.flatMap((d) => (typeof d['type'] === 'string' ? [d['type']] : [])));
  const anyType = (p: (x: string) => boolean): boolean => [...types].some(p);

  t.add('anthropic-messages', 'stream', 5, 'message_start/content_block_*', anyType((x) => x === 'message_start' || x.startsWith('content_block_') || x === 'message_delta'));
  t.add('anthropic-messages', 'stream', 1, 'ping', types.has('ping'));
  t.add('openai-chat', 'stream', 5, "object 'chat.completion.chunk'", datas.some((d) => d['object'] === 'chat.completion.chunk'));
  t.add('openai-chat', 'stream', 3, 'choices[].delta', datas.some((d) => arr(d['choices']).some((c) => isObj(c) && 'delta' in c)));
  t.add('openai-responses', 'stream', 5, "type 'response.*'", anyType((x) => x.startsWith('response.')));
  const bedrockNames = ['messageStart', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata'];
  const lineNames = datas.flatMap((d) => (Object.keys(d).length === 1 ? Object.keys(d) : []));
  t.add('bedrock-converse', 'stream', 5, 'messageStart/contentBlockDelta events', bedrockNames.some((n) => names.has(n) || lineNames.includes(n)));
  t.add('gemini', 'stream', 5, 'candidates[] chunks', datas.some((d) => Array.isArray(d['candidates'])));
  t.add('gemini', 'stream', 2, 'Google RPC error chunk', datas.some((d) => isObj(d['error']) && typeof d['error']['code'] === 'number' && typeof d['error']['status'] === 'string'));
  t.add('gemini', 'stream', 1, 'usageMetadata chunks', datas.some((d) => isObj(d['usageMetadata'])));
  t.add('ag-ui', 'stream', 5, 'RUN_STARTED / upper-case event types', anyType((x) => UPPER.test(x)));
  t.add('a2a', 'stream', 5, 'JSON-RPC results', datas.some((d) => d['jsonrpc'] === '2.0' || ('result' in d && 'id' in d)));
  t.add('a2a', 'stream', 2, 'status-update / artifact-update', datas.some((d) => isObj(d['result']) && ['status-update', 'artifact-update', 'task', 'message'].includes(String(d['result']['kind']))));
  return t.result().filter((s) => s.score > 0);
}
