/**
 * Chunk boundaries change nothing: the raw SSE bytes of each local capture (the recorded text for
 * `.sse`, our SSE writing for chunk lists), cut at random byte offsets (inside lines, inside UTF-8
 * sequences, between CR and LF) and read through the SSE framing, decode to the same events.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../src/model/stream-event.js';
import { frameReader } from '../../../src/stream/framing.js';
import { DEFAULT_LIMITS } from '../../../src/formats/codec.js';
import { gemini } from '../../../src/formats/gemini/index.js';
import { LossList } from '../../../src/formats/shared/loss-list.js';
import { LOCAL_FIXTURES } from '../../support/captures.js';
import { localStreamCaptures } from '../../support/streams.js';
import { decodeStream, encodeStream, toSse } from './stream-support.js';

const utf8 = new TextEncoder();

/** Decoded events of `bytes` delivered in pieces cut at `cuts`. */
function decodePieces(bytes: Uint8Array, cuts: number[]): StreamEvent[] {
  const reader = frameReader(gemini.stream!.framing);
  const d = gemini.stream!.decoder({ limits: DEFAULT_LIMITS, losses: new LossList() });
  const out: StreamEvent[] = [];
  let last = 0;
  for (const c of [...new Set(cuts)].sort((a, b) => a - b).concat(bytes.length)) {
    for (const w of reader.push(bytes.subarray(last, c))) out.push(...d.push(w));
    last = c;
  }
  for (const w of reader.end()) out.push(...d.push(w));
  out.push(...d.end());
  return out;
}

const captures = localStreamCaptures('gemini').map((c) => {
  const file = c.name.slice('local:'.length);
  const text = file.endsWith('.sse') ? readFileSync(join(LOCAL_FIXTURES, 'streams/gemini', file), 'utf8') : toSse(c.events);
  return { name: c.name, bytes: utf8.encode(text), whole: decodeStream(c.events).events };
});

describe('random chunk boundaries give the same canonical events', () => {
  it.each(captures.map((c) => [c.name, c] as const))('%s', (_n, c) => {
    expect(decodePieces(c.bytes, [])).toEqual(c.whole);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: c.bytes.length }), { maxLength: 24 }), (cuts) => {
        expect(decodePieces(c.bytes, cuts)).toEqual(c.whole);
      }),
      { numRuns: 40 },
    );
  });

  it('our own output, cut byte by byte, reads back the same', () => {
    const c = captures.find((x) => x.name === 'local:test_google_model_thinking_part_iter.sse');
    const wire = encodeStream(c?.whole ?? []).wire;
    const bytes = utf8.encode(toSse(wire));
    expect(decodePieces(bytes, Array.from({ length: bytes.length }, (_, i) => i))).toEqual(c?.whole);
  });
});
