/**
 * `tools` and `toolConfig` <-> canonical tools and tool choice. A Gemini Tool object groups
 * function declarations and built-in tools (googleSearch, codeExecution, urlContext, mcpServers
 * ...): each declaration becomes a function tool and each other member a provider tool kept whole,
 * all with a `$group` hint naming the wire Tool they came from so the grouping comes back exactly.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { FunctionTool, Tool, ToolChoice } from '../../model/tool.js';
import type { LossSink } from '../codec.js';
import { keepResidue, restoreResidue } from '../shared/residue.js';
import { loss } from './content-encode.js';
import { lowerTypes, toGeminiSchema, upperTypes } from './json-schema.js';
import { mapName, toGeminiName } from './tool-names.js';
import { childPath } from '../shared/child-path.js';
import { applySnake, camelView, fieldSet, ID, own, reportExt, rest, withSnake } from './wire-util.js';

const TOOL_FIELDS = fieldSet(['functionDeclarations']);
const DECL_FIELDS = fieldSet(['name', 'description', 'parameters', 'parametersJsonSchema', 'response', 'responseJsonSchema', 'behavior']);

export function decodeTools(list: JsonValue[]): Tool[] {
  const out: Tool[] = [];
  list.forEach((raw, i) => {
    const t = raw as JsonObject;
    const view = camelView(t, TOOL_FIELDS);
    const before = out.length;
    const decls = view.obj['functionDeclarations'];
    if (Array.isArray(decls) && decls.length > 0) {
      decls.forEach((d, k) => {
        const tool = decodeDeclaration(d as JsonObject, i);
        if (k === 0 && view.snake) tool.ext = { ...tool.ext, [ID]: { ...tool.ext?.[ID], $toolSnake: view.snake } };
        out.push(tool);
      });
    }
    for (const key in t) {
      if (TOOL_FIELDS.has(key) && Array.isArray(decls) && decls.length > 0) continue;
      out.push({ type: 'provider', origin: ID, name: key, config: { [key]: t[key] as JsonValue }, ext: { [ID]: { $group: i } } });
    }
    if (out.length === before) out.push({ type: 'provider', origin: ID, config: t, ext: { [ID]: { $group: i } } });
  });
  return out;
}

function decodeDeclaration(raw: JsonObject, group: number): FunctionTool {
  const view = camelView(raw, DECL_FIELDS);
  const d = view.obj;
  const tool: FunctionTool = { type: 'function', name: d['name'] as string };
  if (typeof d['description'] === 'string') tool.description = d['description'];
  const mapped = new Set(['name', 'description']);
  const hints: JsonObject = { $group: group };
  const params = d['parameters'];
  const jsonParams = d['parametersJsonSchema'];
  if (isJsonObject(params)) {
    const lower = lowerTypes(params);
    tool.parameters = lower ?? params;
    if (lower) hints['$upperTypes'] = true;
    // Gemini's own Schema goes back as it came (Vertex's Schema takes more than the common subset).
    hints['$geminiSchema'] = true;
    mapped.add('parameters');
  } else if (isJsonObject(jsonParams)) {
    tool.parameters = jsonParams;
    hints['$jsonSchema'] = true;
    mapped.add('parametersJsonSchema');
  }
  keepResidue(tool, ID, { ...withSnake(rest(d, mapped), view), ...hints });
  return tool;
}

/** Canonical tools -> Gemini Tool objects; undefined when nothing is left to send. */
export function encodeTools(tools: readonly Tool[], losses: LossSink): JsonObject[] | undefined {
  const groups = new Map<string, JsonObject>();
  const snakes = new Map<JsonObject, JsonValue>();
  for (let k = 0; k < tools.length; k++) {
    const t = tools[k] as Tool;
    const path = ['tools', k];
    const g = own(t.ext)?.['$group'];
    if (t.type === 'provider') {
      if (t.origin !== ID) {
        loss(losses, 'provider-tool', path, `${t.origin} built-in tool${t.name ? ` '${t.name}'` : ''} has no Gemini equivalent`);
        continue;
      }
      if (t.cache) loss(losses, 'cache-hint', childPath(path, 'cache'), 'Gemini has no cache breakpoints on tools');
      reportExt(t.ext, path, losses);
      Object.assign(group(groups, typeof g === 'number' ? `g${g}` : `p${k}`), t.config);
      continue;
    }
    const target = group(groups, typeof g === 'number' ? `g${g}` : 'functions');
    const decls = Array.isArray(target['functionDeclarations']) ? target['functionDeclarations'] : (target['functionDeclarations'] = []);
    decls.push(encodeDeclaration(t, path, losses));
    const snake = own(t.ext)?.['$toolSnake'];
    if (snake !== undefined) snakes.set(target, snake);
  }
  for (const [target, snake] of snakes) applySnake(target, snake);
  return groups.size > 0 ? [...groups.values()] : undefined;
}

