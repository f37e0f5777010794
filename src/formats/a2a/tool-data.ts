/**
 * The source design's tool data parts: `{tool_calls: [{call_id, name, arguments}]}` and
 * `{tool_results: [{call_id, name, output}]}`. Arguments are the JSON object (the design's
 * example) or JSON text (a fragment of it in a ToolCallArgsEvent). An output that is a string is
 * the result's text; any other JSON value is a data result.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part, ToolResultPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { keepResidue, residue, restoreResidue } from '../shared/residue.js';
import { A2A, type WireToolCall, type WireToolResult } from './a2a-api.js';
import { encodePart, loss } from './parts.js';
import { childPath } from '../shared/child-path.js';

const CALL_KEYS = new Set(['call_id', 'name', 'arguments']);
const RESULT_KEYS = new Set(['call_id', 'name', 'output', 'is_error']);

export function isToolCalls(data: JsonValue | undefined): data is JsonObject {
  return isJsonObject(data) && Array.isArray(data['tool_calls']);
}
export function isToolResults(data: JsonValue | undefined): data is JsonObject {
  return isJsonObject(data) && Array.isArray(data['tool_results']);
}

export interface ReadCall {
  callId: string;
  name: string | undefined;
  /** The argument text (fragment) as sent, or undefined when the wire held parsed JSON. */
  text: string | undefined;
  /** Parsed JSON arguments, when the wire held them parsed. */
  json: JsonValue | undefined;
  rest: JsonObject | undefined;
}

function need(issues: Issue[], ok: boolean, path: Path, message: string): void {
  if (!ok) issues.push({ code: 'invalid_type', path, message });
}

/** An issue at `[...at, key]`: the path is built only for a problem (these checks run per call and result). */
function fault(issues: Issue[], at: Path, key: string, message: string): void {
  issues.push({ code: 'invalid_type', path: childPath(at, key), message });
}

