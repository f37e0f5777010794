/**
 * Canonical Request -> `{ "events": [...] }`: one event per message (mapping.ts), each ready for
 * CreateEvent. System and developer messages are not events (reported; under `preserve` stashed
 * with the next event, or in the body when there is none). AgentCore events hold no model, tools,
 * sampling or output format: each such field is a loss, stashed in the body under `preserve`.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { Request } from '../../model/request.js';
import type { EncodeContext } from '../codec.js';
import { hasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { putTopStash } from '../shared/stash.js';
import { stashGroups } from '../shared/stash-groups.js';
import { AGENTCORE } from './agentcore-memory-api.js';
import { learnCalls, namesFor } from './call-names.js';
import { own } from './content.js';
import { encodeMessageGroup, type At } from './mapping.js';

/** Top-level canonical fields, all without a place in AgentCore events. */
const TOP_FIELDS = [
  'model', 'tools', 'toolChoice', 'parallelToolCalls', 'maxTokens', 'temperature', 'topP', 'topK', 'stop', 'seed',
  'presencePenalty', 'frequencyPenalty', 'responseFormat', 'reasoning', 'user', 'candidateCount', 'stream', 'metadata',
] as const;

const isSystem = (m: Message): boolean => m.role === 'system' || m.role === 'developer';

/** The events, in the order the source listed them when it was ListEvents output read in another order. */
function listed(events: JsonObject[], order: JsonValue | undefined, stashed: boolean): JsonObject[] {
  if (stashed || !Array.isArray(order) || order.length !== events.length) return events;
  const out: JsonObject[] = new Array<JsonObject>(events.length);
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (typeof i !== 'number' || out[i] !== undefined || i < 0 || i >= events.length) return events;
    out[i] = events[k] as JsonObject;
  }
  return out;
}

export function encodeRequest(req: Request, ctx: EncodeContext): JsonObject {
  const stash: JsonObject = {};
  // Each message with the names of the calls before it that its results answer (call-names.ts).
  const calls = new Map<string, string>();
  const ats: At[] = req.messages.map((m, i) => {
    const names = namesFor(m, calls);
    learnCalls(m, calls);
    return names === undefined ? { m, i } : { m, i, names };
  });
  const events: JsonObject[] = [];
  if (ats.some((a) => !isSystem(a.m))) {
    // A message joined to the next one (`$join`) or a system message belongs to the next event's group.
    const groups = stashGroups(ats, (a) => !isSystem(a.m) && own(a.m.ext)?.['$join'] !== true);
    for (const g of groups) events.push(...encodeMessageGroup(g, ctx));
  } else if (ats.length > 0) {
    for (const a of ats) {
      ctx.losses.push({ code: 'system-message', path: ['messages', a.i], message: `AgentCore Memory has no ${a.m.role} role: ${a.m.role} messages are not stored as events (keep them with the session's context)`, action: ctx.preserve ? 'stashed' : 'dropped' });
    }
    stash['$messages'] = req.messages as unknown as JsonValue[];
  }
  const stashed = events.some((e) => (e['payload'] as JsonObject[]).some((p) => typeof p['blob'] === 'string' && p['blob'].startsWith('{"blobType":"interlingua.stash"')));
  const out: JsonObject = { events: listed(events, own(req.ext)?.['$order'], stashed) };
  for (const key of TOP_FIELDS) {
    const value = req[key];
    if (value === undefined) continue;
    ctx.losses.push({ code: 'unsupported-field', path: [key], message: `AgentCore Memory events have no '${key}'`, action: ctx.preserve ? 'stashed' : 'dropped' });
    stash[key] = value as unknown as JsonValue;
  }
  restoreResidue(out, req.ext, AGENTCORE);
  const foreign = new LossList();
  reportForeignExt(req.ext, AGENTCORE, [], foreign);
  for (const l of foreign.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  if (hasForeignExt(req.ext, AGENTCORE)) {
    const ext: JsonObject = {};
    for (const origin in req.ext) if (origin !== AGENTCORE) ext[origin] = req.ext[origin] as JsonObject;
    stash['ext'] = ext;
  }
  putTopStash(out, stash, ctx);
  return out;
}
