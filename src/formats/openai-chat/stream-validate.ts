/**
 * Shape checks of one `chat.completion.chunk` (the SSE `data` object), by hand rather than with
 * the zod schemas: a stream has hundreds of small chunks and only a few fields per chunk to check.
 * Every problem is collected with its path `[<wire event index>, ...]`; compatible providers'
 * extra fields pass (they are kept, not rejected), and `null` is accepted wherever the spec's
 * optional fields are absent on some providers and null on others.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';
import { checkTextSize, overTextLimit } from '../shared/text-limit.js';
import { childPath } from '../shared/child-path.js';

type Kind = 'string' | 'number' | 'integer' | 'object' | 'array';

// Shared kind lists: the checks run on every chunk, so nothing is allocated per field.
const STR: readonly Kind[] = ['string'];
const NUM: readonly Kind[] = ['number'];
const INT: readonly Kind[] = ['integer'];
const OBJ: readonly Kind[] = ['object'];
const ARR: readonly Kind[] = ['array'];
const STR_ARR: readonly Kind[] = ['string', 'array'];
const TEXT_KEYS = ['refusal', 'reasoning_content', 'reasoning'];

function kindOf(value: JsonValue | undefined, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= 0;
    case 'object':
      return isJsonObject(value);
    case 'array':
      return Array.isArray(value);
  }
}

class Checker {
  readonly issues: Issue[] = [];
  constructor(readonly limits: Limits) {}

  /** `obj[key]` is absent, null, or of one of `kinds`. Returns whether it holds a value of them. */
  optional(obj: JsonObject, key: string, kinds: readonly Kind[], path: Path): boolean {
    const value = obj[key];
    if (value === undefined || value === null) return false;
    for (const k of kinds) if (kindOf(value, k)) return true;
    this.bad(value, kinds, childPath(path, key));
    return false;
  }

  required(obj: JsonObject, key: string, kind: Kind, path: Path): boolean {
    if (kindOf(obj[key], kind)) return true;
    this.bad(obj[key], [kind], childPath(path, key));
    return false;
  }

  text(obj: JsonObject, key: string, path: Path): void {
    if (this.optional(obj, key, STR, path)) checkTextSize(obj[key] as string, this.limits, childPath(path, key), this.issues);
  }

  private bad(value: JsonValue | undefined, kinds: readonly Kind[], path: Path): void {
    const received = value === undefined ? 'nothing' : Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
    const expected = kinds.map((k) => (k === 'integer' ? 'non-negative integer' : k)).join(' or ');
    this.issues.push({ code: 'invalid_type', path, message: `expected ${expected}, received ${received}`, expected, received });
  }
}

function checkToolFragment(c: Checker, frag: JsonValue, path: Path): void {
  if (!isJsonObject(frag)) {
    c.issues.push({ code: 'invalid_type', path, message: 'a tool_calls entry must be an object' });
    return;
  }
  c.optional(frag, 'index', INT, path);
  c.optional(frag, 'id', STR, path);
  c.optional(frag, 'type', STR, path);
  if (c.optional(frag, 'function', OBJ, path)) {
    const fn = frag['function'] as JsonObject;
    c.optional(fn, 'name', STR, childPath(path, 'function'));
    c.text(fn, 'arguments', childPath(path, 'function'));
  }
}

function checkDelta(c: Checker, delta: JsonObject, path: Path): void {
  c.optional(delta, 'role', STR, path);
  if (c.optional(delta, 'content', STR_ARR, path)) {
    const content = delta['content'];
    if (typeof content === 'string') checkTextSize(content, c.limits, childPath(path, 'content'), c.issues);
    else (content as JsonValue[]).forEach((p, j) => {
      if (!isJsonObject(p)) c.issues.push({ code: 'invalid_type', path: childPath(path, 'content', j), message: 'a content part must be an object' });
      else if (p['type'] === 'text') c.required(p, 'text', 'string', childPath(path, 'content', j));
    });
  }
  for (const key of TEXT_KEYS) c.text(delta, key, path);
  if (c.optional(delta, 'tool_calls', ARR, path)) {
    (delta['tool_calls'] as JsonValue[]).forEach((f, j) => checkToolFragment(c, f, childPath(path, 'tool_calls', j)));
  }
  if (c.optional(delta, 'function_call', OBJ, path)) {
    const fc = delta['function_call'] as JsonObject;
    c.optional(fc, 'name', STR, childPath(path, 'function_call'));
    c.text(fc, 'arguments', childPath(path, 'function_call'));
  }
  c.optional(delta, 'annotations', ARR, path);
}

