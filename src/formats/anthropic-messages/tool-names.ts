/**
 * Anthropic constrains tool names (`^[a-zA-Z0-9_-]{1,64}$`, the API's own error text) and tool
 * use ids (`^[a-zA-Z0-9_-]+$`). Other formats allow more (dots, colons, longer names). A name or
 * id that does not fit is rewritten deterministically — the same input always gives the same
 * output, so a tool, the calls to it and tool_choice stay consistent — and reported; `preserve`
 * stashes the originals for the way back.
 */
import type { Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { toSafeToolName } from '../shared/safe-tool-name.js';
import { stableHash } from '../shared/stable-hash.js';
import { childPath } from '../shared/child-path.js';

const ID_RE = /^[a-zA-Z0-9_-]+$/;
const BAD = /[^a-zA-Z0-9_-]/g;

/** A valid name (the rule Bedrock shares, shared/safe-tool-name.ts): invalid characters become '_', plus a hash. */
export const toAnthropicName: (name: string) => string = toSafeToolName;

export function toAnthropicId(id: string): string {
  if (ID_RE.test(id)) return id;
  return `${id.replace(BAD, '_')}_${stableHash(id)}`;
}

export function mapName(name: string, path: Path, losses: LossSink): string {
  const out = toAnthropicName(name);
  if (out !== name) {
    losses.push({ code: 'tool-name', path, message: `tool name '${name}' does not fit Anthropic's pattern; sent as '${out}'`, action: 'approximated' });
  }
  return out;
}

export function mapId(id: string, path: Path, losses: LossSink): string {
  const out = toAnthropicId(id);
  if (out !== id) {
    losses.push({ code: 'tool-id', path, message: `tool call id '${id}' does not fit Anthropic's pattern; sent as '${out}'`, action: 'approximated' });
  }
  return out;
}

/** mapId for `path`'s `key`: the path is built only when the id is rewritten. */
export function mapIdAt(id: string, path: Path, key: string, losses: LossSink): string {
  return ID_RE.test(id) ? id : mapId(id, childPath(path, key), losses);
}

/** mapName for `path`'s `key`: the path is built only when the name is rewritten. */
export function mapNameAt(name: string, path: Path, key: string, losses: LossSink): string {
  const out = toAnthropicName(name);
  return out === name ? name : mapName(name, childPath(path, key), losses);
}
