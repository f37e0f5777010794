/**
 * Gemini function calls usually carry no id (the API pairs a functionResponse with its call by
 * name and position); canonical tool calls need one. A missing id is minted from the call itself
 * — `gemini_<hash of name and args>` — so decoding the same body always gives the same ids, the
 * call in a response and the same call replayed in the next request agree, and an encoder can
 * recognise a minted id (it recomputes the hash) and leave it out, making A -> canonical -> A exact.
 */
import type { JsonValue } from '../../model/json.js';
import { stableHash } from '../shared/stable-hash.js';

const MINTED = /^gemini_([0-9a-f]{8})(?:_\d+)?$/;

function baseId(name: string, args: JsonValue): string {
  return `gemini_${stableHash([name, args])}`;
}

/** True when `id` is what CallIds mints for a call with this name and args. */
export function isMintedId(id: string, name: string, args: JsonValue): boolean {
  const m = MINTED.exec(id);
  return m !== null && `gemini_${m[1] ?? ''}` === baseId(name, args);
}

/**
 * Minting and pairing for one body: identical calls get `_1`, `_2` ... suffixes; a functionResponse
 * without an id answers the earliest unanswered call of its name.
 */
export class CallIds {
  private readonly used = new Set<string>();
  private readonly open = new Map<string, string[]>();

  mint(name: string, args: JsonValue): string {
    const base = baseId(name, args);
    let id = base;
    for (let n = 1; this.used.has(id); n++) id = `${base}_${n}`;
    return id;
  }

  call(id: string, name: string): void {
    this.used.add(id);
    const q = this.open.get(name);
    if (q) q.push(id);
    else this.open.set(name, [id]);
  }

  /** The call id a response answers: its own id, else the earliest open call of that name. */
  answer(id: string | undefined, name: string): string {
    const q = this.open.get(name);
    if (id !== undefined) {
      const at = q ? q.indexOf(id) : -1;
      if (at >= 0) q?.splice(at, 1);
      return id;
    }
    const next = q?.shift();
    if (next !== undefined) return next;
    // No call to answer (validation allows this only in responses): a stable id all the same.
    const minted = this.mint(name, null);
    this.used.add(minted);
    return minted;
  }
}
