/**
 * Validation of Gemini bodies: one zod pass for shape and types, then the API's own rules, read
 * in either proto3 JSON spelling: a part has exactly one data member; required fields are there;
 * a functionResponse answers an earlier functionCall (by id, or by name when it has no id); text
 * is within the size limit. Every issue is collected, then one ValidationError is thrown.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Limits } from '../codec.js';
import { checkTextSize } from '../shared/text-limit.js';
import { schemaCheck } from '../shared/zod-fast.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { requestSchema, responseSchema } from './schema.js';
import { snakeCase } from './wire-util.js';
import { requireObject } from '../shared/require-object.js';
import { childPath } from '../shared/child-path.js';

/** The members of Part's `data` oneof. */
export const DATA_MEMBERS = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult'] as const;

const REQUIRED: Record<string, readonly string[]> = {
  inlineData: ['mimeType', 'data'],
  fileData: ['fileUri'],
  functionCall: ['name'],
  functionResponse: ['name', 'response'],
  executableCode: ['language', 'code'],
  codeExecutionResult: ['outcome'],
};

/** A field in either spelling. */
export function field(obj: JsonObject, name: string): JsonValue | undefined {
  const v = obj[name];
  return v !== undefined ? v : obj[snakeCase(name)];
}

// The fast check answers first; zod parses only a body it refuses, to say what is wrong (zod-fast.ts).
const requestCheck = schemaCheck(requestSchema);
const responseCheck = schemaCheck(responseSchema);

export function validateRequest(body: unknown, limits: Limits): JsonObject {
  const obj = requireObject(body);
  const issues = fromZodIssues(requestCheck(obj));
  const contents = field(obj, 'contents');
  if (contents === undefined) issues.push(missing(['contents'], 'contents'));
  const system = field(obj, 'systemInstruction');
  if (isJsonObject(system)) {
    const path = [key(obj, 'systemInstruction')];
    checkContent(system, path, limits, issues);
    // "Currently, text only" (the API reference on systemInstruction).
    const parts = system['parts'];
    if (Array.isArray(parts)) {
      parts.forEach((p, j) => {
        if (isJsonObject(p) && field(p, 'text') === undefined) issues.push({ code: 'invalid_part', path: [...path, 'parts', j], message: 'systemInstruction holds text parts only' });
      });
    }
  }
  if (Array.isArray(contents)) {
    const calls = new Calls();
    contents.forEach((c, i) => {
      if (isJsonObject(c)) checkContent(c, ['contents', i], limits, issues, calls);
    });
  }
  checkTools(obj, issues);
  if (issues.length > 0) throw new ValidationError(issues);
  return obj;
}

export function validateResponse(body: unknown, limits: Limits): JsonObject {
  const obj = requireObject(body);
  const err = obj['error'];
  if (isJsonObject(err) && obj['candidates'] === undefined) {
    // An error body (google.rpc.Status) is not a response: converting it would invent an empty answer.
    const said = [err['status'], err['message']].filter((v) => typeof v === 'string').join(': ');
    throw new ValidationError([{ code: 'error_body', path: ['error'], message: `this is a Gemini error body, not a generateContent response${said ? ` (${said})` : ''}` }]);
  }
  const issues = fromZodIssues(responseCheck(obj));
  const candidates = field(obj, 'candidates');
  if (Array.isArray(candidates)) {
    candidates.forEach((cand, k) => {
      const content = isJsonObject(cand) ? field(cand, 'content') : undefined;
      if (isJsonObject(content)) checkContent(content, ['candidates', k, 'content'], limits, issues, new Calls(), typeof content['role'] === 'string' ? content['role'] : 'model');
    });
  }
  if (issues.length > 0) throw new ValidationError(issues);
  return obj;
}

/** The key actually used on the wire for a field, for paths. */
function key(obj: JsonObject, name: string): string {
  return obj[name] === undefined && obj[snakeCase(name)] !== undefined ? snakeCase(name) : name;
}

function missing(path: Path, name: string): Issue {
  return { code: 'invalid_type', path, message: `'${name}' is required`, expected: 'present', received: 'undefined' };
}

/** Function calls seen so far, for pairing function responses. */
class Calls {
  ids = new Set<string>();
  names = new Set<string>();
}

function checkContent(content: JsonObject, path: Path, limits: Limits, issues: Issue[], calls?: Calls, role?: string): void {
  const parts = content['parts'];
  if (!Array.isArray(parts)) return;
  const turn = role ?? content['role'];
  // Paths are built only for an issue: nearly every part has none.
  for (let j = 0; j < parts.length; j++) {
    const p = parts[j];
    if (!isJsonObject(p)) continue;
    const member = plainMember(p);
    if (member === undefined) checkPart(p, childPath(path, 'parts', j), limits, issues, calls);
    else checkMember(p, member, path, j, limits, issues, calls);
    // The model makes function calls; one in a user turn has no meaning (and no canonical place).
    if (turn !== 'model' && field(p, 'functionCall') !== undefined) {
      issues.push({ code: 'misplaced_function_call', path: childPath(path, 'parts', j, key(p, 'functionCall')), message: "a functionCall belongs in a 'model' turn" });
    }
  }
}

