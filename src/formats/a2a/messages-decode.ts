/**
 * Wire A2A messages (a list, a task's history, one message) -> canonical messages, taking the
 * `preserve` stashes an encode left in their metadata (stash.ts): a stashed group's canonical
 * messages replace its wire messages (when they still match them), and each run of wire messages
 * between stashes is compacted (compact.ts) on its own.
 */
import type { JsonObject, JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import type { DecodeContext, LossSink } from '../codec.js';
import { takeMessageStash } from '../shared/stash.js';
import type { A2aVersion } from './a2a-api.js';
import { compactRecords, toRecord, type Rec } from './compact.js';
import { pathTo } from './parts.js';
import { liftMessageStash, NO_KIND } from './stash.js';
import { readMessage, type Read } from './validate.js';
import type { Note } from './versions.js';

export interface DecodedMessages {
  messages: Message[];
  /** Whether each message came from a stash (aligned with `messages`). */
  stashed: boolean[];
  /** The version of the first wire message. */
  version: A2aVersion;
}

/**
 * Decodes `list` (wire messages found at `path`, or one message found at `path` itself when
 * `single`). Every wire message is validated, stashed or not.
 */
export function decodeMessages(list: readonly JsonValue[], path: Path, ctx: DecodeContext, note: Note, single = false): DecodedMessages {
  // One path per message, made once (validation and compaction both name it).
  const n = list.length;
  const lifted: JsonValue[] = new Array<JsonValue>(n);
  const paths: Path[] = new Array<Path>(n);
  for (let i = 0; i < n; i++) {
    lifted[i] = liftMessageStash(list[i] as JsonValue);
    paths[i] = single ? path : pathTo(path, i);
  }
  const reads: Read[] = new Array<Read>(n);
  for (let i = 0; i < n; i++) reads[i] = readMessage(lifted[i], paths[i] as Path, note);
  // A stale stash on a single message is reported at the message, not at a list index.
  const sink: LossSink = single ? { push: (l) => ctx.losses.push({ ...l, path: [...path, ...l.path.slice(path.length + 1)] }) } : ctx.losses;
  const messages: Message[] = [];
  const stashed: boolean[] = [];
  let run: Rec[] = [];
  const flush = (): void => {
    const before = messages.length;
    if (run.length > 0) compactRecords(run, ctx.losses, ctx.limits, messages);
    for (let k = before; k < messages.length; k++) stashed.push(false);
    run = [];
  };
  for (let i = 0; i < lifted.length; ) {
    const stash = takeMessageStash(lifted, i, { limits: ctx.limits, losses: sink }, path);
    if (stash) {
      flush();
      for (const m of stash.messages) {
        messages.push(m);
        stashed.push(true);
      }
      i += stash.span;
      continue;
    }
    const read = reads[i] as Read;
    const raw = lifted[i] as JsonObject;
    // A v0.3 message written without its `kind` (as the spec's examples are) is written back so.
    const msg = read.version === '0.3' && raw['kind'] === undefined ? { ...read.value, [NO_KIND]: true } : read.value;
    run.push(toRecord(msg, paths[i] as Path));
    i++;
  }
  flush();
  return { messages, stashed, version: reads[0]?.version ?? '1.0' };
}
