/**
 * Canonical parts that become whole Responses items: reasoning, function_call and
 * function_call_output. Own residue (ids, status ...) is written back; what another origin minted
 * (Anthropic thinking, server-tool calls) has no item here and is reported.
 */
import type { JsonObject } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Part, ReasoningPart, ToolCallPart, ToolResultPart } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { TOOL_ERROR_PREFIX } from '../shared/tool-error-prefix.js';
import { inputPart, loss, own, restoreOwn } from './content-encode.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { argumentsValue } from './validate.js';
import { jsonTextEquals } from '../shared/json-text.js';
import { randomHex32 } from '../shared/random-hex.js';
import { reportForeignExt } from '../shared/residue.js';
import { childPath } from '../shared/child-path.js';

const OR = OPENAI_RESPONSES;

/**
 * A reasoning item, only for reasoning this format minted: its id, summary and encrypted content
 * go back byte-exact. Reasoning of any other origin (Anthropic thinking and its signature) would be
 * meaningless or rejected here, so it is dropped with `foreign-reasoning`.
 */
export function reasoningItem(part: ReasoningPart, path: Path, losses: LossSink): JsonObject | undefined {
  if (part.origin !== OR) {
    loss(losses, 'foreign-reasoning', path, `reasoning from ${part.origin} cannot be sent to the Responses API`);
    return undefined;
  }
  reportForeignExt(part.ext, OR, path, losses);
  const rest = own(part.ext);
  const out: JsonObject = { type: 'reasoning' };
  if (part.id !== undefined) out['id'] = part.id;
  // summary is required; a list that did not map to strings is residue and written back below.
  if (part.summary !== undefined) out['summary'] = part.summary.map((text) => ({ type: 'summary_text', text }));
  else if (rest?.['summary'] === undefined) out['summary'] = [];
  if (part.encryptedContent !== undefined) out['encrypted_content'] = part.encryptedContent;
  if (part.text !== undefined) out['content'] = [{ type: 'reasoning_text', text: part.text }];
  if (part.signature !== undefined || part.redactedData !== undefined) {
    loss(losses, 'reasoning-signature', path, 'Responses reasoning items carry encrypted_content, not signatures or redacted data');
  }
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'Responses has no cache breakpoints on reasoning');
  restoreOwn(out, part.ext);
  return out;
}

/**
 * A function_call item; calls the provider ran itself belong to another API's server tools.
 * Arguments text that is not JSON (a response cut off mid-call) is kept in a response, where it
 * is what the model wrote; a request must carry JSON, so the parsed arguments go instead.
 */
export function functionCallItem(part: ToolCallPart, path: Path, losses: LossSink, inResponse: boolean): JsonObject | undefined {
  if (part.providerExecuted === true) {
    loss(losses, 'provider-executed-tool', path, `call of provider-run tool '${part.name}' has no Responses equivalent`);
    return undefined;
  }
  reportForeignExt(part.ext, OR, path, losses);
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'Responses has no cache breakpoints on function calls');
  let args = part.argumentsJson ?? JSON.stringify(part.arguments);
  // Text JSON.stringify just wrote is JSON: only argument text that came with the part is checked.
  // Text that is exactly its value's JSON (the common case, checked without allocating) is JSON too,
  // so only other text (spaced, or not JSON) is parsed.
  const written = part.argumentsJson === undefined && typeof args === 'string';
  if (!inResponse && !written && !jsonTextEquals(part.arguments, args) && argumentsValue(args) === undefined) {
    args = JSON.stringify(part.arguments);
    loss(losses, 'invalid-arguments', childPath(path, 'argumentsJson'), `tool arguments are not valid JSON; ${args} sent instead`, 'approximated');
  }
  const out: JsonObject = { type: 'function_call', call_id: part.id, name: part.name, arguments: args };
  // A call of another origin in a response gets what the API populates on returned items: an
  // `fc_` id (the prefix the API checks on replay) and a status. This codec's own calls keep theirs.
  if (mintsCallItem(part, inResponse)) {
    out['id'] = `fc_${randomHex32()}`;
    out['status'] = 'completed';
  }
  restoreOwn(out, part.ext);
  return out;
}

/** Whether functionCallItem makes up the item's id and status (a response's call of another origin). */
export function mintsCallItem(part: ToolCallPart, inResponse: boolean): boolean {
  return inResponse && part.providerExecuted !== true && own(part.ext) === undefined;
}

/** `output` as one string: the single text, or texts joined (reported). */
function joinedText(texts: string[], path: Path, losses: LossSink): string {
  if (texts.length > 1) loss(losses, 'text-joined', childPath(path, 'content'), `${texts.length} text parts joined into one output string`, 'approximated');
  return texts.join('\n\n');
}

/** A tool result as a function_call_output item: a string, or a list of input parts. */
export function functionOutputItem(part: ToolResultPart, callId: string, path: Path, losses: LossSink): JsonObject {
  reportForeignExt(part.ext, OR, path, losses);
  let output: JsonObject[string];
  const first = part.content[0];
  // The common result, one text part of a string output: written as is (no closures, no join).
  if (part.stringContent === true && part.content.length === 1 && first?.type === 'text') output = first.text;
  else if (part.stringContent === true && part.content.every((p) => p.type === 'text')) {
    output = joinedText(part.content.map((p) => (p as Part & { type: 'text' }).text), path, losses);
  } else {
    const list: JsonObject[] = [];
    part.content.forEach((p, k) => {
      const json = inputPart(p, childPath(path, 'content', k), losses);
      if (json) list.push(json);
    });
    output = list;
  }
  if (part.isError === true) {
    loss(losses, 'tool-error-flag', path, `function_call_output has no error flag: the output starts with '${TOOL_ERROR_PREFIX.trim()}'`, 'approximated');
    output = typeof output === 'string' ? TOOL_ERROR_PREFIX + output : [{ type: 'input_text', text: TOOL_ERROR_PREFIX.trim() }, ...(output as JsonObject[])];
  }
  if (part.isError === false) loss(losses, 'tool-error-flag', path, 'function_call_output has no error flag: the explicit isError false is dropped');
  if (part.providerExecuted === true) loss(losses, 'provider-executed-tool', path, 'a result of a provider-run tool is sent as a function_call_output', 'approximated');
  if (part.cache) loss(losses, 'cache-control', childPath(path, 'cache'), 'Responses has no cache breakpoint on a whole function_call_output');
  const out: JsonObject = { type: 'function_call_output', call_id: callId, output };
  restoreOwn(out, part.ext);
  return out;
}
