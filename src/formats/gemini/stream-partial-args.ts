/**
 * Vertex streaming function-call arguments (`streamFunctionCallArguments`): a call's arguments
 * arrive as `partialArgs`, each a JSON path (RFC 9535, e.g. `$.recipe.steps[2]`) and one value; a
 * string value with `willContinue` goes on in the next PartialArg for the same path. The model
 * writes the JSON in document order, so the arguments can be written out as JSON text as they
 * come: this writer turns each PartialArg into the next fragment of that text (canonical
 * tool-call deltas), keeping only the chain of containers still open.
 */
import { ValidationError } from '../../model/errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import { either } from './stream-field.js';

type Segment = string | number;

interface Frame {
  kind: 'object' | 'array';
  /** The segment that leads into this container from its parent ('$' for the root). */
  seg: Segment;
  count: number;
  /** Keys written so far (objects): a path coming back to one cannot be written in order. */
  keys?: Set<string>;
}

/**
 * Where a PartialArg is on the wire: its candidate's path, its part's index and its own. The path
 * is made only for an error (one PartialArg a chunk; most streams have none).
 */
export interface ArgAt {
  candidate: Path;
  part: number;
  arg: number;
}

function pathOf(at: ArgAt, ...tail: Segment[]): Path {
  return [...at.candidate, 'content', 'parts', at.part, 'functionCall', 'partialArgs', at.arg, ...tail];
}

