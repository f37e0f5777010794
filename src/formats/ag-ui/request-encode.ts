/**
 * Canonical Request -> AG-UI RunAgentInput. The run's ids and fields come back from ext['ag-ui'];
 * a request from another format gets `thread-1` / `run-1` (AG-UI requires both; reported). AG-UI has
 * no model, sampling, tool choice or output format: every such field is a loss, stashed at the top
 * level under `preserve`.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Request } from '../../model/request.js';
import type { Tool } from '../../model/tool.js';
import type { EncodeContext, LossSink } from '../codec.js';
import { hasForeignExt } from '../shared/foreign-ext.js';
import { LossList } from '../shared/loss-list.js';
import { reportForeignExt, restoreResidue } from '../shared/residue.js';
import { putTopStash } from '../shared/stash.js';
import { AG_UI, type RunAgentInput } from './ag-ui-api.js';
import { loss, own } from './content-encode.js';
import { encodeMessages } from './messages-encode.js';
import { childPath } from '../shared/child-path.js';

/** Top-level canonical fields, all without an AG-UI slot. */
const TOP_FIELDS = [
  'model', 'toolChoice', 'parallelToolCalls', 'maxTokens', 'temperature', 'topP', 'topK', 'stop', 'seed',
  'presencePenalty', 'frequencyPenalty', 'responseFormat', 'reasoning', 'user', 'candidateCount', 'stream', 'metadata',
] as const;

function encodeTool(tool: Tool, i: number, losses: LossSink): JsonObject | undefined {
  const path = ['tools', i];
  reportForeignExt(tool.ext, AG_UI, path, losses);
  if (tool.cache) loss(losses, 'cache-control', path, 'AG-UI has no cache breakpoints on tools');
  if (tool.type === 'provider') {
    loss(losses, 'provider-tool', path, `${tool.origin} tool '${tool.name ?? String(tool.config['type'])}' has no AG-UI equivalent`);
    return undefined;
  }
  // AG-UI requires a description; a tool without one gets '' (read back as none).
  const out: JsonObject = { name: tool.name, description: tool.description ?? '' };
  if (tool.parameters !== undefined) out['parameters'] = tool.parameters;
  if (tool.strict !== undefined) loss(losses, 'unsupported-field', childPath(path, 'strict'), 'AG-UI tools have no strict flag');
  restoreResidue(out, tool.ext, AG_UI);
  return out;
}

export function encodeRequest(req: Request, ctx: EncodeContext): RunAgentInput {
  const hints = own(req.ext);
  const out: JsonObject = {};
  const stash: JsonObject = {};
  const threadId = hints?.['threadId'];
  const runId = hints?.['runId'];
  out['threadId'] = typeof threadId === 'string' ? threadId : 'thread-1';
  out['runId'] = typeof runId === 'string' ? runId : 'run-1';
  if (typeof threadId !== 'string' || typeof runId !== 'string') {
    loss(ctx.losses, 'missing-run-ids', ['ext', AG_UI], `AG-UI requires threadId and runId; '${String(out['threadId'])}' / '${String(out['runId'])}' written`, 'approximated');
    stash['$generatedIds'] = true;
  }
  out['messages'] = encodeMessages(req.messages, ctx);
  if (req.tools !== undefined && req.tools.length > 0) {
    const local = new LossList();
    const tools: JsonObject[] = [];
    req.tools.forEach((t, i) => {
      const w = encodeTool(t, i, local);
      if (w) tools.push(w);
    });
    out['tools'] = tools;
    for (const l of local.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
    // An empty description reads back as none (the '' AG-UI requires when a tool has none).
    const inexact = req.tools.some((t) => hasForeignExt(t.ext, AG_UI) || (t.type === 'function' && t.description === ''));
    if (local.length > 0 || inexact) stash['tools'] = req.tools as unknown as JsonObject[];
  }
  for (const key of TOP_FIELDS) {
    const value = req[key];
    if (value === undefined) continue;
    ctx.losses.push({ code: 'unsupported-field', path: [key], message: `AG-UI RunAgentInput has no '${key}'`, action: ctx.preserve ? 'stashed' : 'dropped' });
    stash[key] = value as JsonValue;
  }
  restoreResidue(out, req.ext, AG_UI);
  const foreign = new LossList();
  reportForeignExt(req.ext, AG_UI, [], foreign);
  for (const l of foreign.items) ctx.losses.push(ctx.preserve ? { ...l, action: 'stashed' } : l);
  if (hasForeignExt(req.ext, AG_UI)) {
    const ext: JsonObject = {};
    for (const origin in req.ext) if (origin !== AG_UI) ext[origin] = req.ext[origin] as JsonObject;
    stash['ext'] = ext;
  }
  putTopStash(out, stash, ctx);
  return out as unknown as RunAgentInput;
}
