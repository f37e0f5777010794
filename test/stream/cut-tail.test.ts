/**
 * A stream cut inside its last event (in the middle of an SSE event's JSON, or inside an AWS
 * event-stream message) is a cut stream: what arrived whole is transcoded, the partial event is
 * left out, and the end says `incomplete-stream` naming the cut, as a cut at an event boundary does.
 */
import { describe, expect, it } from 'vitest';
import { rawCaptures, toBody, transcodeBody } from '../support/raw-streams.js';

const utf8 = new TextDecoder();

/** One capture per source dialect that has a byte framing with events of more than a few bytes. */
const sources = ['anthropic-messages', 'openai-chat', 'openai-responses', 'gemini', 'bedrock-converse'].map((dialect) => {
  const capture = rawCaptures().find((c) => c.dialect === dialect && c.events.length >= 4);
  if (capture === undefined) throw new Error(`no capture of ${dialect}`);
  return { dialect, body: toBody(dialect, capture.events), last: toBody(dialect, capture.events.slice(-1)).length };
});

describe.each(sources)('$dialect cut inside its last event', ({ dialect, body, last }) => {
  // Half of the last event is kept: for SSE that is inside its JSON data.
  const cut = body.slice(0, body.length - Math.ceil(last / 2));

  it('the output of what arrived whole is written', async () => {
    const { bytes } = await transcodeBody(cut, { from: dialect, to: dialect });
    expect(bytes.length).toBeGreaterThan(0);
  });

  it.each(['openai-chat', 'anthropic-messages', 'bedrock-converse'])('into %s: output, then incomplete-stream naming the cut', async (to) => {
    const { bytes, losses } = await transcodeBody(cut, { from: dialect, to });
    const incomplete = losses.filter((l) => l.code === 'incomplete-stream');
    expect(incomplete).toHaveLength(1);
    expect(incomplete[0]?.message).toMatch(/cut inside (an event's data \(\d+ characters arrived\)|a message \(\d+ bytes left\))/);
    // Bedrock's metadata (usage) follows its messageStop: a cut there loses the usage after a complete message.
    if (dialect !== 'bedrock-converse' && to === 'openai-chat') expect(utf8.decode(bytes)).not.toContain('[DONE]');
  });

  it('under strict: a LossError, not a validation error', async () => {
    await expect(transcodeBody(cut, { from: dialect, to: 'openai-chat', strict: true })).rejects.toMatchObject({ name: 'LossError' });
  });
});