function fail(path: Path, message: string, code = 'invalid_partial_args'): never {
  throw new ValidationError([{ code, path, message }]);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** `$.a.b[0]['c d']` -> ['a', 'b', 0, 'c d']. Dot names, bracketed indices and quoted names. */
export function parseJsonPath(text: string, at: ArgAt): Segment[] {
  if (!text.startsWith('$')) fail(pathOf(at, 'jsonPath'), `jsonPath '${text}' does not start with '$'`);
  const segs: Segment[] = [];
  let i = 1;
  while (i < text.length) {
    const c = text[i];
    if (c === '.') {
      let j = i + 1;
      while (j < text.length && text[j] !== '.' && text[j] !== '[') j++;
      if (j === i + 1) fail(pathOf(at, 'jsonPath'), `jsonPath '${text}': empty name at ${i}`);
      segs.push(text.slice(i + 1, j));
      i = j;
    } else if (c === '[') {
      const q = text[i + 1];
      if (q === "'" || q === '"') {
        let name = '';
        let j = i + 2;
        for (; j < text.length && text[j] !== q; j++) {
          if (text[j] === '\\') {
            const e = text[++j];
            if (e === 'u') {
              name += String.fromCharCode(parseInt(text.slice(j + 1, j + 5), 16));
              j += 4;
            } else name += ({ b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' } as Record<string, string>)[e ?? ''] ?? e ?? '';
          } else name += text[j];
        }
        if (text[j + 1] !== ']') fail(pathOf(at, 'jsonPath'), `jsonPath '${text}': unterminated name at ${i}`);
        segs.push(name);
        i = j + 2;
      } else {
        // `[digits]`, read in place (no slice and regex per index).
        let j = i + 1;
        while (j < text.length && isDigit(text.charCodeAt(j))) j++;
        if (j === i + 1 || text[j] !== ']') fail(pathOf(at, 'jsonPath'), `jsonPath '${text}': expected an index or a quoted name at ${i}`);
        segs.push(Number(text.slice(i + 1, j)));
        i = j + 1;
      }
    } else fail(pathOf(at, 'jsonPath'), `jsonPath '${text}': unexpected '${c ?? ''}' at ${i}`);
  }
  if (segs.length === 0) fail(pathOf(at, 'jsonPath'), `jsonPath '${text}' names no argument`);
  if (typeof segs[0] !== 'string') fail(pathOf(at, 'jsonPath'), `jsonPath '${text}': function arguments are an object, not an array`);
  return segs;
}

/** One call's arguments as JSON text, fragment by fragment. */
export class PartialArgsWriter {
  private readonly frames: Frame[] = [];
  /** The jsonPath of a string value still open (its closing quote not written yet). */
  private openString: string | undefined;

  /** The text fragment one PartialArg adds. `at` locates the PartialArg on the wire, for errors. */
  push(arg: JsonValue | undefined, at: ArgAt): string {
    if (!isJsonObject(arg)) fail(pathOf(at), 'a partialArgs entry must be an object');
    const jsonPath = either(arg, 'jsonPath', 'json_path');
    if (typeof jsonPath !== 'string') fail(pathOf(at, 'jsonPath'), "a partialArgs entry needs a 'jsonPath'");
    const more = either(arg, 'willContinue', 'will_continue') === true;
    const str = either(arg, 'stringValue', 'string_value');
    let out = '';
    if (this.openString !== undefined) {
      if (jsonPath === this.openString) {
        if (typeof str !== 'string') fail(pathOf(at), `the string at '${jsonPath}' goes on with a value that is not a string`);
        out = escaped(str);
        if (!more) {
          out += '"';
          this.openString = undefined;
        }
        return out;
      }
      // The string ended without a closing fragment: close it before the next value.
      out = '"';
      this.openString = undefined;
    }
    const value = scalar(arg, at);
    const segs = parseJsonPath(jsonPath, at);
    if (this.frames.length === 0) {
      out += '{';
      this.frames.push({ kind: 'object', seg: '$', count: 0, keys: new Set() });
    }
    // Containers shared with the open chain stay open; deeper ones close; new ones open.
    const containers = segs.length - 1;
    let common = 0;
    while (common < containers && common + 1 < this.frames.length && this.frames[common + 1]?.seg === segs[common]) common++;
    while (this.frames.length > common + 1) out += this.frames.pop()?.kind === 'array' ? ']' : '}';
    for (let i = common; i < segs.length; i++) {
      out += this.member(segs[i] as Segment, jsonPath, at);
      if (i === containers) break;
      const kind = typeof segs[i + 1] === 'number' ? 'array' : 'object';
      out += kind === 'array' ? '[' : '{';
      this.frames.push(kind === 'array' ? { kind, seg: segs[i] as Segment, count: 0 } : { kind, seg: segs[i] as Segment, count: 0, keys: new Set() });
    }
    if (value === undefined) {
      // A string value: open until a PartialArg without willContinue closes it.
      out += `"${escaped(str as string)}`;
      if (more) this.openString = jsonPath;
      else out += '"';
    } else out += value;
    return out;
  }

  /** The closing fragment: open string and containers; `{}` when no argument came. */
  finish(): string {
    if (this.frames.length === 0) return '{}';
    let out = this.openString === undefined ? '' : '"';
    this.openString = undefined;
    while (this.frames.length > 0) out += this.frames.pop()?.kind === 'array' ? ']' : '}';
    return out;
  }

  /** The text that puts the next member into the innermost open container. */
  private member(seg: Segment, jsonPath: string, at: ArgAt): string {
    const top = this.frames[this.frames.length - 1] as Frame;
    const comma = top.count > 0 ? ',' : '';
    if (top.kind === 'object') {
      if (typeof seg !== 'string') fail(pathOf(at), `jsonPath '${jsonPath}': index [${seg}] into an object`);
      if (top.keys?.has(seg)) fail(pathOf(at), `jsonPath '${jsonPath}' comes back to '${seg}', which was already written (arguments stream in document order)`);
      top.keys?.add(seg);
      top.count++;
      return `${comma}"${escaped(seg)}":`;
    }
    if (typeof seg !== 'number') fail(pathOf(at), `jsonPath '${jsonPath}': name '${seg}' inside an array`);
    if (seg !== top.count) fail(pathOf(at), `jsonPath '${jsonPath}': element ${seg} comes where element ${top.count} is next (arguments stream in document order)`);
    top.count++;
    return comma;
  }
}

/** The JSON text of a non-string value, or undefined for a string value (written apart). */
function scalar(arg: JsonObject, at: ArgAt): string | undefined {
  const str = either(arg, 'stringValue', 'string_value');
  const num = either(arg, 'numberValue', 'number_value');
  const bool = either(arg, 'boolValue', 'bool_value');
  const nul = either(arg, 'nullValue', 'null_value');
  const given = (str !== undefined ? 1 : 0) + (num !== undefined ? 1 : 0) + (bool !== undefined ? 1 : 0) + (nul !== undefined ? 1 : 0);
  if (given !== 1) fail(pathOf(at), `a partialArgs entry holds exactly one of stringValue, numberValue, boolValue, nullValue (got ${given})`);
  if (typeof str === 'string') return undefined;
  if (str !== undefined) fail(pathOf(at, 'stringValue'), 'stringValue must be a string');
  if (num !== undefined) {
    if (typeof num !== 'number' || !Number.isFinite(num)) fail(pathOf(at, 'numberValue'), 'numberValue must be a finite number');
    return JSON.stringify(num);
  }
  if (bool !== undefined) {
    if (typeof bool !== 'boolean') fail(pathOf(at, 'boolValue'), 'boolValue must be a boolean');
    return bool ? 'true' : 'false';
  }
  return 'null';
}

/** A string's JSON escaping without the quotes: fragments escaped apart concatenate to the whole. */
function escaped(s: string): string {
  return plainInJson(s) ? s : JSON.stringify(s).slice(1, -1);
}

/**
 * Whether JSON writes `s` as it is (most fragments): no quote, backslash or control character, and
 * no surrogate (a lone one is escaped; a string with any goes to JSON.stringify).
 */
function plainInJson(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}
