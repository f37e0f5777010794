/**
 * Anthropic content blocks as canonical stream events, for the stream decoder. Blocks that grow by
 * deltas (text, thinking, redacted thinking, the three tool uses) open a canonical block and are
 * closed by `closeBlock`; compaction is held and filled by `compaction_delta`, then given whole;
 * every other block is whole at its start and becomes one `part` event, decoded by the response
 * codec's own block decoder so both paths give the same part shapes and residue.
 */
import type { Citation } from '../../model/citation.js';
import { ValidationError } from '../../model/errors.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { StreamEvent } from '../../model/stream-event.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { OPAQUE_TYPES, SERVER_RESULT_TYPES } from './anthropic-messages-api.js';
import { decodeBlock } from './content-decode.js';
import { responseBlock, textBlock } from './schema.js';
import { schemaIssues } from '../shared/zod-fast.js';
import { ID } from './wire-util.js';

/** What the decoder remembers of an open block. `args` collects tool input fragments. */
export type OpenBlock =
  | { kind: 'text'; index: number }
  | { kind: 'reasoning'; index: number; redacted: boolean }
  | { kind: 'tool-call'; index: number; args: string[]; input: JsonObject }
  | { kind: 'held'; index: number; block: JsonObject }
  | { kind: 'whole'; index: number };

const STREAMED: ReadonlySet<string> = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use', 'mcp_tool_use']);
/** Block types this codec validates; any other (newer) type is kept whole as a provider block. */
const KNOWN: ReadonlySet<string> = new Set([
  ...STREAMED,
  'mcp_tool_result',
  'web_search_tool_result',
  ...SERVER_RESULT_TYPES,
  ...OPAQUE_TYPES,
]);
/** Blocks that start empty and are filled by deltas of their own type, then given whole. */
const HELD: ReadonlySet<string> = new Set(['compaction']);

export function invalid(path: Path, message: string, code = 'invalid_event'): ValidationError {
  return new ValidationError([{ code, path, message }]);
}

/** Checks a block of a known type against the response schema (a thinking start may lack its signature). */
function check(b: JsonObject, path: Path): void {
  if (!KNOWN.has(b['type'] as string)) return;
  const shaped = b['type'] === 'thinking' && b['signature'] === undefined ? { ...b, signature: '' } : b;
  const found = schemaIssues(responseBlock, shaped);
  if (found.length > 0) throw new ValidationError(fromZodIssues(found, path));
}

/**
 * Opens the block `b` at canonical `index`: its start events (plus the content its start already
 * holds) and what the decoder keeps until it stops. `whole` means it arrived complete (in
 * message_start's content), so held blocks are given at once.
 */
export function openBlock(b: JsonObject, index: number, path: Path, whole: boolean): { events: StreamEvent[]; open: OpenBlock } {
  check(b, path);
  const type = b['type'] as string;
  if (!STREAMED.has(type)) {
    if (HELD.has(type) && !whole) return { events: [], open: { kind: 'held', index, block: { ...b } } };
    return { events: [{ type: 'part', index, part: decodeBlock(b) }], open: { kind: 'whole', index } };
  }
  if (type === 'text') {
    const part = decodeBlock(b);
    // A start with `citations: []` (citations enabled, none yet) is written back the same way.
    const cites = b['citations'];
    const ext = Array.isArray(cites) && cites.length === 0 ? { ...part.ext, [ID]: { ...part.ext?.[ID], $citations: true } } : part.ext;
    const events: StreamEvent[] = [{ type: 'text-start', index, ...(ext ? { ext } : {}) }];
    if (part.type === 'text') {
      if (part.text !== '') events.push({ type: 'text-delta', index, delta: part.text });
      for (const citation of part.citations ?? []) events.push({ type: 'citation', index, citation });
    }
    return { events, open: { kind: 'text', index } };
  }
  if (type === 'thinking' || type === 'redacted_thinking') {
    const redacted = type === 'redacted_thinking';
    const part = decodeBlock(redacted || b['signature'] !== undefined ? b : { ...b, signature: '' });
    if (part.type !== 'reasoning') throw invalid(path, `a ${type} block did not decode as reasoning`);
    const events: StreamEvent[] = [
      { type: 'reasoning-start', index, origin: ID, ...(redacted ? { redactedData: b['data'] as string } : {}), ...(part.ext ? { ext: part.ext } : {}) },
    ];
    if (part.text) events.push({ type: 'reasoning-delta', index, text: part.text });
    if (part.signature) events.push({ type: 'reasoning-delta', index, signature: part.signature });
    return { events, open: { kind: 'reasoning', index, redacted } };
  }
  const part = decodeBlock(b);
  if (part.type !== 'tool-call') throw invalid(path, `a ${type} block did not decode as a tool call`);
  const start: StreamEvent = { type: 'tool-call-start', index, id: part.id, name: part.name };
  if (part.providerExecuted) start.providerExecuted = true;
  if (part.ext) start.ext = part.ext;
  return { events: [start], open: { kind: 'tool-call', index, args: [], input: b['input'] as JsonObject } };
}

/**
 * Closes an open block. A tool call's end carries its whole argument text: the deltas joined, or
 * the input its start held when no delta came (then also sent as one delta, for readers of deltas).
 */
export function closeBlock(open: OpenBlock): StreamEvent[] {
  const { index } = open;
  switch (open.kind) {
    case 'text':
      return [{ type: 'text-end', index }];
    case 'reasoning':
      return [{ type: 'reasoning-end', index }];
    case 'tool-call': {
      if (open.args.length > 0) return [{ type: 'tool-call-end', index, arguments: open.args.join('') }];
      const text = JSON.stringify(open.input);
      return [
        { type: 'tool-call-delta', index, delta: text },
        { type: 'tool-call-end', index, arguments: text },
      ];
    }
    case 'held':
      return [{ type: 'part', index, part: decodeBlock(open.block) }];
    case 'whole':
      return [];
  }
}

/** A citations_delta's citation, checked and decoded as the response codec decodes text citations. */
export function decodeCitation(citation: JsonValue | undefined, path: Path): Citation {
  const text = { type: 'text', text: '', citations: [citation ?? null] };
  const result = textBlock.safeParse(text);
  if (!result.success) {
    // Paths point into the citation, not into the wrapper built here.
    const issues = fromZodIssues(result.error.issues).map((i) => ({ ...i, path: [...path, ...i.path.slice(2)] }));
    throw new ValidationError(issues);
  }
  const part = decodeBlock(text as JsonObject);
  const [decoded] = part.type === 'text' ? (part.citations ?? []) : [];
  if (decoded === undefined) throw invalid(path, 'the citation did not decode');
  return decoded;
}

/** compaction_delta carries the block's final value: assign, do not append. */
export function applyCompactionDelta(block: JsonObject, delta: JsonObject): void {
  if ('content' in delta) block['content'] = delta['content'] ?? null;
  if ('encrypted_content' in delta) block['encrypted_content'] = delta['encrypted_content'] ?? null;
}
