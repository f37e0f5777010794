/**
 * Which message role an event's payloads speak for, when no metadata blob says it (plain
 * conversational events, and this codec's own events, which carry a metadata blob only when needed).
 * A payload's kind is its slot:
 * - a conversational USER or ASSISTANT text speaks for that role; a TOOL text right before a
 *   results blob is that blob's summary and says nothing; any other TOOL text is a minimal tool
 *   result and speaks for `tool`; OTHER says nothing;
 * - blobs say nothing, except that with no conversational role at all a toolCalls blob makes the
 *   event an assistant message and a toolCallResults blob a tool message (else it is a user message).
 * A change of speaking role starts the next message: `[USER, ASSISTANT]` (the Python SDK's one turn
 * per event) reads as two messages. The encoder uses the same rule to decide whether an event needs
 * a metadata blob to read back as the one message it was written for.
 */
import type { Role } from '../../model/message.js';
import type { WireRole } from './agentcore-memory-api.js';

export type Slot =
  | { kind: 'conversational'; role: WireRole }
  | { kind: 'calls' }
  | { kind: 'results' }
  | { kind: 'content' }
  | { kind: 'metadata' }
  | { kind: 'stash' };

export interface Segment {
  role: Role;
  /** Payload indices [start, end). */
  start: number;
  end: number;
}

/** Whether the conversational TOOL text at `i` is the summary of the results blob right after it. */
export function isSummary(slots: readonly Slot[], i: number): boolean {
  const s = slots[i];
  return s?.kind === 'conversational' && s.role === 'TOOL' && slots[i + 1]?.kind === 'results';
}

function speaks(slots: readonly Slot[], i: number): Role | undefined {
  const s = slots[i];
  if (s?.kind !== 'conversational') return undefined;
  if (s.role === 'USER') return 'user';
  if (s.role === 'ASSISTANT') return 'assistant';
  if (s.role === 'TOOL' && !isSummary(slots, i)) return 'tool';
  return undefined;
}

/** The messages a list of payloads reads as without a role from a metadata blob (at least one). */
export function plainSegments(slots: readonly Slot[]): Segment[] {
  // Loops and locals, no closures: this runs for every event without a metadata blob (the list
  // is made only when the role changes: one segment is the usual answer).
  let out: Segment[] | undefined;
  let role: Role | undefined;
  let start = 0;
  for (let i = 0; i < slots.length; i++) {
    const r = speaks(slots, i);
    if (r === undefined) continue;
    if (role === undefined) role = r;
    else if (r !== role) {
      (out ??= []).push({ role, start, end: i });
      role = r;
      start = i;
    }
  }
  const last: Segment = { role: role ?? fallbackRole(slots), start, end: slots.length };
  if (out === undefined) return [last];
  out.push(last);
  return out;
}

function fallbackRole(slots: readonly Slot[]): Role {
  let results = false;
  for (const s of slots) {
    if (s.kind === 'calls') return 'assistant';
    if (s.kind === 'results') results = true;
  }
  return results ? 'tool' : 'user';
}
