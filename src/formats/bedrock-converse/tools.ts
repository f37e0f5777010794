/**
 * Bedrock `toolConfig` (tools + toolChoice) and `outputConfig` <-> canonical tools, tool choice and
 * response format. A wire object the canonical fields do not reproduce exactly (extra keys, a
 * schema text with other spacing) is also kept whole as residue and written back while the
 * canonical value still decodes from it.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Message } from '../../model/message.js';
import type { ResponseFormat } from '../../model/request.js';
import type { FunctionTool, Tool, ToolChoice } from '../../model/tool.js';
import type { LossSink } from '../codec.js';
import { keepResidue, reportForeignExt, restoreResidue } from '../shared/residue.js';
import { sameValue } from '../shared/same-value.js';
import { mapToolName } from './names.js';
import { decodeCachePoint, encodeCachePoint, ID, lose, memberOf, own, rest } from './wire-util.js';
import { childPath } from '../shared/child-path.js';

const TOOL_MEMBERS: ReadonlySet<string> = new Set(['toolSpec', 'systemTool', 'cachePoint']);
const SPEC_KEYS: ReadonlySet<string> = new Set(['name', 'description', 'inputSchema', 'strict']);
const CACHE_KEYS: ReadonlySet<string> = new Set(['type', 'ttl']);

export function decodeTools(list: JsonValue[]): Tool[] {
  const out: Tool[] = [];
  for (const raw of list) {
    const t = raw as JsonObject;
    const member = memberOf(t, TOOL_MEMBERS);
    if (member === 'toolSpec') {
      out.push(decodeSpec(t['toolSpec'] as JsonObject));
      continue;
    }
    if (member === 'cachePoint') {
      const prev = out[out.length - 1];
      const point = t['cachePoint'] as JsonObject;
      if (prev && prev.cache === undefined && Object.keys(t).length === 1 && rest(point, CACHE_KEYS) === undefined) {
        prev.cache = decodeCachePoint(point);
        continue;
      }
    }
    // systemTool (nova_grounding, nova_code_interpreter ...) or a cache point that does not fold.
    const name = member === 'systemTool' ? ((t['systemTool'] as JsonObject)['name'] as string) : undefined;
    out.push(name === undefined ? { type: 'provider', origin: ID, config: t } : { type: 'provider', origin: ID, name, config: t });
  }
  return out;
}

function decodeSpec(s: JsonObject): FunctionTool {
  const tool: FunctionTool = { type: 'function', name: s['name'] as string };
  if (typeof s['description'] === 'string') tool.description = s['description'];
  const schema = s['inputSchema'] as JsonObject;
  const json = schema['json'];
  const res = rest(s, SPEC_KEYS) ?? {};
  if (isJsonObject(json) && Object.keys(schema).length === 1) tool.parameters = json;
  else res['inputSchema'] = schema;
  if (typeof s['strict'] === 'boolean') tool.strict = s['strict'];
  keepResidue(tool, ID, Object.keys(res).length > 0 ? res : undefined);
  return tool;
}

const CHOICE_MEMBERS: ReadonlySet<string> = new Set(['auto', 'any', 'tool']);

export function decodeToolChoice(tc: JsonObject): ToolChoice {
  const member = memberOf(tc, CHOICE_MEMBERS);
  if (member === 'any') return { type: 'required' };
  if (member === 'tool') return { type: 'tool', name: (tc['tool'] as JsonObject)['name'] as string };
  return { type: 'auto' };
}

/** The plain wire form of a tool choice, for telling whether the original needs keeping. */
export function plainToolChoice(tc: ToolChoice, name: string): JsonObject | undefined {
  if (tc.type === 'auto') return { auto: {} };
  if (tc.type === 'required') return { any: {} };
  if (tc.type === 'tool') return { tool: { name } };
  return undefined;
}

/** Canonical tools -> `toolConfig.tools`; reports what does not fit. */
export function encodeTools(tools: readonly Tool[], losses: LossSink): JsonObject[] {
  const out: JsonObject[] = [];
  tools.forEach((t, i) => {
    const path = ['tools', i];
    if (t.type === 'provider') {
      if (t.origin !== ID) {
        lose(losses, 'provider-tool', path, `${t.origin} built-in tool${t.name ? ` '${t.name}'` : ''} has no Bedrock equivalent`);
        return;
      }
      reportForeignExt(t.ext, ID, path, losses);
      out.push(t.config);
    } else {
      const spec: JsonObject = { name: mapToolName(t.name, childPath(path, 'name'), losses) };
      if (t.description !== undefined && t.description !== '') spec['description'] = t.description;
      else if (t.description === '') lose(losses, 'empty-description', childPath(path, 'description'), 'Bedrock tool descriptions are non-empty; the empty one was left out', 'approximated');
      const kept = own(t.ext)?.['inputSchema'];
      // No parameters: an empty object schema means the same to the model.
      spec['inputSchema'] = t.parameters === undefined && isJsonObject(kept) ? kept : { json: t.parameters ?? { type: 'object', properties: {} } };
      if (t.strict !== undefined) spec['strict'] = t.strict;
      restoreResidue(spec, t.ext, ID);
      reportForeignExt(t.ext, ID, path, losses);
      out.push({ toolSpec: spec });
    }
    if (t.cache) out.push(encodeCachePoint(t.cache, childPath(path, 'cache'), losses));
  });
  return out;
}

/**
 * Bedrock refuses toolUse / toolResult blocks when the request defines no tools ("The toolConfig
 * field must be defined when using toolUse and toolResult content blocks"). A history with tool
 * calls but no tool list (common after trimming) gets a minimal spec for each tool it called.
 */
export function toolsForHistory(messages: readonly Message[]): JsonObject[] {
  const names: string[] = [];
  let results = false;
  for (const m of messages) {
    for (const p of m.parts) {
      if (p.type === 'tool-call' && !p.providerExecuted && !names.includes(p.name)) names.push(p.name);
      if (p.type === 'tool-result' && !p.providerExecuted) results = true;
    }
  }
  if (names.length === 0 && !results) return [];
  const silent: LossSink = { push: () => undefined };
  const list = names.length > 0 ? names : ['tool'];
  return list.map((n) => ({ toolSpec: { name: mapToolName(n, [], silent), inputSchema: { json: { type: 'object' } } } }));
}

export function decodeResponseFormat(oc: JsonObject): { format?: ResponseFormat; keep: boolean } {
  const tf = oc['textFormat'];
  const structure = isJsonObject(tf) ? tf['structure'] : undefined;
  const js = isJsonObject(structure) ? structure['jsonSchema'] : undefined;
  if (!isJsonObject(js) || typeof js['schema'] !== 'string') return { keep: true };
  let schema: JsonValue;
  try {
    schema = JSON.parse(js['schema']) as JsonValue;
  } catch {
    return { keep: true };
  }
  if (!isJsonObject(schema)) return { keep: true };
  const format: ResponseFormat = { type: 'json-schema', schema };
  if (typeof js['name'] === 'string') format.name = js['name'];
  if (typeof js['description'] === 'string') format.description = js['description'];
  return { format, keep: !sameValue(encodeFormat(format), oc) };
}

export function encodeFormat(rf: ResponseFormat & { type: 'json-schema' }): JsonObject {
  const js: JsonObject = { schema: JSON.stringify(rf.schema) };
  if (rf.name !== undefined) js['name'] = rf.name;
  if (rf.description !== undefined) js['description'] = rf.description;
  return { textFormat: { type: 'json_schema', structure: { jsonSchema: js } } };
}
