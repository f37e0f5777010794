/**
 * AG-UI RunAgentInput -> canonical Request. Messages and tools map to their canonical slots; the
 * run's own fields (threadId, runId, state, context, forwardedProps, resume, protocolVersion,
 * parentRunId) have none and stay in ext['ag-ui'] for the way back (other formats report them).
 */
import type { Ext } from '../../model/ext.js';
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Request } from '../../model/request.js';
import type { FunctionTool } from '../../model/tool.js';
import type { DecodeContext } from '../codec.js';
import { applyTopStash } from '../shared/apply-top-stash.js';
import { keepResidue, residue } from '../shared/residue.js';
import { AG_UI, INPUT_KEYS, TOOL_KEYS } from './ag-ui-api.js';
import { decodeMessages } from './message-decode.js';
import { validateRequest } from './validate.js';
import { deleteKey, deleteKeys, withoutKey } from '../shared/delete-keys.js';

function decodeTool(t: JsonObject): FunctionTool {
  const tool: FunctionTool = { type: 'function', name: t['name'] as string };
  // AG-UI requires a description; '' is what its encoder writes when a tool has none.
  if (t['description'] !== '') tool.description = t['description'] as string;
  const params = t['parameters'];
  if (params !== null && typeof params === 'object' && !Array.isArray(params)) tool.parameters = params;
  keepResidue(tool, AG_UI, residue(t, params === undefined || tool.parameters !== undefined ? TOOL_KEYS : new Set(['name', 'description'])));
  return tool;
}

export function decodeRequest(input: unknown, ctx: DecodeContext): Request {
  const { body, args } = validateRequest(input, ctx.limits);
  const req: Request = { messages: decodeMessages(body['messages'] as JsonValue[], args, ctx) };
  const tools = body['tools'];
  let rest = residue(body, INPUT_KEYS);
  if (Array.isArray(tools)) {
    if (tools.length > 0) req.tools = tools.map((t) => decodeTool(t as JsonObject));
    else (rest ??= {})['tools'] = [];
  }
  (rest ??= {})['threadId'] = body['threadId'] as string;
  rest['runId'] = body['runId'] as string;
  keepResidue(req, AG_UI, rest);
  const fields = applyTopStash(req as unknown as JsonObject, body, ctx);
  // The ids were made up by an earlier encode of a request that had none.
  if (fields?.['$generatedIds'] === true) {
    const own = req.ext?.[AG_UI];
    if (own) {
      // deleteKeys, not delete, which leaves a dictionary of any key but the last.
      deleteKeys(own, (k) => k === 'threadId' || k === 'runId');
      if (Object.keys(own).length === 0) req.ext = withoutKey(req.ext as JsonObject, AG_UI) as Ext;
      if (req.ext && Object.keys(req.ext).length === 0) deleteKey(req as unknown as JsonObject, 'ext');
    }
  }
  return req;
}