function checkChoice(c: Checker, choice: JsonValue, path: Path): void {
  if (!isJsonObject(choice)) {
    c.issues.push({ code: 'invalid_type', path, message: 'a choice must be an object' });
    return;
  }
  c.required(choice, 'index', 'integer', path);
  if (c.optional(choice, 'delta', OBJ, path)) checkDelta(c, choice['delta'] as JsonObject, childPath(path, 'delta'));
  c.optional(choice, 'finish_reason', STR, path);
  if (c.optional(choice, 'logprobs', OBJ, path)) {
    const lp = choice['logprobs'] as JsonObject;
    c.optional(lp, 'content', ARR, childPath(path, 'logprobs'));
    c.optional(lp, 'refusal', ARR, childPath(path, 'logprobs'));
  }
}

/** Throws a ValidationError naming every malformed field of chunk `at`. */
export function checkChunk(chunk: JsonObject, at: number, limits: Limits): void {
  if (chunkValid(chunk, limits)) return;
  const c = new Checker(limits);
  const path: Path = [at];
  c.optional(chunk, 'id', STR, path);
  c.optional(chunk, 'model', STR, path);
  c.optional(chunk, 'created', NUM, path);
  c.optional(chunk, 'object', STR, path);
  // Some compatible servers (vLLM) send the usage-only chunk with `choices: null` or none at all.
  if (c.optional(chunk, 'choices', ARR, path)) {
    (chunk['choices'] as JsonValue[]).forEach((ch, i) => checkChoice(c, ch, [at, 'choices', i]));
  }
  if (c.optional(chunk, 'usage', OBJ, path)) {
    const u = chunk['usage'] as JsonObject;
    c.required(u, 'prompt_tokens', 'number', [at, 'usage']);
    c.required(u, 'completion_tokens', 'number', [at, 'usage']);
  }
  if (c.issues.length > 0) throw new ValidationError(c.issues);
}

// The same rules as a yes/no with no path, issue or Checker made: almost every chunk is valid, and
// only one that is not is walked again by the checks above to say where.

function optionalKind(value: JsonValue | undefined, kind: Kind): boolean {
  return value === undefined || value === null || kindOf(value, kind);
}

function textValid(value: JsonValue | undefined, limits: Limits): boolean {
  return value === undefined || value === null || (typeof value === 'string' && !overTextLimit(value, limits));
}

function fragmentValid(f: JsonValue | undefined, limits: Limits): boolean {
  if (!isJsonObject(f) || !optionalKind(f['index'], 'integer') || !optionalKind(f['id'], 'string') || !optionalKind(f['type'], 'string')) return false;
  const fn = f['function'];
  if (fn === undefined || fn === null) return true;
  return isJsonObject(fn) && optionalKind(fn['name'], 'string') && textValid(fn['arguments'], limits);
}

function deltaValid(d: JsonObject, limits: Limits): boolean {
  if (!optionalKind(d['role'], 'string')) return false;
  const content = d['content'];
  if (typeof content === 'string') {
    if (overTextLimit(content, limits)) return false;
  } else if (Array.isArray(content)) {
    for (const p of content) if (!isJsonObject(p) || (p['type'] === 'text' && typeof p['text'] !== 'string')) return false;
  } else if (content !== undefined && content !== null) return false;
  for (const key of TEXT_KEYS) if (!textValid(d[key], limits)) return false;
  const calls = d['tool_calls'];
  if (Array.isArray(calls)) {
    for (const f of calls) if (!fragmentValid(f, limits)) return false;
  } else if (calls !== undefined && calls !== null) return false;
  const fc = d['function_call'];
  if (fc !== undefined && fc !== null && !(isJsonObject(fc) && optionalKind(fc['name'], 'string') && textValid(fc['arguments'], limits))) return false;
  return optionalKind(d['annotations'], 'array');
}

function choiceValid(ch: JsonValue | undefined, limits: Limits): boolean {
  if (!isJsonObject(ch) || !kindOf(ch['index'], 'integer')) return false;
  const delta = ch['delta'];
  if (delta !== undefined && delta !== null && !(isJsonObject(delta) && deltaValid(delta, limits))) return false;
  if (!optionalKind(ch['finish_reason'], 'string')) return false;
  const lp = ch['logprobs'];
  return lp === undefined || lp === null || (isJsonObject(lp) && optionalKind(lp['content'], 'array') && optionalKind(lp['refusal'], 'array'));
}

function chunkValid(chunk: JsonObject, limits: Limits): boolean {
  if (!optionalKind(chunk['id'], 'string') || !optionalKind(chunk['model'], 'string') || !optionalKind(chunk['created'], 'number') || !optionalKind(chunk['object'], 'string')) return false;
  const choices = chunk['choices'];
  if (Array.isArray(choices)) {
    for (const ch of choices) if (!choiceValid(ch, limits)) return false;
  } else if (choices !== undefined && choices !== null) return false;
  const u = chunk['usage'];
  return u === undefined || u === null || (isJsonObject(u) && kindOf(u['prompt_tokens'], 'number') && kindOf(u['completion_tokens'], 'number'));
}
