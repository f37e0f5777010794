/**
 * AgentCore Memory events against every other dialect, on real bodies (test/support/samples.ts):
 * - every request capture of every registered dialect -> agentcore-memory -> back is exact under
 *   `preserve`, and the events (with and without `preserve`) are ones CreateEvent takes (the
 *   validator of test/support/validators/agentcore-memory.ts) and this codec reads;
 * - the agentcore-memory samples (the Camunda vectors) -> every dialect -> back are exact under
 *   `preserve` (whether the other dialect's own decoder takes its output is the matrix's question).
 * Without ../shared only the local captures and examples run (the sample list says which).
 */
import { describe, expect, it } from 'vitest';
import { formats, getCodec } from '../../../src/formats/registry.js';
import { hasSharedFixtures } from '../../support/captures.js';
import { samples } from '../../support/samples.js';
import { validateAgentcoreMemory } from '../../support/validators/agentcore-memory.js';
import { firstDifference } from '../../matrix/run.js';
import { codec, decode, via } from './helpers.js';

const OTHERS = formats().filter((f) => f.kinds.includes('request') && f.id !== 'agentcore-memory').map((f) => f.id);

describe.each(OTHERS)('%s requests -> agentcore-memory -> back', (id) => {
  const other = getCodec(id);
  const list = samples(id, 'request').filter((s) => s.invalid === undefined);
  const accepted = list.filter((s) => {
    try {
      other.request!.decode(s.body, { limits: { maxTextBytes: 100 * 1024 }, losses: { push: () => undefined } });
      return true;
    } catch {
      return false;
    }
  });

  // Without ../shared only anthropic-messages, openai-chat and the local copies have bodies.
  it.skipIf(!hasSharedFixtures() && list.length === 0)(`has captures (${accepted.length} of ${list.length} valid bodies decode)`, () => expect(accepted.length).toBeGreaterThan(0));

  it.each(accepted.map((s) => [s.name, s.body] as const))('%s', (_name, body) => {
    const plain = via(other, codec, body, false);
    expect(validateAgentcoreMemory('request', plain.value)).toEqual([]);
    expect(() => decode(plain.value)).not.toThrow();
    const kept = via(other, codec, body, true);
    const { ['x-interlingua']: _top, ...events } = kept.value as Record<string, unknown>;
    expect(validateAgentcoreMemory('request', events)).toEqual([]);
    const back = via(codec, other, kept.value, false);
    expect(firstDifference(body, back.value)).toBeUndefined();
  });
});

/**
 * Conversations of one odd message (a lone tool result, a result without a call id, a message with
 * nothing another dialect holds) that another dialect's encoder writes and its own decoder then
 * refuses: that codec's gap, not this one's. Each is expected to fail just so, so a fix shows here.
 */
const FOREIGN_GAPS: Record<string, RegExp> = {
  gemini: /functionResponse '[^']*' answers no earlier functionCall/,
  a2a: /a list of A2A messages must not be empty/,
  'agent-input': /Tool message must have toolCallId|expected string, array of content blocks, or array of messages/,
};

describe.each(OTHERS)('agentcore-memory samples -> %s -> back', (id) => {
  const other = getCodec(id);
  const list = samples('agentcore-memory', 'request').filter((s) => s.invalid === undefined);
  it.each(list.map((s) => [s.name, s.body] as const))('%s', (_name, body) => {
    const kept = via(codec, other, body, true);
    let back: unknown;
    try {
      back = via(other, codec, kept.value, false).value;
    } catch (e) {
      const gap = FOREIGN_GAPS[id];
      if (gap === undefined || !(e instanceof Error) || !gap.test(e.message)) throw e;
      return;
    }
    expect(firstDifference(body, back)).toBeUndefined();
  });
});
