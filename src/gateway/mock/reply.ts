/**
 * What the mock model answers, decided on the canonical request alone, so every dialect gets the
 * same answer to the same conversation:
 *
 * - The last message from the user side (role `user` or `tool`) is the prompt.
 * - Tool calls: when function tools are offered and tool choice is not `none`, the mock calls
 *   - the tool a forced choice names (`{type: 'tool'}`), or
 *   - every offered tool whose exact name appears as a whole word in the prompt's text, in order
 *     of first mention ("use get_weather for Paris" calls `get_weather`) — only the first when
 *     parallel tool calls are off — or
 *   - when the choice is `required` and no tool is named, the first tool.
 *   Arguments come from the tool's parameter schema (schema-value.ts); call ids are
 *   `call_<request hash>_<n>`. A prompt that only returns tool results never triggers new calls
 *   unless the choice forces one, so agent loops end.
 * - Otherwise the answer is text: the prompt's text parts joined by a newline (tool results: their
 *   text content), or `(no text)` when there is none.
 * - Usage: input tokens = ceil(characters of every text in the request / 4), at least 1; output
 *   tokens likewise over the answer's text and arguments.
 */
import type { Message } from '../../model/message.js';
import type { Part, ToolCallPart } from '../../model/part.js';
import type { Request } from '../../model/request.js';
import type { Response } from '../../model/response.js';
import type { FunctionTool } from '../../model/tool.js';
import { exampleValue } from './schema-value.js';

/** Fixed so answers are byte-for-byte repeatable (2025-01-01T00:00:00Z). */
export const MOCK_CREATED = 1735689600;

export interface ReplyMeta {
  /** The model the caller asked for (from the body, or the path for Gemini and Bedrock). */
  model: string;
  /** A short hex hash of the request body: ids are derived from it. */
  seed: string;
}

export function mockReply(request: Request, meta: ReplyMeta): Response {
  const prompt = lastPrompt(request.messages);
  const promptText = prompt ? textOf(prompt.parts, false) : '';
  const calls = toolCalls(request, prompt, promptText, meta.seed);
  const parts: Part[] = calls.length > 0 ? calls : [{ type: 'text', text: answerText(prompt) }];
  const outputText = parts.map((p) => (p.type === 'text' ? p.text : p.type === 'tool-call' ? p.name + JSON.stringify(p.arguments) : '')).join('');
  const inputTokens = tokens(request.messages.map((m) => textOf(m.parts, true)).join(''));
  const outputTokens = tokens(outputText);
  return {
    id: `mock-${meta.seed}`,
    model: meta.model,
    created: MOCK_CREATED,
    choices: [{ index: 0, message: { role: 'assistant', parts }, stopReason: { unified: calls.length > 0 ? 'tool-calls' : 'stop' } }],
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
  };
}

function lastPrompt(messages: Message[]): Message | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m !== undefined && (m.role === 'user' || m.role === 'tool')) return m;
  }
  return undefined;
}

/** Text parts joined by a newline; with `deep`, tool results' text too. */
function textOf(parts: Part[], deep: boolean): string {
  const out: string[] = [];
  for (const p of parts) {
    if (p.type === 'text') out.push(p.text);
    else if (deep && p.type === 'tool-result') out.push(textOf(p.content, false));
  }
  return out.join('\n');
}

function answerText(prompt: Message | undefined): string {
  if (prompt === undefined) return '(no text)';
  const results = prompt.parts.filter((p) => p.type === 'tool-result');
  const text = results.length > 0 ? results.map(resultText).join('\n') : textOf(prompt.parts, false);
  return text === '' ? '(no text)' : text;
}

function resultText(p: Part & { type: 'tool-result' }): string {
  return p.content.map((c) => (c.type === 'text' ? c.text : c.type === 'data' ? JSON.stringify(c.data) : `[${c.type}]`)).join('\n');
}

function toolCalls(request: Request, prompt: Message | undefined, text: string, seed: string): ToolCallPart[] {
  const tools = (request.tools ?? []).filter((t): t is FunctionTool => t.type === 'function');
  const choice = request.toolChoice ?? { type: 'auto' };
  if (tools.length === 0 || choice.type === 'none') return [];
  let chosen: FunctionTool[];
  if (choice.type === 'tool') {
    chosen = tools.filter((t) => t.name === choice.name).slice(0, 1);
  } else {
    const answersResults = prompt?.parts.some((p) => p.type === 'tool-result') === true;
    chosen = answersResults && choice.type !== 'required' ? [] : namedIn(text, tools);
    if (chosen.length === 0 && choice.type === 'required') chosen = tools.slice(0, 1);
    if (request.parallelToolCalls === false) chosen = chosen.slice(0, 1);
  }
  return chosen.map((t, i) => ({
    type: 'tool-call',
    id: `call_${seed}_${i}`,
    name: t.name,
    arguments: exampleValue(t.parameters ?? { type: 'object' }, t.name),
  }));
}

/** Tools whose name occurs in `text` as a whole word, by position of first mention. */
function namedIn(text: string, tools: FunctionTool[]): FunctionTool[] {
  const found: { tool: FunctionTool; at: number }[] = [];
  for (const tool of tools) {
    const at = wordIndex(text, tool.name);
    if (at >= 0) found.push({ tool, at });
  }
  return found.sort((a, b) => a.at - b.at).map((f) => f.tool);
}

const NAME_CHAR = /[A-Za-z0-9_.-]/;

function wordIndex(text: string, word: string): number {
  if (word === '') return -1;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = text[at - 1];
    const after = text[at + word.length];
    // A trailing dot ends a sentence ("call get_weather."), so it does not extend the name.
    const afterIsName = after !== undefined && NAME_CHAR.test(after) && !(after === '.' && !NAME_CHAR.test(text[at + word.length + 1] ?? ' '));
    if ((before === undefined || !NAME_CHAR.test(before)) && !afterIsName) return at;
  }
  return -1;
}

const tokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));