/** The wire Tool object for a group key, made on first use. */
function group(groups: Map<string, JsonObject>, key: string): JsonObject {
  let g = groups.get(key);
  if (!g) groups.set(key, (g = {}));
  return g;
}

function encodeDeclaration(t: FunctionTool, path: Path, losses: LossSink): JsonObject {
  const hints = own(t.ext);
  const out: JsonObject = { name: mapName(t.name, path, 'name', losses) };
  if (t.description !== undefined) out['description'] = t.description;
  if (t.parameters !== undefined) {
    if (hints?.['$jsonSchema'] === true) out['parametersJsonSchema'] = t.parameters;
    else {
      const schema = hints?.['$geminiSchema'] === true ? t.parameters : toGeminiSchema(t.parameters, childPath(path, 'parameters'), losses);
      out['parameters'] = hints?.['$upperTypes'] === true ? upperTypes(schema) : schema;
    }
  }
  if (t.strict !== undefined) loss(losses, 'tool-strict', childPath(path, 'strict'), 'Gemini function declarations have no strict switch');
  if (t.cache) loss(losses, 'cache-hint', childPath(path, 'cache'), 'Gemini has no cache breakpoints on tools');
  restoreResidue(out, t.ext, ID);
  applySnake(out, hints?.['$snake']);
  reportExt(t.ext, path, losses);
  return out;
}

/**
 * functionCallingConfig.mode -> tool choice: AUTO auto, NONE none, ANY required, or ANY with one
 * allowed name a named tool. A list of several allowed names has no canonical slot (residue), nor
 * has one name outside Gemini's rule (a named choice would be written back renamed).
 * Returns the residue of `toolConfig` (what was not mapped), or undefined.
 */
export function decodeToolConfig(tc: JsonObject): { choice?: ToolChoice; residue?: JsonObject } {
  const fcc = tc['functionCallingConfig'];
  if (!isJsonObject(fcc)) return { residue: tc };
  const mode = fcc['mode'];
  const names = fcc['allowedFunctionNames'];
  let choice: ToolChoice | undefined;
  const used = new Set<string>(['mode']);
  if (mode === 'AUTO') choice = { type: 'auto' };
  else if (mode === 'NONE') choice = { type: 'none' };
  else if (mode === 'ANY') {
    if (Array.isArray(names) && names.length === 1 && typeof names[0] === 'string' && toGeminiName(names[0]) === names[0]) {
      choice = { type: 'tool', name: names[0] };
      used.add('allowedFunctionNames');
    } else choice = { type: 'required' };
  }
  if (choice === undefined) return { residue: tc };
  const fccRest = rest(fcc, used);
  const { functionCallingConfig: _fcc, ...others } = tc;
  const residue: JsonObject = { ...others };
  if (fccRest) residue['functionCallingConfig'] = fccRest;
  return Object.keys(residue).length > 0 ? { choice, residue } : { choice };
}

/** Tool choice (+ the toolConfig residue) -> toolConfig. */
export function encodeToolConfig(choice: ToolChoice | undefined, residue: JsonValue | undefined, losses: LossSink): JsonObject | undefined {
  const base = isJsonObject(residue) ? residue : undefined;
  if (choice === undefined) return base;
  const fcc: JsonObject = isJsonObject(base?.['functionCallingConfig']) ? { ...base['functionCallingConfig'] } : {};
  if (choice.type === 'auto') fcc['mode'] = 'AUTO';
  else if (choice.type === 'none') fcc['mode'] = 'NONE';
  else if (choice.type === 'required') fcc['mode'] = 'ANY';
  else {
    fcc['mode'] = 'ANY';
    fcc['allowedFunctionNames'] = [mapName(choice.name, ['toolChoice', 'name'], undefined, losses)];
  }
  return { ...base, functionCallingConfig: fcc };
}
