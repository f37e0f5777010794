/**
 * Encode side: whether the decoder (compact.ts, compact-reduce.ts) would read a group of written
 * A2A messages as part of what came before it: the continuation of the last message, a chunk run
 * that goes on or ends, or a call already open. Such a group is stashed under `preserve`, so the
 * decoder reads it apart. Works on either version's wire (role, ids, metadata and data parts are
 * where both versions put them).
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import { CANONICAL_TYPE, MESSAGE_TYPES as T } from './a2a-api.js';
import { isContinuationOf } from './message-ids.js';

interface Seen {
  id: string;
  type: string | undefined;
  agent: boolean;
}

function seen(w: JsonObject): Seen {
  const meta = w['metadata'];
  const type = isJsonObject(meta) && typeof meta[CANONICAL_TYPE] === 'string' ? meta[CANONICAL_TYPE] : undefined;
  return { id: String(w['messageId']), type, agent: w['role'] === 'ROLE_AGENT' || w['role'] === 'agent' };
}

function callIds(w: JsonObject): string[] {
  const out: string[] = [];
  for (const p of (w['parts'] as JsonValue[] | undefined) ?? []) {
    const data = isJsonObject(p) ? p['data'] : undefined;
    const calls = isJsonObject(data) ? data['tool_calls'] : undefined;
    if (Array.isArray(calls)) for (const c of calls) if (isJsonObject(c) && typeof c['call_id'] === 'string') out.push(c['call_id']);
  }
  return out;
}

const carriesCalls = (s: Seen): boolean => s.agent && (s.type === T.toolStart || s.type === T.toolArgs);
const closesCalls = (s: Seen): boolean => !s.agent || s.type === T.toolResult;

/** The written messages so far, as much of them as the check needs. */
export class WireTrail {
  private last: Seen | undefined;
  /** The id of the first message of the decoder's message the last one belongs to. */
  private head = '';
  private open = new Set<string>();

  /** Whether the decoder would join `group` (its first message or its calls) to what came before. */
  joins(group: readonly JsonObject[]): boolean {
    const first = group[0];
    if (first !== undefined && this.continues(seen(first))) return true;
    for (const w of group) {
      const s = seen(w);
      if (closesCalls(s)) return false;
      if (carriesCalls(s) && callIds(w).some((id) => this.open.has(id))) return true;
    }
    return false;
  }

  /** Whether the decoder would read a message of this id, role and type as continuing the last one by its id. */
  joinsById(id: string, agent: boolean, type: string | null): boolean {
    return type !== null && this.continuesById({ id, agent, type });
  }

  private continues(s: Seen): boolean {
    const last = this.last;
    if (last === undefined) return false;
    if (last.agent && last.type === T.chunk && s.agent && (s.type === T.chunk || s.type === T.end)) return true;
    return this.continuesById(s);
  }

  private continuesById(s: Seen): boolean {
    const last = this.last;
    if (last === undefined || last.type === undefined || s.type === undefined) return false;
    const results = (x: Seen) => x.type === T.toolResult;
    if (last.agent !== s.agent || results(last) !== results(s)) return false;
    return s.id === last.id || isContinuationOf(s.id, this.head);
  }

  /** Records the written messages of a group. */
  add(group: readonly JsonObject[]): void {
    for (const w of group) {
      const s = seen(w);
      if (!this.continues(s)) this.head = s.id;
      if (closesCalls(s)) this.open.clear();
      if (carriesCalls(s)) for (const id of callIds(w)) this.open.add(id);
      this.last = s;
    }
  }
}
