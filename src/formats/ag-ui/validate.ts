/**
 * Validation of AG-UI input: a RunAgentInput body (every problem at once, with its JSON path) and
 * one stream event at a time (path `[<wire event index>, ...]`). Shapes are zod's (schema.ts); the
 * semantic rules are interlingua's: tool-call arguments in a request must be JSON (ADR 0001 §5:
 * the client wrote them, and a provider would refuse them), and text stays within the size limit.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { WireEvent } from '../../model/stream-event.js';
import type { Limits } from '../codec.js';
import { isBase64Text } from '../shared/base64.js';
import { checkTextSize, overTextLimit } from '../shared/text-limit.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import type { AguiEvent } from './ag-ui-api.js';
import { EVENT_SCHEMAS, RunAgentInputSchema } from './schema.js';
import { schemaIssues } from '../shared/zod-fast.js';
import { runAgentInputOk } from './validate-fast.js';

/** Parsed tool-call arguments, keyed by the wire `function` object they came from (parsed once). */
export type ParsedArgs = Map<object, JsonValue>;

/** Blank arguments mean "no arguments"; anything else must be JSON. */
export function parseArguments(text: string): { ok: true; value: JsonValue } | { ok: false } {
  const value = argumentsValue(text);
  return value === undefined ? { ok: false } : { ok: true, value };
}

/** parseArguments without its result object: the value, or undefined when the text is not JSON. */
function argumentsValue(text: string): JsonValue | undefined {
  // An object's text starts with '{' (the common case) and is never blank: no trimmed copy.
  if (text.charCodeAt(0) !== 123 && text.trim() === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return undefined;
  }
}

/** A message's content: sizes and inline base64. A loop, and paths made only for an issue (this runs per message and part). */
function checkContent(content: JsonValue | undefined, i: number, limits: Limits, issues: Issue[]): void {
  if (typeof content === 'string') {
    if (overTextLimit(content, limits)) checkTextSize(content, limits, ['messages', i, 'content'], issues);
    return;
  }
  if (!Array.isArray(content)) return;
  for (let j = 0; j < content.length; j++) {
    const p = content[j];
    if (!isJsonObject(p)) continue;
    const text = p['text'];
    if (typeof text === 'string' && overTextLimit(text, limits)) checkTextSize(text, limits, ['messages', i, 'content', j, 'text'], issues);
    // Inline bytes go to providers as bytes: text outside the base64 alphabet is refused here.
    const src = p['source'];
    const data = isJsonObject(src) && src['type'] === 'data' ? src['value'] : p['type'] === 'binary' ? p['data'] : undefined;
    if (typeof data === 'string' && !isBase64Text(data)) {
      const at: Path = isJsonObject(src) ? ['messages', i, 'content', j, 'source', 'value'] : ['messages', i, 'content', j, 'data'];
      issues.push({ code: 'invalid_base64', path: at, message: 'inline data is not valid base64', expected: 'base64 text' });
    }
  }
}

/** Checks a RunAgentInput; returns it with the parsed arguments of every assistant tool call. */
export function validateRequest(body: unknown, limits: Limits): { body: JsonObject; args: ParsedArgs } {
  if (!isJsonObject(body)) {
    throw new ValidationError([{ code: 'invalid_type', path: [], message: 'an AG-UI RunAgentInput must be a JSON object', expected: 'object' }]);
  }
  if (!runAgentInputOk(body)) {
    const found = schemaIssues(RunAgentInputSchema, body);
    if (found.length > 0) throw new ValidationError(fromZodIssues(found));
  }
  const issues: Issue[] = [];
  const args: ParsedArgs = new Map();
  const messages = body['messages'] as JsonObject[];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as JsonObject;
    checkContent(m['content'], i, limits, issues);
    const calls = m['toolCalls'];
    if (m['role'] !== 'assistant' || !Array.isArray(calls)) continue;
    for (let j = 0; j < calls.length; j++) {
      const fn = (calls[j] as JsonObject)['function'] as JsonObject;
      const value = argumentsValue(fn['arguments'] as string);
      if (value !== undefined) args.set(fn, value);
      else issues.push({ code: 'invalid_json', path: ['messages', i, 'toolCalls', j, 'function', 'arguments'], message: 'tool call arguments are not valid JSON', expected: 'a JSON text' });
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return { body, args };
}

/** The schema's `base` fields (schema.ts): an integer timestamp, an object metadata, a string subagentRunId. */
function baseOk(data: JsonObject): boolean {
  const ts = data['timestamp'];
  const meta = data['metadata'];
  const sub = data['subagentRunId'];
  return (ts === undefined || Number.isSafeInteger(ts)) && (meta === undefined || isJsonObject(meta)) && (sub === undefined || typeof sub === 'string');
}

/** Whether a delta event is valid against its schema (EVENT_SCHEMAS): false for other types and for any doubt. */
function deltaOk(data: JsonObject, type: string): boolean {
  switch (type) {
    case 'TEXT_MESSAGE_CONTENT':
    case 'REASONING_MESSAGE_CONTENT':
      return typeof data['messageId'] === 'string' && typeof data['delta'] === 'string' && baseOk(data);
    case 'TOOL_CALL_ARGS':
      return typeof data['toolCallId'] === 'string' && typeof data['delta'] === 'string' && baseOk(data);
    default:
      return false;
  }
}

/**
 * One wire event as an AG-UI event: a JSON object with a non-empty string `type` (the 1.0 client's
 * own frame rule), valid against its type's schema when the type is known. An unknown type is not
 * an error (it becomes a provider-event).
 */
export function validateEvent(wire: WireEvent, at: number): AguiEvent {
  const data = wire.data;
  if (!isJsonObject(data)) {
    throw new ValidationError([{ code: 'invalid_event', path: [at], message: `event ${at}: the frame is not a JSON object`, expected: 'an AG-UI event object' }]);
  }
  const type = data['type'];
  if (typeof type !== 'string' || type === '') {
    throw new ValidationError([{ code: 'invalid_event', path: [at, 'type'], message: `event ${at}: the frame carries no event type`, expected: 'a non-empty string' }]);
  }
  // The delta events, most of a stream, answer by hand; any doubt goes to the schema (same issues).
  if (deltaOk(data, type)) return data as AguiEvent;
  const schema = EVENT_SCHEMAS[type];
  if (schema !== undefined) {
    const found = schemaIssues(schema, data);
    if (found.length > 0) {
      throw new ValidationError(fromZodIssues(found, [at]).map((i) => ({ ...i, message: `event ${at}: ${type} ${i.path.slice(1).join('.')}: ${i.message}` })));
    }
  }
  return data as AguiEvent;
}
