/** Small helpers shared by the AG-UI stream decoder's parts. */
import { isJsonObject, type JsonObject } from '../../model/json.js';
import { residue } from '../shared/residue.js';
import { AG_UI, META_KEY } from './ag-ui-api.js';
import type { Block } from './stream-reasoning.js';

/** The fields an event maps, as a Set made once per event type (not once per event). */
export function fields(...names: string[]): ReadonlySet<string> {
  return new Set(names);
}

const END_FIELDS = {
  messageId: [fields('type', 'messageId'), fields('type', 'messageId', 'subagentRunId')],
  toolCallId: [fields('type', 'toolCallId'), fields('type', 'toolCallId', 'subagentRunId')],
} as const;

/** The fields an end event maps: its type and id, and its subagentRunId when that repeats the block's own. */
export function endFields(idKey: 'messageId' | 'toolCallId', sameSub: boolean): ReadonlySet<string> {
  return END_FIELDS[idKey][sameSub ? 1 : 0];
}

/** An event's fields other than `known`, with `metadata.interlingua` taken out (returned apart). */
export function splitResidue(e: JsonObject, known: ReadonlySet<string>): { rest: JsonObject | undefined; ours: JsonObject | undefined } {
  let rest = residue(e, known);
  const meta = rest?.['metadata'];
  let ours: JsonObject | undefined;
  if (isJsonObject(meta) && isJsonObject(meta[META_KEY])) {
    ours = meta[META_KEY];
    const { [META_KEY]: _ours, ...others } = meta;
    if (Object.keys(others).length > 0) (rest as JsonObject)['metadata'] = others;
    else delete (rest as JsonObject)['metadata'];
    if (Object.keys(rest as JsonObject).length === 0) rest = undefined;
  }
  return { rest, ours };
}

/** `{ 'ag-ui': fields }`, or nothing when there are none. */
export function extOf(fields: JsonObject | undefined): { ext?: { [AG_UI]: JsonObject } } {
  return fields === undefined || Object.keys(fields).length === 0 ? {} : { ext: { [AG_UI]: fields } };
}

/**
 * What a delta event for `block` holds beside type, `idKey` and delta: nothing ('plain'), or only
 * fields its residue check would pass over ('more': reported already for the block, or the
 * block's own subagentRunId); undefined when it holds a field the check would report.
 */
export function deltaFields(e: JsonObject, idKey: string, block: Block): 'plain' | 'more' | undefined {
  let found: 'plain' | 'more' = 'plain';
  for (const key in e) {
    if (key === 'type' || key === idKey || key === 'delta') continue;
    if (!block.reported.has(key) && !(key === 'subagentRunId' && e[key] === block.sub)) return undefined;
    found = 'more';
  }
  return found;
}
