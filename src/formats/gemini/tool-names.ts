/**
 * Gemini's function name rule (FunctionDeclaration.name in the v1beta proto): a-z, A-Z, 0-9,
 * underscores, colons, dots and dashes, at most 64 characters; the docs add that it must start
 * with a letter or an underscore. A name that does not fit is rewritten deterministically (the
 * same input always gives the same output, so declarations, calls, responses and tool choice
 * agree) and reported; `preserve` stashes the original for the way back.
 */
import type { Path } from '../../model/loss.js';
import type { LossSink } from '../codec.js';
import { stableHash } from '../shared/stable-hash.js';
import { childPath } from '../shared/child-path.js';

const NAME = /^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/;
const BAD = /[^a-zA-Z0-9_.:-]/g;

/**
 * Memo of toGeminiName: a conversation names the same few tools over and over. Bounded in entries
 * and in key length, so a process fed arbitrary names (a gateway) holds at most ~1 MB here.
 */
const NAMES = new Map<string, string>();
const MEMO_NAME_MAX = 128;

export function toGeminiName(name: string): string {
  let out = NAMES.get(name);
  if (out === undefined) {
    out = geminiName(name);
    if (NAMES.size < 4096 && name.length <= MEMO_NAME_MAX) NAMES.set(name, out);
  }
  return out;
}

function geminiName(name: string): string {
  if (NAME.test(name)) return name;
  const base = name.replace(BAD, '_').slice(0, 54);
  return `${/^[a-zA-Z_]/.test(base) ? '' : '_'}${base}_${stableHash(name)}`;
}

/** The Gemini name for `name`, reported at `path` + `key` when rewritten (the path is built only then). */
export function mapName(name: string, path: Path, key: string | undefined, losses: LossSink): string {
  const out = toGeminiName(name);
  if (out !== name) {
    losses.push({ code: 'tool-name', path: key === undefined ? path : childPath(path, key), message: `tool name '${name}' does not fit Gemini's rule; sent as '${out}'`, action: 'approximated' });
  }
  return out;
}