/** Both spellings of each data member, to its camelCase name. */
const DATA_KEYS = new Map<string, string>(DATA_MEMBERS.flatMap((m) => [[m, m], [snakeCase(m), m]]));
/** The fields checkPart reports when given in both spellings. */
const TWO_SPELLINGS = [...DATA_MEMBERS, 'videoMetadata', 'thoughtSignature', 'partMetadata', 'mediaResolution'];
/** Their snake_case spellings (where distinct), to the camelCase one. */
const SNAKE_TWIN = new Map(TWO_SPELLINGS.filter((n) => snakeCase(n) !== n).map((n) => [snakeCase(n), n]));

/**
 * The data member of a part in the shape nearly every part has — one data member, no field in
 * both spellings, a plain object — in one pass over its own keys; undefined sends the part to
 * checkPart, which names what is wrong in its fixed order.
 */
export function plainMember(part: JsonObject): string | undefined {
  const proto = Object.getPrototypeOf(part) as unknown;
  if (proto !== Object.prototype && proto !== null) return undefined;
  let member: string | undefined;
  for (const k in part) {
    if (part[k] === undefined) continue;
    const twin = SNAKE_TWIN.get(k);
    if (twin !== undefined && part[twin] !== undefined) return undefined;
    const m = DATA_KEYS.get(k);
    if (m === undefined) continue;
    if (member !== undefined) return undefined;
    member = m;
  }
  return member;
}

function checkPart(part: JsonObject, path: Path, limits: Limits, issues: Issue[], calls?: Calls): void {
  const present: string[] = [];
  for (const name of TWO_SPELLINGS) {
    const snake = snakeCase(name);
    if (snake !== name && part[name] !== undefined && part[snake] !== undefined) {
      issues.push({ code: 'duplicate_field', path: childPath(path, snake), message: `both '${name}' and '${snake}' given` });
    }
  }
  for (const name of DATA_MEMBERS) if (field(part, name) !== undefined) present.push(name);
  // A part with no known data member but other keys is a newer part kind: kept whole.
  if (present.length === 0 && Object.keys(part).length > 0) return;
  if (present.length !== 1) {
    issues.push({
      code: 'invalid_part',
      path,
      message: present.length === 0 ? 'a part needs one data member' : `a part holds exactly one data member, got ${present.join(', ')}`,
      expected: `one of ${DATA_MEMBERS.join(', ')}`,
    });
    return;
  }
  checkMember(part, present[0] as string, path, undefined, limits, issues, calls);
}

/**
 * The rules on a part's one data member: text size, required fields, function names and pairing.
 * The part's path is `at`, or `at` + parts + `j`: built only for an issue (no closure either).
 */
function checkMember(part: JsonObject, member: string, at: Path, j: number | undefined, limits: Limits, issues: Issue[], calls?: Calls): void {
  const value = field(part, member);
  if (member === 'text') {
    // checkTextSize's own cheap bound, tested first so that no path is built for a short text.
    if (typeof value === 'string' && value.length * 3 > limits.maxTextBytes) checkTextSize(value, limits, memberPath(part, member, at, j), issues);
    return;
  }
  if (!isJsonObject(value)) return; // zod reported it
  for (const name of REQUIRED[member] ?? []) if (field(value, name) === undefined) issues.push(missing(childPath(memberPath(part, member, at, j), name), name));
  if (calls === undefined) return;
  const id = field(value, 'id');
  const name = field(value, 'name');
  if (typeof name === 'string' && (member === 'functionCall' || member === 'functionResponse') && !FUNCTION_NAME.test(name)) checkName(name, childPath(memberPath(part, member, at, j), 'name'), issues);
  if (member === 'functionCall') {
    if (typeof id === 'string') calls.ids.add(id);
    if (typeof name === 'string') calls.names.add(name);
  } else if (member === 'functionResponse' && typeof name === 'string') {
    const known = (typeof id === 'string' && calls.ids.has(id)) || calls.names.has(name);
    if (!known) {
      issues.push({
        code: 'function_response_without_call',
        path: memberPath(part, member, at, j),
        message: `functionResponse '${typeof id === 'string' ? id : name}' answers no earlier functionCall`,
      });
    }
  }
}

function memberPath(part: JsonObject, member: string, at: Path, j: number | undefined): Path {
  return j === undefined ? childPath(at, key(part, member)) : childPath(at, 'parts', j, key(part, member));
}

function checkTools(body: JsonObject, issues: Issue[]): void {
  const raw = field(body, 'tools');
  const tools = isJsonObject(raw) ? [raw] : raw;
  if (!Array.isArray(tools)) return;
  tools.forEach((t, i) => {
    if (!isJsonObject(t)) return;
    const decls = field(t, 'functionDeclarations');
    if (!Array.isArray(decls)) return;
    decls.forEach((d, k) => {
      if (!isJsonObject(d)) return;
      const name = field(d, 'name');
      const path = childPath((isJsonObject(raw) ? ['tools'] : ['tools', i]), key(t, 'functionDeclarations'), k, 'name');
      if (name === undefined) issues.push(missing(path, 'name'));
      else if (typeof name === 'string') checkName(name, path, issues);
    });
  });
}

/** FunctionDeclaration.name: letters, digits, underscores, colons, dots and dashes; 64 at most; no leading digit. */
const FUNCTION_NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;

function checkName(name: string, path: Path, issues: Issue[]): void {
  if (FUNCTION_NAME.test(name)) return;
  issues.push({ code: 'invalid_name', path, message: `'${name}' is not a valid Gemini function name`, expected: FUNCTION_NAME.source, received: name });
}
