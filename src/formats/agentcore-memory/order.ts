/**
 * Conversation order of listed events. ListEvents returns events newest first and the docs promise
 * no order (reference §1.4, §5.1), so when every event has its `eventTimestamp` they are read
 * oldest first: a newest-first list is reversed, then sorted stably by timestamp and then by
 * Camunda's turn-local `seq` metadata (missing or not a number: last), as Camunda's store does.
 * Timestamps are epoch seconds (the REST JSON form) or date-time text (SDK / CLI dumps).
 */
import type { Issue } from '../../model/errors.js';
import { isJsonObject, type JsonValue } from '../../model/json.js';

function millis(v: JsonValue | undefined): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v * 1000 : Number.NaN;
  if (typeof v === 'string') return Date.parse(v);
  return v === undefined ? undefined : Number.NaN;
}

function seq(event: JsonValue | undefined): number {
  const meta = isJsonObject(event) ? event['metadata'] : undefined;
  const entry = isJsonObject(meta) ? meta['seq'] : undefined;
  const text = isJsonObject(entry) ? entry['stringValue'] : undefined;
  const n = typeof text === 'string' && /^-?\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  return Number.isNaN(n) ? Number.POSITIVE_INFINITY : n;
}

/**
 * The order to read `events` in: `order[k]` is the index of the k-th event to read. The identity
 * when some event has no timestamp. A timestamp that is not one is an issue.
 */
export function readingOrder(events: readonly JsonValue[], issues: Issue[]): number[] {
  const identity = events.map((_e, i) => i);
  const times: number[] = [];
  let all = true;
  events.forEach((e, i) => {
    const t = millis(isJsonObject(e) ? e['eventTimestamp'] : undefined);
    if (t === undefined) all = false;
    else if (Number.isNaN(t)) issues.push({ code: 'invalid_timestamp', path: ['events', i, 'eventTimestamp'], message: 'eventTimestamp is neither epoch seconds nor a date-time', expected: 'epoch seconds or an ISO 8601 date-time' });
    times.push(t ?? 0);
  });
  if (!all || times.some(Number.isNaN) || events.length < 2) return identity;
  const at = (i: number): number => times[i] as number;
  const newestFirst = times.every((t, i) => i === 0 || t <= at(i - 1)) && times.some((t, i) => i > 0 && t < at(i - 1));
  const base = newestFirst ? [...identity].reverse() : identity;
  const seqs = events.map(seq);
  return [...base].sort((a, b) => at(a) - at(b) || (seqs[a] as number) - (seqs[b] as number) || 0);
}
