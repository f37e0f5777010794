/**
 * The hand check of a Gemini stream chunk (src/formats/gemini/stream-fast.ts) says "valid"
 * exactly where responseSchema does: on every chunk of the captures and the bench stream, and on
 * every one-field edit of them (each field at any depth, and each known field in its other
 * spelling, removed or replaced by a value of another type).
 */
import { describe, expect, it } from 'vitest';
import { responseSchema } from '../../../src/formats/gemini/schema.js';
import { chunkOk, plainChunk } from '../../../src/formats/gemini/stream-fast.js';
import { validateChunk } from '../../../src/formats/gemini/stream-validate.js';
import { localStreamCaptures, sharedStreamCaptures } from '../../support/streams.js';
import { syntheticWire } from '../../../bench/stream/synthetic.js';
import { oneFieldEdits } from '../../support/one-field-edits.js';

const REPLACEMENTS: unknown[] = [undefined, null, '', 'x', 'model', 0, -1, 1.5, 2 ** 53, NaN, true, [], [{}], [undefined], ['a'], {}, { a: 1 }, Object.create(null), [{ text: 1 }], { mimeType: 1 }];
/** Keys tried on every object besides its own: the schema's fields that the captures leave out, in both spellings. */
const EXTRA = [
  'text', 'thought', 'thoughtSignature', 'thought_signature', 'inlineData', 'inline_data', 'fileData', 'file_data', 'functionCall', 'function_call',
  'functionResponse', 'function_response', 'executableCode', 'executable_code', 'codeExecutionResult', 'code_execution_result', 'videoMetadata',
  'video_metadata', 'partMetadata', 'part_metadata', 'mediaResolution', 'finish_reason', 'finishMessage', 'finish_message', 'avgLogprobs',
  'avg_logprobs', 'safetyRatings', 'safety_ratings', 'citationMetadata', 'grounding_metadata', 'promptFeedback', 'prompt_feedback', 'usage_metadata',
  'model_version', 'response_id', 'createTime', 'create_time', 'blockReason', 'prompt_token_count', 'totalTokenCount', 'willContinue', 'will_continue',
  'response', 'parts', 'mime_type', 'fileUri', 'file_uri', 'language', 'code', 'outcome', 'output', 'id', 'name', 'args', 'role', 'index', 'content', 'candidates',
];

const EDITS = { replacements: REPLACEMENTS, extraKeys: EXTRA, maxDepth: 6 };

const chunks = [...localStreamCaptures('gemini'), ...sharedStreamCaptures('gemini')].flatMap((c) => c.events.map((e) => e.data));
chunks.push(...syntheticWire('gemini').map((e) => e.data));
const objects = [...new Map(chunks.filter((d) => typeof d === 'object' && d !== null && !Array.isArray(d)).map((d) => [JSON.stringify(d), d as Record<string, unknown>])).values()];

describe('gemini stream chunk fast check', () => {
  it('agrees with responseSchema on every chunk and its one-field edits', () => {
    let yes = 0;
    let no = 0;
    // The edits of a few distinct chunks of each shape; every chunk itself.
    for (const [n, chunk] of objects.entries()) {
      expect(chunkOk(chunk), JSON.stringify(chunk)).toBe(responseSchema.safeParse(chunk).success);
      if (n % 20 !== 0) continue;
      for (const edited of oneFieldEdits(chunk, EDITS)) {
        const zod = responseSchema.safeParse(edited).success;
        expect(chunkOk(edited as Record<string, unknown>), JSON.stringify(edited)).toBe(zod);
        if (zod) yes++;
        else no++;
      }
    }
    expect(objects.length).toBeGreaterThan(50);
    expect(yes).toBeGreaterThan(1000);
    expect(no).toBeGreaterThan(1000);
  });

  it('says "plain chunk" only of chunks valid for the schema and the part rules', () => {
    let plain = 0;
    for (const [n, chunk] of objects.entries()) {
      const edits = n % 20 === 0 ? [chunk, ...oneFieldEdits(chunk, EDITS)] : [chunk];
      for (const edited of edits) {
        if (!plainChunk(edited as Record<string, unknown>)) continue;
        plain++;
        expect(responseSchema.safeParse(edited).success, JSON.stringify(edited)).toBe(true);
        expect(() => validateChunk(edited as Record<string, never>, 0)).not.toThrow();
      }
    }
    expect(plain).toBeGreaterThan(200);
  });
});
