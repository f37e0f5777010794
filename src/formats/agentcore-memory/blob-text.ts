/**
 * "Would the encoder write this blob text back byte for byte?", answered from the value the
 * decoder already parsed from that text instead of walking the written blob against the text:
 * `JSON.stringify(written) === text` holds exactly when the written blob has the same JSON text as
 * the parsed one (`sameJsonText`, a walk of two objects whose long strings are mostly the same
 * string) and the text is the JSON text `JSON.stringify` gives its own parsed value
 * (`isOwnJsonText`, shared/json-text.ts). The second check skips comparing the characters of
 * plain strings, which were most of the cost of the read-back check on every event.
 */
import type { JsonValue } from '../../model/json.js';

/**
 * Whether `JSON.stringify(written) === JSON.stringify(parsed)`, for `parsed` a `JSON.parse` result
 * (no undefined, no non-finite numbers). Keys in order; a key holding undefined is left out, an
 * undefined array item or non-finite number reads as null, as JSON.stringify writes them.
 */
export function sameJsonText(written: JsonValue | undefined, parsed: JsonValue): boolean {
  if (written === parsed) return true;
  if (written === undefined || written === null || typeof written !== 'object') {
    return typeof written === 'number' && !Number.isFinite(written) && parsed === null;
  }
  if (parsed === null || typeof parsed !== 'object') return false;
  if (Array.isArray(written)) {
    if (!Array.isArray(parsed) || written.length !== parsed.length) return false;
    for (let k = 0; k < written.length; k++) if (!sameJsonText(written[k] ?? null, parsed[k] as JsonValue)) return false;
    return true;
  }
  if (Array.isArray(parsed)) return false;
  const keys = Object.keys(parsed);
  let n = 0;
  for (const key of Object.keys(written)) {
    const v = written[key];
    if (v === undefined) continue;
    if (keys[n++] !== key || !sameJsonText(v, parsed[key] as JsonValue)) return false;
  }
  return n === keys.length;
}
