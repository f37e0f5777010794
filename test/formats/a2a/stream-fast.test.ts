/**
 * The a2a stream fast check (src/formats/a2a/stream-fast.ts) says "valid" only where the v1.0
 * schema does: on the generated bench stream's events, and on every one-field edit of them (each
 * field, at every depth, removed or replaced by a value of another type).
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { V1ArtifactUpdateSchema, V1MessageSchema, V1StatusUpdateSchema, V1TaskSchema } from '../../../src/formats/a2a/schema.js';
import { v1ObjectOk } from '../../../src/formats/a2a/stream-fast.js';
import type { ObjectKind } from '../../../src/formats/a2a/validate.js';
import { syntheticWire } from '../../../bench/stream/synthetic.js';
import { oneFieldEdits } from '../../support/one-field-edits.js';

const SCHEMAS: Record<string, [ObjectKind, z.ZodType]> = {
  task: ['task', V1TaskSchema],
  message: ['message', V1MessageSchema],
  statusUpdate: ['status-update', V1StatusUpdateSchema],
  artifactUpdate: ['artifact-update', V1ArtifactUpdateSchema],
};

const REPLACEMENTS: unknown[] = [undefined, null, '', 'x', 0, 1.5, true, [], [1], ['a'], {}, { text: 'a' }, 'TASK_STATE_WORKING', 'ROLE_USER', Object.create(null)];

const EDITS = { replacements: REPLACEMENTS, extraKeys: ['text', 'data', 'metadata', 'parts'] };

const events = syntheticWire('a2a').map((w) => (w.data as { result: Record<string, unknown> }).result);
const extra: Record<string, unknown>[] = [
  { artifactUpdate: { taskId: 't', contextId: 'c', append: true, lastChunk: false, artifact: { artifactId: 'a', name: 'n', parts: [{ url: 'u', mediaType: 'image/png' }, { raw: 'AAAA' }], extensions: ['e'] } } },
  { task: { id: 't', status: { state: 'TASK_STATE_COMPLETED', timestamp: 'now' }, history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a' }], referenceTaskIds: ['r'] }], artifacts: [{ artifactId: 'a', parts: [{ data: { x: 1 } }] }] } },
  { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ data: [1], metadata: {} }], extensions: [] } },
];

describe('a2a stream fast check', () => {
  it('agrees with the schema on the bench stream and every one-field edit of its events', () => {
    let yes = 0;
    let no = 0;
    const seen = new Set<string>();
    for (const event of [...events, ...extra]) {
      const [wrapper] = Object.keys(event);
      const entry = SCHEMAS[wrapper as string];
      if (entry === undefined) continue;
      const [kind, schema] = entry;
      const key = JSON.stringify(event);
      if (seen.has(key)) continue;
      seen.add(key);
      const inner = event[wrapper as string] as Record<string, unknown>;
      expect(v1ObjectOk(kind, inner)).toBe(schema.safeParse(inner).success);
      for (const edited of oneFieldEdits(inner, EDITS)) {
        if (typeof edited !== 'object' || edited === null || Array.isArray(edited)) continue;
        const fast = v1ObjectOk(kind, edited as Record<string, unknown>);
        const zod = schema.safeParse(edited).success;
        expect(fast, JSON.stringify(edited)).toBe(zod);
        if (zod) yes++;
        else no++;
      }
    }
    expect(yes).toBeGreaterThan(100);
    expect(no).toBeGreaterThan(100);
  });
});
