/**
 * Names Bedrock constrains, rewritten deterministically (the same input always gives the same
 * output, so a tool, the calls to it and toolChoice stay consistent) and reported; `preserve`
 * stashes the originals for the way back.
 * - ToolName (Smithy): `^[a-zA-Z0-9_-]+$`, 1-64 characters. That is exactly Anthropic's tool-name
 *   rule, so the shared rewriter (shared/safe-tool-name.ts) is used as is.
 * - ToolUseId (Smithy): `^[a-zA-Z0-9_.:-]+$`, 1-64 characters (dots and colons allowed, unlike Anthropic).
 * - DocumentBlock.name: 1-200 characters (Smithy); only alphanumerics, single whitespace characters,
 *   hyphens, parentheses and square brackets (the API reference's wording).
 */
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { Part } from '../../model/part.js';
import type { LossSink } from '../codec.js';
import { toSafeToolName } from '../shared/safe-tool-name.js';
import { stableHash } from '../shared/stable-hash.js';
import { childPath } from '../shared/child-path.js';

export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
export const TOOL_USE_ID = /^[a-zA-Z0-9_.:-]{1,64}$/;
const BAD_ID = /[^a-zA-Z0-9_.:-]/g;
/** One allowed character, or one whitespace character not followed by another. */
export const DOCUMENT_NAME = /^(?:[a-zA-Z0-9()[\]-]|\s(?!\s))+$/;
export const DOCUMENT_NAME_MAX = 200;

/** ASCII codes allowed in a tool name. */
const NAME_CHARS = (() => {
  const t = new Uint8Array(128);
  for (let c = 0; c < 128; c++) if (/[a-zA-Z0-9_-]/.test(String.fromCharCode(c))) t[c] = 1;
  return t;
})();

/** TOOL_NAME.test(name), by a loop: names are short, where the regex costs more per call. */
export function isToolName(name: string): boolean {
  if (name.length < 1 || name.length > 64) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c >= 128 || NAME_CHARS[c] === 0) return false;
  }
  return true;
}

/** A character a tool use id may not hold. */
const NOT_ID_CHAR = /[^a-zA-Z0-9_.:-]/;

/**
 * TOOL_USE_ID.test(id). Ids run to 20-40 characters, where a search for one character outside the
 * set beats a loop like isToolName's (42 against 57 ns on a 30-character id).
 */
export function isToolUseId(id: string): boolean {
  return id.length >= 1 && id.length <= 64 && !NOT_ID_CHAR.test(id);
}

export function isDocumentName(name: string): boolean {
  return name.length >= 1 && name.length <= DOCUMENT_NAME_MAX && DOCUMENT_NAME.test(name);
}

export function toBedrockToolName(name: string): string {
  // The loop answers the common valid name before the shared rewriter's regex would.
  return isToolName(name) ? name : toSafeToolName(name);
}

export function toBedrockToolId(id: string): string {
  if (isToolUseId(id)) return id;
  return `${id.replace(BAD_ID, '_').slice(0, 55)}_${stableHash(id)}`;
}

/** The name Bedrock accepts; a rewrite is reported at `path` (+ `key`: the path is built only then). */
export function mapToolName(name: string, path: Path, losses: LossSink, key?: string): string {
  const out = toBedrockToolName(name);
  if (out !== name) {
    losses.push({ code: 'tool-name', path: key === undefined ? path : childPath(path, key), message: `tool name '${name}' does not fit Bedrock's pattern; sent as '${out}'`, action: 'approximated' });
  }
  return out;
}

/** The id Bedrock accepts; a rewrite is reported at `path` (+ `key`: the path is built only then). */
export function mapToolId(id: string, path: Path, losses: LossSink, key?: string): string {
  const out = toBedrockToolId(id);
  if (out !== id) {
    losses.push({ code: 'tool-id', path: key === undefined ? path : childPath(path, key), message: `tool use id '${id}' does not fit Bedrock's pattern; sent as '${out}'`, action: 'approximated' });
  }
  return out;
}

/**
 * A valid document name for `wanted`: characters Bedrock refuses become '-', whitespace runs become
 * one space, an over-long name is cut and given a hash of the original so it stays distinct.
 */
export function toDocumentName(wanted: string): string {
  if (isDocumentName(wanted)) return wanted;
  let name = wanted.replace(/[^a-zA-Z0-9()[\]\s-]/g, '-').replace(/\s+/g, ' ').trim();
  if (name.length > DOCUMENT_NAME_MAX) name = `${name.slice(0, DOCUMENT_NAME_MAX - 9).trimEnd()}-${stableHash(wanted)}`;
  return name === '' ? 'document' : name;
}

/**
 * Names documents across one request. Names that are already valid are kept as they are (so a
 * Bedrock body comes back exact); rewritten or made-up names avoid every valid name the request
 * holds anywhere (reserved up front), so no two documents end up with the same name.
 */
export class DocumentNamer {
  private readonly used = new Set<string>();
  private generated = 0;
  /** Messages whose names are reserved but not yet collected. */
  private toReserve: (readonly Message[])[] = [];

  /**
   * Reserves the valid names of every document part in `messages` (tool results included). They
   * are collected when a name is first made up: most requests never need one, so the walk over
   * every part is skipped (the set is the same whenever it is read).
   */
  reserve(messages: readonly Message[]): this {
    this.toReserve.push(messages);
    return this;
  }

  private collect(): void {
    for (const messages of this.toReserve) for (const m of messages) this.visit(m.parts);
    this.toReserve = [];
  }

  private visit(parts: readonly Part[]): void {
    for (const p of parts) {
      if (p.type === 'document' && p.name !== undefined && isDocumentName(p.name)) this.used.add(p.name);
      else if (p.type === 'tool-result') this.visit(p.content);
    }
  }

  name(name: string | undefined, title: string | undefined, path: Path, losses: LossSink): string {
    if (name !== undefined && isDocumentName(name)) {
      this.used.add(name);
      return name;
    }
    if (this.toReserve.length > 0) this.collect();
    let out: string;
    if (name !== undefined || title !== undefined) {
      const wanted = (name ?? title) as string;
      out = this.unique(toDocumentName(wanted));
      const message =
        name !== undefined
          ? `document name '${wanted}' does not fit Bedrock's name rules; sent as '${out}'`
          : `Bedrock documents have no title; title '${wanted}' sent as the name '${out}'`;
      losses.push({ code: 'document-name', path: childPath(path, name !== undefined ? 'name' : 'title'), message, action: 'approximated' });
    } else {
      do out = `Document ${++this.generated}`;
      while (this.used.has(out));
      losses.push({ code: 'document-name', path: childPath(path, 'name'), message: `Bedrock documents need a name; sent as '${out}'`, action: 'approximated' });
    }
    this.used.add(out);
    return out;
  }

  private unique(name: string): string {
    if (!this.used.has(name)) return name;
    for (let n = 2; ; n++) {
      const suffix = ` (${n})`;
      const candidate = `${name.slice(0, DOCUMENT_NAME_MAX - suffix.length)}${suffix}`;
      if (!this.used.has(candidate)) return candidate;
    }
  }
}
