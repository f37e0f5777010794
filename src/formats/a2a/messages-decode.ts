/**
 * Wire A2A messages (a list, a task's history, one message) -> canonical messages, taking the
 * `preserve` stashes an encode left in their metadata (stash.ts): a stashed group's canonical
 * messages replace its wire messages (when they still match them), and each run of wire messages
 * between stashes is compacted (compact.ts) on its own.
 */
import { isJsonObject, type JsonObject, type JsonValue } from '../../model/json.js';
import type { Path } from '../../model/loss.js';
import type { Message } from '../../model/message.js';
import { DEFAULT_LIMITS, type DecodeContext, type LossSink } from '../codec.js';
import { LossList } from '../shared/loss-list.js';
import { takeMessageStash } from '../shared/stash.js';
import type { A2aVersion } from './a2a-api.js';
import { compactRecords, toRecord, type Rec } from './compact.js';
import { childPath } from '../shared/child-path.js';
import { liftMessageStash, NO_KIND } from './stash.js';
import { readMessage, v1MessageOk } from './validate.js';
import type { Note } from './versions.js';

export interface DecodedMessages {
  messages: Message[];
  /** Whether each message came from a stash (aligned with `messages`). */
  stashed: boolean[];
  /** The version of the first wire message. */
  version: A2aVersion;
}

/** A note that goes nowhere: a span read back alone has had its version notes already. */
const silent: Note = () => undefined;

/** Messages decoded alone: the preserve stash's SpanDecoder (shared/stash.ts). */
export function decodeSpan(wire: readonly JsonObject[]): Message[] {
  return decodeMessages(wire, [], { limits: DEFAULT_LIMITS, losses: new LossList() }, silent).messages;
}

/**
 * Decodes `list` (wire messages found at `path`, or one message found at `path` itself when
 * `single`). Every wire message is validated, stashed or not.
 */
export function decodeMessages(list: readonly JsonValue[], path: Path, ctx: DecodeContext, note: Note, single = false): DecodedMessages {
  // One path per message, made once (validation and compaction both name it).
  const n = list.length;
  // The messages with their metadata stash lifted: `list` itself until one has a stash.
  let lifted: readonly JsonValue[] = list;
  const paths: Path[] = new Array<Path>(n);
  // Each message in its v1.0 form.
  const values: JsonObject[] = new Array<JsonObject>(n);
  let version: A2aVersion = '1.0';
  for (let i = 0; i < n; i++) {
    const raw = liftMessageStash(list[i] as JsonValue);
    if (raw !== list[i]) {
      if (lifted === list) lifted = list.slice();
      (lifted as JsonValue[])[i] = raw;
    }
    const at = single ? path : childPath(path, i);
    paths[i] = at;
    // A valid v1.0 message (the common case) is taken as it is: readMessage's own first test, without its Read.
    if (isJsonObject(raw) && v1MessageOk(raw)) values[i] = raw;
    else {
      const read = readMessage(raw, at, note);
      if (i === 0) version = read.version;
      // A v0.3 message written without its `kind` (as the spec's examples are) is written back so.
      // Its v1.0 form is a new object (versions.ts), so the hint is set on it: no copy.
      if (read.version === '0.3' && (raw as JsonObject)['kind'] === undefined) read.value[NO_KIND] = true;
      values[i] = read.value;
    }
  }
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
  const stashCtx: DecodeContext = { limits: ctx.limits, losses: sink };
  for (let i = 0; i < lifted.length; ) {
    const stash = takeMessageStash(lifted, i, stashCtx, path, decodeSpan);
    if (stash) {
      flush();
      for (const m of stash.messages) {
        messages.push(m);
        stashed.push(true);
      }
      i += stash.span;
      continue;
    }
    run.push(toRecord(values[i] as JsonObject, paths[i] as Path));
    i++;
  }
  flush();
  return { messages, stashed, version };
}
