/**
 * `recall` to a format that ignores agentcore-memory's `$event` hints (readsHints false) reads the
 * events without them, skipping the check that gives them. That must not change what recall gives:
 * for events of every kind (written by this codec with and without preserve, the same events with
 * their blobs spelled otherwise, with store fields around them, Camunda's and Strands' own), the
 * messages encoded to each message format, and their losses, are the same as when read with hints.
 */
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventsToMessages, messageToEvent } from '../../src/formats/agentcore-memory/index.js';
import { LossList } from '../../src/formats/shared/loss-list.js';
import { encodeMessages, MESSAGE_FORMATS, readsHints } from '../../src/memory/index.js';
import type { Message } from '../../src/model/message.js';
import { message } from '../formats/agentcore-memory/arbitrary.js';

type Wire = Record<string, unknown>;

function encoded(messages: Message[], format: string): unknown {
  try {
    return encodeMessages(messages, format);
  } catch (err) {
    return { threw: (err as Error).message };
  }
}

/** Every format's recall of `events`, read as recall reads them for it, equals the one read with hints. */
function expectSameRecall(events: readonly unknown[]): void {
  let withHints: Message[];
  const lossesWith = new LossList();
  try {
    withHints = eventsToMessages(events, { losses: lossesWith });
  } catch {
    return; // events the codec refuses are refused either way
  }
  const lossesWithout = new LossList();
  const without = eventsToMessages(events, { losses: lossesWithout, verbatim: false });
  expect(lossesWithout.items).toEqual(lossesWith.items);
  for (const format of MESSAGE_FORMATS) {
    expect(encoded(readsHints(format) ? withHints : without, format)).toEqual(encoded(withHints, format));
  }
}

/** The event with its blobs as other JSON text of the same value (which the codec keeps verbatim). */
const respelled = (e: Wire): Wire => ({
  ...e,
  payload: (e['payload'] as Wire[]).map((p) => (typeof p['blob'] === 'string' ? { blob: JSON.stringify(JSON.parse(p['blob']), null, 1) } : p)),
});

describe('recall without agentcore-memory hints', () => {
  it('gives the same messages and losses in every format, for events of any kind', () => {
    fc.assert(
      fc.property(fc.array(message, { maxLength: 6 }), fc.boolean(), (messages, preserve) => {
        const events: Wire[] = [];
        for (const m of messages) {
          const { event } = messageToEvent(m, { preserve });
          if (event) events.push(event);
        }
        expectSameRecall(events);
        expectSameRecall(events.map(respelled));
        expectSameRecall(events.map((e) => ({ ...e, eventId: '0000001752235548000#0000000197f30a6b', eventTimestamp: '2025-07-11T12:00:00.000Z' })));
      }),
      { numRuns: 200 },
    );
  });

  it('gives the same for Camunda and Strands events', () => {
    const camunda = JSON.parse(readFileSync(new URL('../fixtures/agentcore-memory/camunda-vectors.json', import.meta.url), 'utf8')) as { mapper: { camunda?: unknown }[]; store: { events?: unknown[] }[] };
    for (const v of camunda.mapper) if (v.camunda !== undefined) expectSameRecall([v.camunda]);
    for (const v of camunda.store) if (v.events !== undefined) expectSameRecall(v.events);
    const strands = JSON.parse(readFileSync(new URL('../fixtures/agentcore-memory/strands-session-events.json', import.meta.url), 'utf8')) as { events: unknown[] };
    expectSameRecall(strands.events);
  });
});
