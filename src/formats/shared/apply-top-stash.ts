import { isJsonObject, type JsonObject } from '../../model/json.js';
import type { DecodeContext } from '../codec.js';
import { deleteKey } from './delete-keys.js';
import { takeTopStash } from './stash.js';

/** Fields an earlier encode had no slot for come back from the body-level stash. */
export function applyTopStash(target: JsonObject, body: JsonObject, ctx: DecodeContext): JsonObject | undefined {
  const fields = takeTopStash(body, ctx);
  if (!fields) return undefined;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || key.startsWith('$')) continue;
    if (value === null) deleteKey(target, key); // the field was absent (e.g. no model)
    else if (key === 'ext' && isJsonObject(value)) target['ext'] = { ...value, ...(isJsonObject(target['ext']) ? target['ext'] : {}) };
    else target[key] = value;
  }
  return fields;
}
