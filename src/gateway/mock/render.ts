/**
 * The mock's canonical answer written in a dialect, through the library's public API: a final
 * body with `encode`, or a stream with `responseToStream` + `Transcoder` + `frameWriter`.
 *
 * Streams are built once in OpenAI Chat chunks (the simplest chunk shape), where text is cut into
 * one delta per word and tool arguments into short pieces, then transcoded into the caller's
 * dialect — so every dialect gets a real multi-event stream, not one delta per block.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { FormatId } from '../../model/format-id.js';
import type { Response as ModelResponse } from '../../model/response.js';
import type { WireEvent } from '../../model/stream-event.js';
import { encode, frameWriter, responseToStream, Transcoder } from '../../index.js';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The final response body of `format`. */
export function renderBody(format: FormatId, response: ModelResponse, seed: string, latencyMs: number): JsonValue {
  const body = encode(response, { to: format, kind: 'response' }).value as JsonValue;
  if (format === 'openai-responses') pinItemIds(body, seed);
  if (format === 'bedrock-converse' && isObject(body) && isObject(body['metrics'])) body['metrics']['latencyMs'] = latencyMs;
  return body;
}

/**
 * The Responses codec mints random `msg_`/`fc_` ids for output items of other origins; the mock
 * pins them to the request hash so the same request gets the same bytes.
 */
function pinItemIds(body: JsonValue, seed: string): void {
  if (!isObject(body) || !Array.isArray(body['output'])) return;
  body['output'].forEach((item, i) => {
    if (!isObject(item) || typeof item['id'] !== 'string') return;
    const prefix = item['id'].split('_')[0] ?? 'item';
    item['id'] = `${prefix}_${seed}_${i}`;
  });
}

export interface StreamShape {
  format: FormatId;
  /** OpenAI Chat sends its usage chunk only when `stream_options.include_usage` asks. */
  includeUsage: boolean;
}

/** The stream's wire events in `format`. */
export function streamEvents(response: ModelResponse, shape: StreamShape): WireEvent[] {
  const chat = encode(response, { to: 'openai-chat', kind: 'response' }).value;
  const chunks = responseToStream(chat, { from: 'openai-chat', to: 'openai-chat' }).events.flatMap(splitChunk);
  const t = new Transcoder({ from: 'openai-chat', to: shape.format, includeUsage: shape.includeUsage });
  const out: WireEvent[] = [];
  for (const e of chunks) for (const w of t.push(e)) out.push(w);
  for (const w of t.end()) out.push(w);
  return out;
}

const TEXT_PIECE = /\S+\s*|\s+/g;
const ARGS_PIECE = 16;

/** One Chat chunk with a long delta becomes several: a delta per word, arguments in pieces. */
function splitChunk(event: WireEvent): WireEvent[] {
  const data = event.data;
  if (!isObject(data) || !Array.isArray(data['choices'])) return [event];
  const choice = data['choices'][0];
  if (!isObject(choice) || !isObject(choice['delta']) || data['choices'].length !== 1) return [event];
  const delta = choice['delta'];
  const content = delta['content'];
  if (typeof content === 'string') {
    const pieces = content.match(TEXT_PIECE) ?? [content];
    return pieces.map((piece, i) => chunkWith(data, choice, i === 0 ? { ...delta, content: piece } : { content: piece }));
  }
  const calls = delta['tool_calls'];
  if (Array.isArray(calls) && calls.length === 1 && isObject(calls[0])) {
    const call = calls[0];
    const fn = isObject(call['function']) ? call['function'] : {};
    const args = typeof fn['arguments'] === 'string' ? fn['arguments'] : '';
    if (args.length <= ARGS_PIECE) return [event];
    const out: WireEvent[] = [];
    for (let at = 0; at < args.length; at += ARGS_PIECE) {
      const piece = args.slice(at, at + ARGS_PIECE);
      const part = at === 0 ? { ...call, function: { ...fn, arguments: piece } } : { index: call['index'] ?? 0, function: { arguments: piece } };
      out.push(chunkWith(data, choice, at === 0 ? { ...delta, tool_calls: [part] } : { tool_calls: [part] }));
    }
    return out;
  }
  return [event];
}

function chunkWith(data: JsonObject, choice: JsonObject, delta: JsonObject): WireEvent {
  return { data: { ...data, choices: [{ ...choice, delta }] } };
}

/** How each provider dialect frames its stream on the wire. */
export function framingOf(format: FormatId): { contentType: string; write: (e: WireEvent) => Uint8Array | string } {
  if (format === 'bedrock-converse') return { contentType: 'application/vnd.amazon.eventstream', write: frameWriter('aws-event-stream') };
  return { contentType: 'text/event-stream; charset=utf-8', write: frameWriter('sse') };
}
