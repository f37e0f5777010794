/**
 * The stream encoder's helpers around the non-streaming response codec: the `response` object of
 * the lifecycle events (built by `encodeResponse` with no output; the streamed items are set as
 * its output), a loss sink that re-roots the response codec's paths at the canonical events they
 * came from, and ext merging as the accumulator does it.
 */
import type { Ext } from '../../model/ext.js';
import type { JsonObject } from '../../model/json.js';
import type { Loss, Path } from '../../model/loss.js';
import type { Response } from '../../model/response.js';
import type { StopReason } from '../../model/stop-reason.js';
import type { Usage } from '../../model/usage.js';
import type { LossSink } from '../codec.js';
import { OPENAI_RESPONSES } from './openai-responses-api.js';
import { encodeResponse } from './response.js';

const OR = OPENAI_RESPONSES;

/** Per origin, `b`'s fields over `a`'s (as the accumulator merges a block's start and end ext). */
export function mergeExt(a: Ext | undefined, b: Ext | undefined): Ext | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out: Ext = { ...a };
  for (const [origin, v] of Object.entries(b)) out[origin] = { ...out[origin], ...v };
  return out;
}

/** Only this format's own ext (its residue): what a lifecycle event may carry early. */
export function ownOnly(ext: Ext | undefined): Ext | undefined {
  const own = ext?.[OR];
  return own === undefined ? undefined : { [OR]: own };
}

/** A sink that rewrites each loss's path before passing it on. */
export function mapped(sink: LossSink, map: (path: Path) => Path): LossSink {
  return { push: (l: Loss) => sink.push({ ...l, path: map(l.path) }) };
}

export const DISCARD: LossSink = { push: () => undefined };

/** What the encoder knows of the response so far (canonical), besides its items. */
export interface Head {
  id: string;
  model?: string;
  created: number;
  ext?: Ext;
  usage?: Partial<Usage>;
  stopReason?: StopReason;
  choiceExt?: Ext;
}

/** Where in the canonical stream the fields of the envelope came from, for loss paths. */
export interface HeadOrigins {
  usage: number;
  finish: number;
  end: number;
}

/**
 * The whole `response` object: the response codec's envelope (status from the stop reason, usage,
 * incomplete_details, the spec's required echo fields) with `output` = the streamed items.
 */
export function envelope(head: Head, output: JsonObject[], losses: LossSink, at: HeadOrigins): JsonObject {
  const res: Response = { id: head.id, created: head.created, choices: [{ index: 0, message: { role: 'assistant', parts: [] } }] };
  const choice = res.choices[0] as Response['choices'][number];
  if (head.model !== undefined) res.model = head.model;
  if (head.ext !== undefined) res.ext = head.ext;
  if (head.usage !== undefined) res.usage = { inputTokens: 0, outputTokens: 0, ...head.usage };
  if (head.stopReason !== undefined) choice.stopReason = head.stopReason;
  if (head.choiceExt !== undefined) choice.ext = head.choiceExt;
  const sink = mapped(losses, (path) => {
    if (path[0] === 'usage') return [at.usage, ...path];
    if (path[0] === 'choices') return [at.finish, ...path.slice(2)];
    return [at.end, ...path];
  });
  const body = encodeResponse(res, { preserve: false, losses: sink }) as unknown as JsonObject;
  body['output'] = output;
  return body;
}
