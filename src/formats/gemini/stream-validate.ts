/**
 * Validation of one streamGenerateContent chunk: the response schema (shape and types), and per
 * part one data member with its required fields, as for a whole response. A functionCall may lack
 * its name here: Vertex streams a call's arguments in parts that carry no name (the decoder checks
 * that the call they continue is open). Paths start with the wire event's index.
 */
import { ValidationError, type Issue } from '../../model/errors.js';
import { isJsonObject, type JsonObject } from '../../model/json.js';
import { schemaCheck } from '../shared/zod-fast.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { responseSchema } from './schema.js';
import { chunkOk } from './stream-fast.js';
import { DATA_MEMBERS, field, plainMember } from './validate.js';
import { snakeCase } from './wire-util.js';

const REQUIRED: Record<string, readonly string[]> = {
  inlineData: ['mimeType', 'data'],
  fileData: ['fileUri'],
  functionResponse: ['name', 'response'],
  executableCode: ['language', 'code'],
  codeExecutionResult: ['outcome'],
};

const responseCheck = schemaCheck(responseSchema);

export function validateChunk(chunk: JsonObject, at: number): void {
  const issues: Issue[] = [];
  // The hand check answers a valid chunk; the schema runs only when it says no, for the issues.
  if (!chunkOk(chunk)) {
    const raw = responseCheck(chunk);
    if (raw.length > 0) for (const i of fromZodIssues(raw)) issues.push({ ...i, path: [at, ...i.path] });
  }
  const candidates = field(chunk, 'candidates');
  if (Array.isArray(candidates)) {
    for (let k = 0; k < candidates.length; k++) {
      const c: unknown = candidates[k];
      const content = isJsonObject(c) ? field(c, 'content') : undefined;
      const parts = isJsonObject(content) ? content['parts'] : undefined;
      if (!Array.isArray(parts)) continue;
      for (let j = 0; j < parts.length; j++) {
        const p: unknown = parts[j];
        if (isJsonObject(p)) checkPart(p, at, k, j, issues);
      }
    }
  }
  if (issues.length > 0) throw new ValidationError(issues);
}

/** One part of candidate `k`; its path (`at`, candidates, k, content, parts, j) is built only for an issue. */
function checkPart(part: JsonObject, at: number, k: number, j: number, issues: Issue[]): void {
  // The plain shape (one data member, no field in both spellings) in one pass over its keys.
  let member = plainMember(part);
  if (member === undefined) {
    const present = DATA_MEMBERS.filter((m) => field(part, m) !== undefined);
    // No known member but other keys: a part kind newer than this codec, kept whole.
    if (present.length === 0 && Object.keys(part).length > 0) return;
    if (present.length !== 1) {
      issues.push({
        code: 'invalid_part',
        path: [at, 'candidates', k, 'content', 'parts', j],
        message: present.length === 0 ? 'a part needs one data member' : `a part holds exactly one data member, got ${present.join(', ')}`,
      });
      return;
    }
    member = present[0] as string;
  }
  const value = field(part, member);
  if (!isJsonObject(value)) return; // the schema reported it
  const key = part[member] === undefined ? snakeCase(member) : member;
  for (const name of REQUIRED[member] ?? []) {
    if (field(value, name) === undefined) issues.push({ code: 'invalid_type', path: [at, 'candidates', k, 'content', 'parts', j, key, name], message: `'${name}' is required`, expected: 'present', received: 'undefined' });
  }
}