/** The calls of a `{tool_calls}` data object; `nameRequired` for a call's first appearance. */
export function readCalls(data: JsonObject, path: Path, nameRequired: boolean): ReadCall[] {
  const issues: Issue[] = [];
  const list = data['tool_calls'] as JsonValue[];
  const out: ReadCall[] = [];
  for (let i = 0; i < list.length; i++) {
    const c = list[i] as JsonValue;
    if (!isJsonObject(c)) {
      need(issues, false, childPath(path, 'tool_calls', i), 'a tool call must be an object');
      continue;
    }
    const args = c['arguments'];
    const text = typeof args === 'string' ? args : undefined;
    const badId = !(typeof c['call_id'] === 'string' && c['call_id'] !== '');
    const badName = !(c['name'] === undefined ? !nameRequired : typeof c['name'] === 'string');
    const badArgs = args !== undefined && text === undefined && !isJsonObject(args);
    if (badId || badName || badArgs) {
      const at = childPath(path, 'tool_calls', i);
      if (badId) fault(issues, at, 'call_id', 'a tool call needs a call_id (non-empty string)');
      if (badName) fault(issues, at, 'name', 'a tool call needs a name (string)');
      if (badArgs) fault(issues, at, 'arguments', 'arguments must be JSON text or an object');
    }
    out.push({ callId: c['call_id'] as string, name: c['name'] as string | undefined, text, json: text === undefined ? args : undefined, rest: residue(c, CALL_KEYS) });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return out;
}

export interface ReadResult {
  callId: string;
  part: ToolResultPart;
}

/**
 * The results of a `{tool_results}` data object, as canonical tool-result parts. `markNoName`
 * (request path): a result without a name keeps the hint that it had none.
 */
export function readResults(data: JsonObject, path: Path, markNoName = false): ReadResult[] {
  const parts = readResultParts(data, path, markNoName);
  const out: ReadResult[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as ToolResultPart;
    out.push({ callId: part.callId, part });
  }
  return out;
}

/** readResults' parts alone (the request path needs no pairs). */
export function readResultParts(data: JsonObject, path: Path, markNoName = false): ToolResultPart[] {
  const issues: Issue[] = [];
  const out: ToolResultPart[] = [];
  const list = data['tool_results'] as JsonValue[];
  for (let i = 0; i < list.length; i++) {
    const r = list[i] as JsonValue;
    if (!isJsonObject(r)) {
      need(issues, false, childPath(path, 'tool_results', i), 'a tool result must be an object');
      continue;
    }
    const badId = !(typeof r['call_id'] === 'string' && r['call_id'] !== '');
    const badName = !(r['name'] === undefined || typeof r['name'] === 'string');
    const badError = !(r['is_error'] === undefined || typeof r['is_error'] === 'boolean');
    const noOutput = r['output'] === undefined;
    if (badId || badName || badError || noOutput) {
      const at = childPath(path, 'tool_results', i);
      if (badId) fault(issues, at, 'call_id', 'a tool result needs a call_id (non-empty string)');
      if (badName) fault(issues, at, 'name', 'name must be a string');
      if (badError) fault(issues, at, 'is_error', 'is_error must be a boolean');
      if (noOutput) fault(issues, at, 'output', 'a tool result needs an output');
    }
    const output = r['output'] as JsonValue;
    const content: Part[] = typeof output === 'string' ? [{ type: 'text', text: output }] : [{ type: 'data', data: output }];
    const part: ToolResultPart = { type: 'tool-result', callId: r['call_id'] as string, content };
    if (typeof output === 'string') part.stringContent = true;
    if (typeof r['name'] === 'string') part.name = r['name'];
    if (r['is_error'] === true) part.isError = true;
    // Hints set on the residue, a fresh object (a spread with a new key cost ~1 µs a result).
    let rest = residue(r, RESULT_KEYS);
    // The encoder names a result after its call; one that came without a name goes back without.
    if (markNoName && r['name'] === undefined) (rest ??= {})['$noName'] = true;
    // `is_error: false` says what its absence says; a hint writes it back.
    if (r['is_error'] === false) (rest ??= {})['$isErrorFalse'] = true;
    keepResidue(part, A2A, rest);
    out.push(part);
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return out;
}

/** One tool call on the wire; `args` is the JSON object to send, or JSON text (messages-encode.ts says when). */
export function writeCall(id: string, name: string, args: JsonValue, ext: Part['ext']): WireToolCall & JsonObject {
  const out: JsonObject = { call_id: id, name, arguments: args };
  restoreResidue(out, ext, A2A);
  return out as WireToolCall & JsonObject;
}

/**
 * A canonical tool result as the wire's `{call_id, name, output}`: one text part is a string
 * output, one data part its value; several text parts are joined (approximated); media has no
 * place in an output (dropped).
 */
export function writeResult(part: ToolResultPart, path: Path, losses: LossSink): WireToolResult & JsonObject {
  const out: JsonObject = { call_id: part.callId };
  if (part.name !== undefined) out['name'] = part.name;
  const texts: string[] = [];
  let data: JsonValue | undefined;
  part.content.forEach((c, j) => {
    const at = childPath(path, 'content', j);
    if (c.type === 'text') texts.push(c.text);
    else if (c.type === 'data' && data === undefined && texts.length === 0) data = c.data;
    else {
      const p = encodePart(c, at, { push: () => undefined });
      if (p !== undefined && typeof p['text'] === 'string') {
        loss(losses, 'tool-result-as-text', at, `a ${c.type} in a tool result is sent as text`, 'approximated');
        texts.push(p['text']);
      } else loss(losses, 'tool-result-content', at, `a tool result's output holds text or JSON: the ${c.type} is dropped`);
    }
  });
  if (data !== undefined && texts.length === 0) out['output'] = data;
  else {
    if (data !== undefined) {
      loss(losses, 'tool-result-as-text', path, 'a tool result of text and data is sent as text (the data as JSON)', 'approximated');
      texts.unshift(JSON.stringify(data));
    }
    if (texts.length > 1) loss(losses, 'tool-result-joined', path, 'a tool result of several text parts is sent as one text', 'approximated');
    out['output'] = texts.join('\n');
  }
  if (part.isError === true) out['is_error'] = true;
  else if (part.ext?.[A2A]?.['$isErrorFalse'] === true) out['is_error'] = false;
  restoreResidue(out, part.ext, A2A);
  return out as WireToolResult & JsonObject;
}
